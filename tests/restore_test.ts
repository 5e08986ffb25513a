import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { backupDatabase, openStore } from "../db/client.ts";
import { openFile } from "../db/inspect.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { loadConfig } from "../lib/config.ts";
import { createLogger } from "../lib/log.ts";
import { restoreDatabase } from "../lib/ops/restore.ts";
import { createTestOffer, makeTestApp } from "./support/helpers.ts";
import { runCli, startPaystead } from "./support/processes.ts";

async function digest(path: string): Promise<string> {
  const bytes = await Deno.readFile(path);
  return Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)))
    .map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function filesIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/** A migrated data folder with a backup of its sandbox database beside it. */
async function folderWithBackup() {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-restore-" });
  const env = { DATA_DIR: dataDir };
  const migrated = await runCli(["migrate"], env);
  assert.equal(migrated.code, 0, migrated.stderr);
  const backup = `${dataDir}/backup.db`;
  await backupDatabase(`file:${dataDir}/sandbox.db`, backup);
  return { dataDir, env, backup };
}

Deno.test("[restore] refuses while a server holds the data folder, naming the lock", async () => {
  const { dataDir, env, backup } = await folderWithBackup();
  try {
    const server = await startPaystead(dataDir);
    try {
      const refused = await runCli(["restore", "--from", backup], env);
      assert.equal(refused.code, 1);
      assert.equal(
        refused.stderr,
        `Error: A running Paystead server (or restore --verify) uses this database (it holds the lock ${dataDir}/sandbox.db.lock); stop it first (systemctl stop paystead-<env>) and run restore again.`,
      );
      const accounts = await runCli(["restore", "--from", backup, "--database", "accounts"], env);
      assert.equal(accounts.code, 1);
      assert.match(accounts.stderr, /it holds the lock .*\/accounts\.db\.lock/);
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
    const restored = await runCli(["restore", "--from", backup], env);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(
      restored.stdout,
      new RegExp(
        `^Restored ${dataDir}/sandbox\\.db \\(the environment database\\); PRAGMA integrity_check: ok\\.\nMigration level: current\\.\nRows:\n`,
      ),
    );
    assert.match(restored.stdout, /\n {2}payments: 0\n/);
    const kept = (await filesIn(dataDir)).filter((name) => name.includes(".replaced-"));
    const stamp = /^sandbox\.db\.replaced-\d{8}T\d{6}Z/.exec(kept[0])![0];
    assert.equal(kept[0], stamp);
    // A WAL or shared-memory file left beside the database is kept under the same name.
    for (const name of kept.slice(1)) assert.ok([`${stamp}-shm`, `${stamp}-wal`].includes(name));
    assert.match(restored.stdout, new RegExp(`\nKept the replaced files: ${dataDir}/${stamp}`));
    assert.equal((await Deno.stat(`${dataDir}/sandbox.db`)).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[restore] a corrupt file or a file of the other database changes nothing", async () => {
  const { dataDir, env, backup } = await folderWithBackup();
  try {
    const before = await digest(`${dataDir}/sandbox.db`);
    const listed = await filesIn(dataDir);

    const corrupt = `${dataDir}/corrupt.db`;
    const bytes = await Deno.readFile(backup);
    // Overwrite the middle of the file: b-tree pages the integrity check walks.
    bytes.fill(0x5a, 8192, 16384);
    await Deno.writeFile(corrupt, bytes);
    const refused = await runCli(["restore", "--from", corrupt], env);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `^Error: ${corrupt} (failed PRAGMA integrity_check|is not a readable SQLite database)`,
      ),
    );

    // One problem only, and no damage to the pages: a NULL where the schema says NOT NULL.
    const oneProblem = `${dataDir}/one-problem.db`;
    await Deno.copyFile(backup, oneProblem);
    const db = new DatabaseSync(oneProblem) as DatabaseSync & {
      enableDefensive(on: boolean): void;
    };
    db.enableDefensive(false);
    db.exec("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES (NULL)");
    db.exec("PRAGMA writable_schema = ON");
    db.exec(
      "UPDATE sqlite_schema SET sql = 'CREATE TABLE notes (text TEXT NOT NULL)' WHERE name = 'notes'",
    );
    db.exec("PRAGMA writable_schema = OFF");
    db.close();
    const one = await runCli(["restore", "--from", oneProblem], env);
    assert.equal(one.code, 1);
    assert.equal(
      one.stderr,
      `Error: ${oneProblem} failed PRAGMA integrity_check (NULL value in notes.text); take another backup.`,
    );

    await Deno.writeTextFile(
      `${dataDir}/text.db`,
      "not a database at all, just text\n".repeat(200),
    );
    const text = await runCli(["restore", "--from", `${dataDir}/text.db`], env);
    assert.equal(text.code, 1);
    assert.equal(
      text.stderr,
      `Error: ${dataDir}/text.db is not a readable SQLite database (file is not a database).`,
    );

    const other = await runCli(["restore", "--from", backup, "--database", "accounts"], env);
    assert.equal(other.code, 1);
    assert.equal(
      other.stderr,
      `Error: ${backup} is a backup of the environment database; pass --database environment to restore it.`,
    );

    assert.equal(await digest(`${dataDir}/sandbox.db`), before);
    assert.deepEqual(
      (await filesIn(dataDir)).filter((name) =>
        !["corrupt.db", "one-problem.db", "text.db"].includes(name) && !name.endsWith(".lock")
      ),
      listed,
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[restore] a newer migration level is refused; an older one is migrated forward", async () => {
  const { dataDir, env, backup } = await folderWithBackup();
  try {
    const newer = `${dataDir}/newer.db`;
    await Deno.copyFile(backup, newer);
    const connection = openFile(newer);
    connection.exec("INSERT INTO schema_migrations (name, applied_at) VALUES ('9999_future', 1)");
    connection.close();
    const before = await digest(`${dataDir}/sandbox.db`);
    const refused = await runCli(["restore", "--from", newer], env);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      `Error: ${newer} was written by a newer Paystead (migrations 9999_future); restore it with that version or newer.`,
    );
    assert.equal(await digest(`${dataDir}/sandbox.db`), before);

    const older = `${dataDir}/older.db`;
    await Deno.copyFile(backup, older);
    const downgrade = openFile(older);
    downgrade.exec("DROP TABLE config_import_mappings");
    downgrade.exec("DROP INDEX webhook_deliveries_finished");
    downgrade.exec("DELETE FROM schema_migrations WHERE name = '0008_operations'");
    downgrade.close();
    const verified = await runCli(["restore", "--from", older, "--verify"], env);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(
      verified.stdout,
      new RegExp(
        `^Verified: the backup passes PRAGMA integrity_check and would restore ${dataDir}/sandbox\\.db; nothing was changed\\.\nMigrated forward: 0008_operations\\.\n`,
      ),
    );
    assert.match(verified.stdout, /\n {2}config_import_mappings: 0\n/);
    assert.equal(await digest(`${dataDir}/sandbox.db`), before);
    assert.equal((await filesIn(dataDir)).some((name) => name.includes("replaced")), false);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[restore] a backup taken under write load restores a consistent database", async () => {
  const app = await makeTestApp();
  const target = await Deno.makeTempDir({ prefix: "paystead-restore-target-" });
  try {
    const offer = await createTestOffer(app);
    let writing = true;
    let created = 0;
    const load = Array.from({ length: 4 }, async () => {
      while (writing) {
        const response = await app.request("POST", "/api/v1/payments", { qrId: offer.qrId });
        assert.equal(response.status, 201);
        await response.body?.cancel();
        created++;
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    });
    while (created < 20) await new Promise((resolve) => setTimeout(resolve, 5));
    const backup = `${target}/under-load.db`;
    await backupDatabase(app.config.databaseUrl, backup);
    const createdAtBackup = created;
    while (created < createdAtBackup + 20) await new Promise((resolve) => setTimeout(resolve, 5));
    writing = false;
    await Promise.all(load);

    const config = loadConfig({ DATA_DIR: target });
    const report = await restoreDatabase(config, {
      from: backup,
      kind: "environment",
      verify: false,
      now: Date.now(),
    }, createLogger("error"));
    assert.deepEqual(report.kept, []);
    const restored = await openStore<EnvironmentSchema>(config.databaseUrl);
    try {
      const payments = await restored.db.selectFrom("payments").select("public_id").execute();
      const events = await restored.db.selectFrom("events").select("payload")
        .where("type", "=", "payment.created").execute();
      assert.equal(report.counts.payments, payments.length);
      assert.ok(payments.length >= 20 && payments.length < created);
      // Every payment with its event, and no event without its payment: one snapshot.
      assert.deepEqual(
        events.map((row) => JSON.parse(row.payload).data.paymentId).sort(),
        payments.map((row) => row.public_id).sort(),
      );
    } finally {
      await restored.close();
    }
  } finally {
    await app.close();
    await Deno.remove(target, { recursive: true });
  }
});

Deno.test("[restore] a backup whose schema is not what the migrations make is refused, naming the object", async () => {
  const { dataDir, env, backup } = await folderWithBackup();
  try {
    const before = await digest(`${dataDir}/sandbox.db`);
    const planted = `${dataDir}/planted.db`;
    await Deno.copyFile(backup, planted);
    const connection = openFile(planted);
    connection.exec(
      "CREATE TRIGGER payments_rewrite AFTER INSERT ON payments BEGIN UPDATE payments SET amount = amount * 100 WHERE id = NEW.id; END",
    );
    connection.close();
    for (const args of [[], ["--verify"]]) {
      const refused = await runCli(["restore", "--from", planted, ...args], env);
      assert.deepEqual(refused, {
        code: 1,
        stdout: "",
        stderr:
          `Error: ${planted} does not have the schema Paystead's migrations make: trigger payments_rewrite is not made by Paystead's migrations. Nothing was changed; restore a backup Paystead wrote.`,
      });
    }

    const loosened = `${dataDir}/loosened.db`;
    await Deno.copyFile(backup, loosened);
    const loosen = openFile(loosened);
    loosen.exec("DROP INDEX events_org");
    loosen.exec("CREATE INDEX events_org ON events (org_id)");
    loosen.exec("CREATE VIEW everything AS SELECT * FROM payments");
    loosen.close();
    const second = await runCli(["restore", "--from", loosened], env);
    assert.equal(second.code, 1);
    assert.equal(
      second.stderr,
      `Error: ${loosened} does not have the schema Paystead's migrations make: index events_org differs from what Paystead's migrations make; view everything is not made by Paystead's migrations. Nothing was changed; restore a backup Paystead wrote.`,
    );
    assert.equal(await digest(`${dataDir}/sandbox.db`), before);
    assert.equal((await filesIn(dataDir)).some((name) => /replaced|restoring/.test(name)), false);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
