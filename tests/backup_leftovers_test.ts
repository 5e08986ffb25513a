import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { migrate, openStore } from "../db/client.ts";
import { environmentMigrations } from "../db/migrations/mod.ts";
import { createLogger } from "../lib/log.ts";
import { makeTestApp } from "./support/helpers.ts";
import { freePort, paysteadCommand, startPaystead } from "./support/processes.ts";
import { holdLockInChild } from "./support/lock_holder.ts";

async function namesIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/** The `removed a backup leftover` lines among JSON log `lines`, as [path, bytes], sorted. */
function removed(lines: string[]): [string, number][] {
  return lines.filter((line) => line.includes('"removed a backup leftover"'))
    .map((line) => JSON.parse(line))
    .map((line): [string, number] => {
      assert.equal(line.level, "info");
      return [line.path, line.sizeBytes];
    })
    .sort((a, b) => a[0].localeCompare(b[0]));
}

async function writeBytes(path: string, size: number): Promise<void> {
  await Deno.writeFile(path, new Uint8Array(size).fill(7), { mode: 0o600 });
}

Deno.test("[backups] a scheduled backup removes what killed writers left in BACKUP_DIR, and nothing else", async () => {
  const backupDir = await Deno.makeTempDir({ prefix: "paystead-leftovers-" });
  // What a scheduled backup, a start's backup before migrating and an upload leave when killed.
  const leftovers: Record<string, number> = {
    "production-20261121T040000Z.db.partial": 409_600,
    "production-20261121T040000Z.db.partial-wal": 8_272,
    "production-20261121T040000Z.db.partial-shm": 32_768,
    "accounts-20261121T040000Z.db.partial": 65_536,
    "sandbox-before-migration-20261120T080000Z.db.partial": 204_800,
    ".production-20261121T040000Z.db.5f1c0e9a2b7d4c36.age": 409_913,
    ".accounts-20261120T220000Z.db.aed620d6afce034.age": 65_849,
  };
  // A finished backup and the merchant's own files, some with names close to ours.
  const others: Record<string, number> = {
    "production-20261121T040000Z.db": 409_600,
    "sandbox-before-migration-20261120T080000Z.db": 204_800,
    "production-20261121T040000Z.db.age": 409_913,
    "notes.txt": 12,
    "copy.db.partial": 4_096,
    ".hidden.age": 100,
  };
  for (const [name, size] of Object.entries({ ...leftovers, ...others })) {
    await writeBytes(`${backupDir}/${name}`, size);
  }
  await Deno.mkdir(`${backupDir}/old-20261101T000000Z.db.partial`);
  const logs: string[] = [];
  const t = await makeTestApp({
    environment: "production",
    env: { BACKUP_DIR: backupDir, BACKUP_INTERVAL: "6h", BACKUP_KEEP: "3" },
    log: createLogger("info", (line) => logs.push(line)),
  });
  try {
    await t.services.scheduler.runAll();
    // 2026-11-21T10:00:00Z is the manual clock's start: the 04:00 backups were due.
    assert.deepEqual(await namesIn(backupDir), [
      ".hidden.age",
      ".paystead-backup.lock",
      "accounts-20261121T100000Z.db",
      "copy.db.partial",
      "notes.txt",
      "old-20261101T000000Z.db.partial",
      "production-20261121T040000Z.db",
      "production-20261121T040000Z.db.age",
      "production-20261121T100000Z.db",
      "sandbox-before-migration-20261120T080000Z.db",
    ]);
    for (const [name, size] of Object.entries(others)) {
      assert.equal((await Deno.stat(`${backupDir}/${name}`)).size, size, name);
    }
    assert.deepEqual(
      removed(logs),
      Object.entries(leftovers).map(([name, size]): [string, number] => [
        `${backupDir}/${name}`,
        size,
      ]).sort((a, b) => a[0].localeCompare(b[0])),
    );
    assert.doesNotMatch(logs.join("\n"), /"level":"error"/);
  } finally {
    await t.close();
    await Deno.remove(backupDir, { recursive: true });
  }
});

/** An S3 endpoint that lists an empty bucket and never answers an upload while the test runs. */
function stallingStore() {
  let uploads = 0;
  const waiting: (() => void)[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      if (request.method === "GET") {
        return new Response(
          '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult ' +
            'xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>paystead-backups</Name>' +
            "<KeyCount>0</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>" +
            "</ListBucketResult>",
          { headers: { "content-type": "application/xml" } },
        );
      }
      uploads++;
      await new Promise<void>((resolve) => waiting.push(resolve));
      return new Response(null, { status: 503 });
    },
  );
  return {
    env: {
      BACKUP_S3_URL: "s3://paystead-backups/paystead",
      BACKUP_S3_ENDPOINT: `http://127.0.0.1:${server.addr.port}`,
      BACKUP_S3_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "leftovers-test",
      AWS_SECRET_ACCESS_KEY: "leftovers-test-secret",
      BACKUP_PASSPHRASE: "leftovers-test-passphrase-2c81",
    },
    uploads: () => uploads,
    async close() {
      for (const resolve of waiting) resolve();
      await server.shutdown();
    },
  };
}

async function until<T>(what: string, probe: () => Promise<T | null>, logs: () => string) {
  for (let i = 0; i < 600; i++) {
    const found = await probe();
    if (found !== null) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not happen; the server logged:\n${logs()}`);
}

Deno.test("[backups] an upload another live process is making is left alone; once that process is killed, its file is removed", async () => {
  const root = await Deno.makeTempDir({ prefix: "paystead-leftovers-live-" });
  const backupDir = `${root}/backups`;
  await Deno.mkdir(backupDir);
  const store = stallingStore();
  // The sandbox server shares the folder with the production process below, as on one machine.
  const server = await startPaystead(`${root}/sandbox`, {
    BACKUP_DIR: backupDir,
    BACKUP_INTERVAL: "6h",
    ...store.env,
  });
  const logs: string[] = [];
  const t = await makeTestApp({
    environment: "production",
    env: { BACKUP_DIR: backupDir, BACKUP_INTERVAL: "6h" },
    log: createLogger("info", (line) => logs.push(line)),
  });
  try {
    const uploading = await until("an upload", async () => {
      const name = (await namesIn(backupDir)).find((name) => name.endsWith(".age"));
      return name !== undefined && store.uploads() > 0 ? name : null;
    }, server.logs);
    assert.match(uploading, /^\.sandbox-\d{8}T\d{6}Z\.db\.[0-9a-f]+\.age$/);
    const size = (await Deno.stat(`${backupDir}/${uploading}`)).size;
    // A dead process's upload beside it goes.
    const dead = ".accounts-20261120T220000Z.db.aed620d6afce034.age";
    await writeBytes(`${backupDir}/${dead}`, 65_849);

    // The server's own minutely run holds the folder's lock for a moment: then look again.
    for (let i = 0; i < 20 && (await namesIn(backupDir)).includes(dead); i++) {
      await t.services.scheduler.runAll();
    }
    const names = await namesIn(backupDir);
    assert.equal(names.includes(uploading), true, names.join());
    assert.deepEqual(removed(logs), [[`${backupDir}/${dead}`, 65_849]]);

    // kill -9 in the middle of the upload: nothing of that process removes its file.
    await server.stop("SIGKILL");
    assert.equal((await namesIn(backupDir)).includes(uploading), true);
    await t.services.scheduler.runAll();
    assert.equal((await namesIn(backupDir)).includes(uploading), false);
    assert.deepEqual(removed(logs), [
      [`${backupDir}/${dead}`, 65_849],
      [`${backupDir}/${uploading}`, size],
    ]);
    assert.doesNotMatch(logs.join("\n"), /"level":"error"/);
  } finally {
    await server.stop("SIGKILL");
    await t.close();
    await store.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("[backups] a backup another process is writing under the folder's lock is left alone; once that process is killed, it is removed", async () => {
  const backupDir = await Deno.makeTempDir({ prefix: "paystead-leftovers-held-" });
  const logs: string[] = [];
  const t = await makeTestApp({
    environment: "production",
    env: { BACKUP_DIR: backupDir, BACKUP_INTERVAL: "6h" },
    log: createLogger("info", (line) => logs.push(line)),
  });
  const holder = await holdLockInChild(`${backupDir}/.paystead-backup.lock`, true);
  try {
    const partial = "sandbox-before-migration-20261121T095958Z.db.partial";
    await writeBytes(`${backupDir}/${partial}`, 98_304);
    await t.services.scheduler.runAll();
    // The job looks again in a minute; nothing was touched or written meanwhile.
    assert.deepEqual(await namesIn(backupDir), [".paystead-backup.lock", partial]);

    await holder.kill();
    t.clock.advance(60_000);
    await t.services.scheduler.runAll();
    assert.deepEqual(await namesIn(backupDir), [
      ".paystead-backup.lock",
      "accounts-20261121T100100Z.db",
      "production-20261121T100100Z.db",
    ]);
    assert.deepEqual(removed(logs), [[`${backupDir}/${partial}`, 98_304]]);
  } finally {
    await holder.kill();
    await t.close();
    await Deno.remove(backupDir, { recursive: true });
  }
});

/** A sandbox data folder whose database holds `mib` MiB more than its rows, fully migrated. */
async function largeSandbox(mib: number): Promise<string> {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-leftovers-kill-" });
  const store = await openStore(`file:${dataDir}/sandbox.db`);
  try {
    await migrate(store, environmentMigrations);
  } finally {
    await store.close();
  }
  const database = new DatabaseSync(`${dataDir}/sandbox.db`);
  try {
    database.exec(
      `CREATE TABLE ballast (bytes BLOB);
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${mib})
       INSERT INTO ballast SELECT randomblob(1048576) FROM n;
       PRAGMA wal_checkpoint(TRUNCATE);`,
    );
  } finally {
    database.close();
  }
  return dataDir;
}

/**
 * Starts a server on `dataDir` and kills it (-9) once its first backup of the environment's
 * database is being written; returns that backup's `.partial` name. Another port is tried if a
 * test running beside this one took the chosen one.
 */
async function killDuringBackup(dataDir: string, env: Record<string, string>): Promise<string> {
  for (let attempt = 1;; attempt++) {
    const child = paysteadCommand(dataDir, env, freePort()).spawn();
    let ended = false;
    const exited = child.output().finally(() => ended = true);
    let partial: string | undefined;
    const deadline = Date.now() + 60_000;
    while (partial === undefined && !ended && Date.now() < deadline) {
      const names = await namesIn(`${dataDir}/backups`).catch(() => []);
      partial = names.find((name) => /^sandbox-\d{8}T\d{6}Z\.db\.partial$/.test(name));
      if (partial === undefined) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (!ended) child.kill("SIGKILL");
    const output = await exited;
    if (partial !== undefined) {
      assert.equal(output.signal, "SIGKILL");
      return partial;
    }
    const stderr = new TextDecoder().decode(output.stderr);
    if (!/already in use/.test(stderr) || attempt === 3) {
      throw new Error(`the server wrote no backup; it logged:\n${stderr}`);
    }
  }
}

Deno.test("[backups] a server killed -9 while it writes a scheduled backup leaves nothing behind once it is started again", async () => {
  const dataDir = await largeSandbox(96);
  const backupDir = `${dataDir}/backups`;
  const env = { BACKUP_INTERVAL: "1h", LOG_LEVEL: "info" };
  try {
    const partial = await killDuringBackup(dataDir, env);
    // Killed mid-copy (or mid-check): the copy was not finished under its name.
    const left = await namesIn(backupDir);
    assert.equal(left.includes(partial), true, left.join());
    assert.equal(left.some((name) => /^sandbox-\d{8}T\d{6}Z\.db$/.test(name)), false);
    // The copy and SQLite's files beside it, with their sizes.
    const killed: [string, number][] = [];
    for (const name of left.filter((name) => name.startsWith(partial))) {
      killed.push([`${backupDir}/${name}`, (await Deno.stat(`${backupDir}/${name}`)).size]);
    }

    const server = await startPaystead(dataDir, env);
    try {
      const written = await until("a backup after the restart", async () => {
        const names = await namesIn(backupDir);
        return names.some((name) => /^sandbox-\d{8}T\d{6}Z\.db$/.test(name)) ? names : null;
      }, server.logs);
      assert.deepEqual(written.filter((name) => name.startsWith(partial)), []);
      assert.deepEqual(removed(server.logs().split("\n")), killed);
    } finally {
      assert.equal((await server.stop()).code, 0);
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
