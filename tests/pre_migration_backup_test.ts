import assert from "node:assert/strict";
import { migrate, openStore } from "../db/client.ts";
import { openFile } from "../db/inspect.ts";
import { environmentMigrations } from "../db/migrations/mod.ts";
import { freePort, paysteadCommand, startPaystead } from "./support/processes.ts";

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

async function names(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) found.push(entry.name);
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
