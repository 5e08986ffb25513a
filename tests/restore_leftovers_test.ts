import assert from "node:assert/strict";
import { backupDatabase } from "../db/client.ts";
import { encryptFile } from "../lib/ops/encryption.ts";
import { runCli, shippedArgs, startPaystead } from "./support/processes.ts";
import { startS3Server, TEST_BUCKET, testStore } from "./support/s3_server.ts";
import { holdLockInChild } from "./support/lock_holder.ts";

async function namesIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

/** The `removed a restore leftover` lines among JSON log `lines`, as [path, bytes], sorted. */
function removed(lines: string): [string, number][] {
  return lines.split("\n").filter((line) => line.includes('"removed a restore leftover"'))
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

/** Writes each of `files` (name: bytes) into `dir`; returns them as [path, bytes], sorted. */
async function place(dir: string, files: Record<string, number>): Promise<[string, number][]> {
  for (const [name, size] of Object.entries(files)) await writeBytes(`${dir}/${name}`, size);
  return Object.entries(files).map(([name, size]): [string, number] => [`${dir}/${name}`, size])
    .sort((a, b) => a[0].localeCompare(b[0]));
}

/** A migrated sandbox data folder and a backup of its database outside it. */
async function folderWithBackup() {
  const root = await Deno.makeTempDir({ prefix: "paystead-restore-leftovers-" });
  const dataDir = `${root}/data`;
  const migrated = await runCli(["migrate"], { DATA_DIR: dataDir });
  assert.equal(migrated.code, 0, migrated.stderr);
  const backup = `${root}/backup.db`;
  await backupDatabase(`file:${dataDir}/sandbox.db`, backup);
  return { root, dataDir, backup, env: { DATA_DIR: dataDir, LOG_LEVEL: "info" } };
}

// What restores killed midway left: today's staged copy with SQLite's files, and a verify's or an
// off-site restore's copy (its random part) with the fresh database its schema is compared with.
const SANDBOX_LEFTOVERS = {
  "sandbox.db.restoring-20261126T170000Z": 409_600,
  "sandbox.db.restoring-20261126T170000Z-wal": 8_272,
  "sandbox.db.restoring-20261126T170000Z-shm": 32_768,
  "sandbox.db.restoring-20261126T171500Z-5f1c0e9a": 204_800,
  "sandbox.db.restoring-20261126T171500Z-5f1c0e9a-journal": 4_608,
  "sandbox.db.restoring-20261126T171500Z-5f1c0e9a-schema": 110_592,
  "sandbox.db.restoring-20261126T171500Z-5f1c0e9a-schema-wal": 41_232,
};
const ACCOUNTS_LEFTOVERS = {
  "accounts.db.restoring-20261126T170000Z": 65_536,
  "accounts.db.restoring-20261126T172000Z-aed620d6": 65_536,
};

Deno.test("[restore] the next restore removes what killed restores left beside its database, logs each, and nothing else", async () => {
  const { root, dataDir, backup, env } = await folderWithBackup();
  try {
    const leftovers = await place(dataDir, SANDBOX_LEFTOVERS);
    // The other database's leftovers (its own restore or a start removes them), a kept copy, and
    // the merchant's files, some with names close to ours.
    const others = {
      ...ACCOUNTS_LEFTOVERS,
      "sandbox.db.replaced-20261120T100000Z": 409_600,
      "sandbox.db.restoring-notes": 100,
      "sandbox.db.restoring-20261126T170000Z.bak": 409_600,
      "old-sandbox.db.restoring-20261126T170000Z": 4_096,
      "notes.txt": 12,
    };
    await place(dataDir, others);
    await Deno.mkdir(`${dataDir}/sandbox.db.restoring-20261101T000000Z`);

    // Nothing is written outside the data folder: a TMPDIR that cannot be used changes nothing.
    const noTmp = { ...env, TMPDIR: `${root}/no-such-folder` };
    const verified = await runCli(["restore", "--from", backup, "--verify"], noTmp);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /^Verified: the backup passes PRAGMA integrity_check/);
    const restored = await runCli(["restore", "--from", backup], noTmp);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^Restored .*\/sandbox\.db \(the environment database\)/);
    assert.deepEqual(removed(restored.stderr), leftovers);
    const names = await namesIn(dataDir);
    assert.deepEqual(
      names.filter((name) => name.includes(".restoring-")),
      [
        ...Object.keys(ACCOUNTS_LEFTOVERS),
        "old-sandbox.db.restoring-20261126T170000Z",
        "sandbox.db.restoring-20261101T000000Z",
        "sandbox.db.restoring-20261126T170000Z.bak",
        "sandbox.db.restoring-notes",
      ].sort(),
    );
    for (const [name, size] of Object.entries(others)) {
      assert.equal((await Deno.stat(`${dataDir}/${name}`)).size, size, name);
    }

    // The accounts database's own restore removes its leftovers.
    const accountsBackup = `${root}/accounts-backup.db`;
    await backupDatabase(`file:${dataDir}/accounts.db`, accountsBackup);
    const accounts = await runCli(
      ["restore", "--database", "accounts", "--from", accountsBackup],
      env,
    );
    assert.equal(accounts.code, 0, accounts.stderr);
    assert.deepEqual(
      removed(accounts.stderr),
      Object.entries(ACCOUNTS_LEFTOVERS).map(([name, size]) => [`${dataDir}/${name}`, size]),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** The removals a server logged, once as many as `expected` have been read (or after 5 s). */
async function removedBy(server: { logs(): string }, expected: number) {
  for (let i = 0; i < 100 && removed(server.logs()).length < expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return removed(server.logs());
}

Deno.test("[restore] a server's start removes what killed restores left beside its databases; a copy a live verify holds is kept until that process dies, and a verify waits for a restore", async () => {
  const { root, dataDir, backup, env } = await folderWithBackup();
  const verify = await holdLockInChild(`${dataDir}/sandbox.db.lock`, false);
  try {
    const sandbox = await place(dataDir, SANDBOX_LEFTOVERS);
    const accounts = await place(dataDir, ACCOUNTS_LEFTOVERS);

    // The verify shares the sandbox database's lock: its copies stay, the accounts' go.
    const first = await startPaystead(dataDir, { LOG_LEVEL: "info" });
    try {
      assert.deepEqual(await removedBy(first, accounts.length), accounts);
    } finally {
      assert.equal((await first.stop()).code, 0);
    }
    // A restore is refused while the verify runs, and removes nothing.
    const refused = await runCli(["restore", "--from", backup], env);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /^Error: A running Paystead server \(or restore --verify\) uses this database/,
    );
    assert.deepEqual(removed(refused.stderr), []);
    for (const [path, size] of sandbox) assert.equal((await Deno.stat(path)).size, size, path);

    // kill -9: nothing of that process removes its copy; the next start does.
    await verify.kill();
    const second = await startPaystead(dataDir, { LOG_LEVEL: "info" });
    try {
      assert.deepEqual(await removedBy(second, sandbox.length), sandbox);
    } finally {
      assert.equal((await second.stop()).code, 0);
    }
    assert.deepEqual(
      (await namesIn(dataDir)).filter((name) => name.includes(".restoring-")),
      [],
    );

    // A verify waits for a restore to end: it stages nothing beside the database meanwhile.
    const restore = await holdLockInChild(`${dataDir}/sandbox.db.lock`, true);
    try {
      const before = await namesIn(dataDir);
      const waiting = await runCli(["restore", "--from", backup, "--verify"], env);
      assert.deepEqual([waiting.code, waiting.stdout, waiting.stderr], [
        1,
        "",
        `Error: A restore is replacing this database (it holds ${dataDir}/sandbox.db.lock); verify after it.`,
      ]);
      assert.deepEqual(await namesIn(dataDir), before);
    } finally {
      await restore.kill();
    }
  } finally {
    await verify.kill();
    await Deno.remove(root, { recursive: true });
  }
});

/** Every file under `dir`, as a path relative to it. */
async function filesUnder(dir: string, prefix = ""): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) {
      found.push(...await filesUnder(`${dir}/${entry.name}`, `${entry.name}/`));
    } else found.push(prefix + entry.name);
  }
  return found.sort();
}

const PASSPHRASE = "restore-leftovers-passphrase-4d2e";
const STAGED = /^sandbox\.db\.restoring-\d{8}T\d{6}Z-[0-9a-f]{8}$/;

/**
 * Runs `restore <args>` as the CLI task does with its own TMPDIR, and sends `signal` once a
 * decrypted copy of at least `bytes` is being written (in the data folder, or anywhere under
 * TMPDIR); returns how the process ended.
 */
async function interruptRestore(
  args: string[],
  env: Record<string, string>,
  dirs: { dataDir: string; tmp: string },
  signal: Deno.Signal,
) {
  const child = new Deno.Command(Deno.execPath(), {
    args: shippedArgs("cli", ["restore", ...args]),
    env: { ...env, TMPDIR: dirs.tmp },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let ended = false;
  const output = child.output().finally(() => ended = true);
  const writing = async () => {
    const paths = [
      ...(await namesIn(dirs.dataDir)).filter((name) => STAGED.test(name))
        .map((name) => `${dirs.dataDir}/${name}`),
      ...(await filesUnder(dirs.tmp)).map((name) => `${dirs.tmp}/${name}`),
    ];
    for (const path of paths) {
      if (((await Deno.stat(path).catch(() => null))?.size ?? 0) >= 1 << 20) return true;
    }
    return false;
  };
  const deadline = Date.now() + 60_000;
  while (!ended && Date.now() < deadline && !(await writing())) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (ended) {
    const early = await output;
    throw new Error(
      `the restore ended before it was interrupted: ${new TextDecoder().decode(early.stderr)}`,
    );
  }
  child.kill(signal);
  const result = await output;
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  return { code: result.code, signal: result.signal, stderr: decode(result.stderr) };
}

Deno.test("[restore] an off-site restore killed midway leaves no plaintext outside the data folder; Ctrl-C leaves none at all", async () => {
  const { root, dataDir, backup, env } = await folderWithBackup();
  const s3 = await startS3Server();
  try {
    // 64 MiB: decrypting it takes over a second, time enough to interrupt it.
    const plain = `${root}/big.db`;
    const file = await Deno.open(plain, { write: true, createNew: true });
    const chunk = new Uint8Array(1 << 20);
    for (let i = 0; i < 64; i++) await file.write(chunk.fill(i));
    file.close();
    await encryptFile(plain, `${plain}.age`, PASSPHRASE);
    const store = testStore(s3.endpoint);
    const key = "paystead/sandbox-20261126T060000Z.db.age";
    await store.upload(key, `${plain}.age`);
    const offsiteEnv = {
      ...env,
      ...s3.env,
      BACKUP_INTERVAL: "6h",
      BACKUP_S3_URL: `s3://${TEST_BUCKET}/paystead`,
      BACKUP_PASSPHRASE: PASSPHRASE,
    };
    const from = `s3://${TEST_BUCKET}/${key}`;
    const before = await namesIn(dataDir);

    const tmp = `${root}/tmp`;
    await Deno.mkdir(tmp);
    const killed = await interruptRestore(
      ["--from", from],
      offsiteEnv,
      { dataDir, tmp },
      "SIGKILL",
    );
    assert.equal(killed.signal, "SIGKILL");
    // Nothing decrypted outside the data folder; inside it, the copy (0600) under our name.
    assert.deepEqual(await filesUnder(tmp), []);
    const after = await namesIn(dataDir);
    const staged = after.filter((name) => STAGED.test(name));
    assert.equal(staged.length, 1, after.join());
    assert.deepEqual(after, [...before, "sandbox.db.lock", staged[0]].sort());
    const copy = await Deno.stat(`${dataDir}/${staged[0]}`);
    assert.equal(copy.mode! & 0o777, 0o600);
    assert.ok(copy.size > 0 && copy.size <= 64 << 20, String(copy.size));

    // The next restore removes it and says so.
    const next = await runCli(["restore", "--from", backup], env);
    assert.equal(next.code, 0, next.stderr);
    assert.deepEqual(removed(next.stderr), [[`${dataDir}/${staged[0]}`, copy.size]]);
    const clean = await namesIn(dataDir);

    // Ctrl-C while a verify decrypts: the copy is removed before the process exits.
    const interrupted = await interruptRestore(
      ["--from", from, "--verify"],
      offsiteEnv,
      { dataDir, tmp },
      "SIGINT",
    );
    assert.equal(interrupted.code, 130, interrupted.stderr);
    assert.match(
      interrupted.stderr,
      new RegExp(
        `^Interrupted \\(SIGINT\\); removed ${dataDir}/sandbox\\.db\\.restoring-\\d{8}T\\d{6}Z-[0-9a-f]{8}\\. Nothing was changed\\.$`,
      ),
    );
    assert.deepEqual(await filesUnder(tmp), []);
    assert.deepEqual(await namesIn(dataDir), clean);
  } finally {
    await s3.stop();
    await Deno.remove(s3.folder, { recursive: true });
    await Deno.remove(root, { recursive: true });
  }
});
