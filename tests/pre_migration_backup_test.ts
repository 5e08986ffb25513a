import assert from "node:assert/strict";
import { migrate, openStore } from "../db/client.ts";
import { openFile } from "../db/inspect.ts";
import { environmentMigrations } from "../db/migrations/mod.ts";
import { freePort, paysteadCommand, startPaystead, waitForUrl } from "./support/processes.ts";

const NAMES = Object.keys(environmentMigrations).sort();
const LAST = NAMES.at(-1)!;

/** A data folder whose sandbox database an older Paystead made: every migration but the last. */
async function olderSandbox(): Promise<string> {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-pre-migration-" });
  const store = await openStore(`file:${dataDir}/sandbox.db`);
  try {
    await migrate(
      store,
      Object.fromEntries(NAMES.slice(0, -1).map((name) => [name, environmentMigrations[name]])),
    );
  } finally {
    await store.close();
  }
  return dataDir;
}

async function migrationsIn(path: string): Promise<string[]> {
  const connection = openFile(path);
  try {
    const result = await connection.execute({
      sql: "SELECT name FROM schema_migrations ORDER BY name",
      args: [],
    });
    return result.rows.map((row) => String(row.name));
  } finally {
    connection.close();
  }
}

/** The files in `dir` but the folder's lock file. */
async function names(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name !== ".paystead-backup.lock") found.push(entry.name);
  }
  return found.sort();
}

Deno.test("[backups] a start that applies a new migration to an existing database backs it up first", async () => {
  const dataDir = await olderSandbox();
  try {
    const server = await startPaystead(dataDir, { LOG_LEVEL: "info" });
    let backup: string;
    try {
      // The accounts database was new: nothing to back up. The sandbox one lacked LAST.
      const written = await names(`${dataDir}/backups`);
      assert.equal(written.length, 1, written.join());
      assert.match(written[0], /^sandbox-before-migration-\d{8}T\d{6}Z\.db$/);
      backup = `${dataDir}/backups/${written[0]}`;
      assert.equal((await Deno.stat(backup)).mode! & 0o777, 0o600);
      assert.deepEqual(await migrationsIn(backup), NAMES.slice(0, -1));
      assert.deepEqual(await migrationsIn(`${dataDir}/sandbox.db`), NAMES);
      const line = server.logs().split("\n").find((l) => l.includes("backed up before migrating"));
      assert.ok(line, server.logs());
      const { level, database, path, migrations } = JSON.parse(line);
      assert.deepEqual({ level, database, path, migrations }, {
        level: "info",
        database: "environment",
        path: backup,
        migrations: [LAST],
      });
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
    // Nothing pending at the next start: no new backup.
    const again = await startPaystead(dataDir, { LOG_LEVEL: "info" });
    await again.stop();
    assert.equal((await names(`${dataDir}/backups`)).length, 1);
    assert.doesNotMatch(again.logs(), /backed up before migrating/);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[backups] a backup before migrating that fails stops the start with one line, migrating nothing", async () => {
  const dataDir = await olderSandbox();
  try {
    // A file where the backup folder should be.
    await Deno.writeTextFile(`${dataDir}/not-a-folder`, "");
    const port = freePort();
    const child = paysteadCommand(dataDir, { BACKUP_DIR: `${dataDir}/not-a-folder` }, port)
      .spawn();
    // A start that went on would serve until stopped.
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    const output = await child.output().finally(() => clearTimeout(timer));
    const stderr = new TextDecoder().decode(output.stderr).trim();
    assert.equal(output.code, 1, stderr);
    assert.equal(
      stderr,
      `Error: Cannot back up the environment database before applying migrations ${LAST}: ` +
        `File exists (os error 17): mkdir '${dataDir}/not-a-folder'. Nothing was migrated; make ` +
        `BACKUP_DIR (${dataDir}/not-a-folder) a writable folder and start again.`,
    );
    assert.equal(new TextDecoder().decode(output.stdout), "");
    assert.deepEqual(await migrationsIn(`${dataDir}/sandbox.db`), NAMES.slice(0, -1));
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[backups] a start that backs up before migrating first removes what a killed start left", async () => {
  const dataDir = await olderSandbox();
  const backupDir = `${dataDir}/backups`;
  try {
    await Deno.mkdir(backupDir);
    // A start killed while it backed up, and one killed while it uploaded a scheduled backup.
    const leftovers: Record<string, number> = {
      "sandbox-before-migration-20261125T080000Z.db.partial": 94_208,
      "sandbox-before-migration-20261125T080000Z.db.partial-journal": 512,
      ".sandbox-20261125T060000Z.db.0c1d2e3f4a5b6c7d.age": 94_521,
    };
    for (const [name, size] of Object.entries({ ...leftovers, "notes.txt": 12 })) {
      await Deno.writeFile(`${backupDir}/${name}`, new Uint8Array(size));
    }
    // BACKUP_INTERVAL is off: no scheduled backup sweeps the folder.
    const server = await startPaystead(dataDir, { LOG_LEVEL: "info" });
    assert.equal((await server.stop()).code, 0);
    const written = await names(backupDir);
    assert.equal(written.length, 2, written.join());
    assert.equal(written[0], "notes.txt");
    assert.match(written[1], /^sandbox-before-migration-\d{8}T\d{6}Z\.db$/);
    const removed = server.logs().split("\n").filter((line) => line.includes("backup leftover"))
      .map((line) => JSON.parse(line)).map(({ level, message, path, sizeBytes }) => ({
        level,
        message,
        path,
        sizeBytes,
      }));
    assert.deepEqual(
      removed,
      Object.entries(leftovers).sort(([a], [b]) => a.localeCompare(b)).map(([name, size]) => ({
        level: "info",
        message: "removed a backup leftover",
        path: `${backupDir}/${name}`,
        sizeBytes: size,
      })),
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[backups] a start backs up before migrating only once no other process holds BACKUP_DIR", async () => {
  const dataDir = await olderSandbox();
  const backupDir = `${dataDir}/backups`;
  await Deno.mkdir(backupDir);
  // Another process writing a backup there; a sweep it made meanwhile would take our .partial
  // for a dead process's.
  const other = await Deno.open(`${backupDir}/.paystead-backup.lock`, {
    read: true,
    write: true,
    create: true,
  });
  assert.equal(await other.tryLock(true), true);
  const port = freePort();
  const child = paysteadCommand(dataDir, { LOG_LEVEL: "info" }, port).spawn();
  let logs = "";
  const reading = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) logs += decoder.decode(chunk, { stream: true });
  })();
  const draining = child.stdout.pipeTo(new WritableStream());
  try {
    for (let i = 0; i < 300 && !logs.includes("waiting for another process's backup"); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match(
      logs,
      new RegExp(
        `"level":"info","message":"waiting for another process's backup in BACKUP_DIR","backupDir":"${backupDir}"`,
      ),
    );
    assert.deepEqual(await names(backupDir), []);
    assert.deepEqual(await migrationsIn(`${dataDir}/sandbox.db`), NAMES.slice(0, -1));

    await other.unlock();
    await waitForUrl(`http://127.0.0.1:${port}/healthz`);
    const written = await names(backupDir);
    assert.equal(written.length, 1, written.join());
    assert.match(written[0], /^sandbox-before-migration-\d{8}T\d{6}Z\.db$/);
    assert.deepEqual(await migrationsIn(`${dataDir}/sandbox.db`), NAMES);
  } finally {
    other.close();
    child.kill("SIGTERM");
    await child.status;
    await Promise.all([reading, draining]);
    await Deno.remove(dataDir, { recursive: true });
  }
});
