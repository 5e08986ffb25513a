import assert from "node:assert/strict";
import { createTestOffer, createTestPayment, makeTestApp } from "./support/helpers.ts";
import { addUser, pageText, PanelAgent, signedInApp } from "./support/panel_helpers.ts";
import { type ChildServer, demoApiKey, runCli, startPaystead } from "./support/processes.ts";

const HOUR_MS = 3_600_000;

async function backupFiles(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.filter((name) => name.endsWith(".db")).sort();
}

function gauge(metrics: string, name: string): string[] {
  return metrics.split("\n").filter((line) => line.startsWith(name));
}

/** /metrics answers only the bearer of METRICS_TOKEN on the app's port. */
const METRICS_ENV = { METRICS_TOKEN: "backups-test-metrics-token-0123456789" };
const METRICS_REQUEST = { headers: { authorization: `Bearer ${METRICS_ENV.METRICS_TOKEN}` } };

Deno.test("[backups] scheduled backups are written, checked, kept BACKUP_KEEP deep and shown on /metrics", async () => {
  const backupDir = await Deno.makeTempDir({ prefix: "paystead-backups-" });
  const t = await makeTestApp({
    env: { BACKUP_DIR: backupDir, BACKUP_INTERVAL: "6h", BACKUP_KEEP: "2", ...METRICS_ENV },
  });
  try {
    const offer = await createTestOffer(t);
    const payment = await createTestPayment(t, offer.qrId);
    await t.services.scheduler.runAll();
    // 2026-11-21T10:00:00Z is the manual clock's start.
    assert.deepEqual(await backupFiles(backupDir), [
      "accounts-20261121T100000Z.db",
      "sandbox-20261121T100000Z.db",
    ]);
    for (const name of await backupFiles(backupDir)) {
      assert.equal((await Deno.stat(`${backupDir}/${name}`)).mode! & 0o777, 0o600);
    }
    const metrics = await (await t.app.request("/metrics", METRICS_REQUEST)).text();
    assert.deepEqual(gauge(metrics, "paystead_backup_last_success_timestamp_seconds{"), [
      'paystead_backup_last_success_timestamp_seconds{database="environment"} 1795255200',
      'paystead_backup_last_success_timestamp_seconds{database="accounts"} 1795255200',
    ]);
    const size = (await Deno.stat(`${backupDir}/sandbox-20261121T100000Z.db`)).size;
    assert.equal(
      gauge(metrics, 'paystead_backup_last_size_bytes{database="environment"}')[0],
      `paystead_backup_last_size_bytes{database="environment"} ${size}`,
    );
    assert.deepEqual(gauge(metrics, "paystead_backup_failing "), ["paystead_backup_failing 0"]);

    // Not due yet: the sweep runs every minute and writes nothing new.
    t.clock.advance(5 * HOUR_MS);
    await t.services.scheduler.runAll();
    assert.equal((await backupFiles(backupDir)).length, 2);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(HOUR_MS * (i === 0 ? 1 : 6));
      await t.services.scheduler.runAll();
    }
    assert.deepEqual(await backupFiles(backupDir), [
      "accounts-20261121T220000Z.db",
      "accounts-20261122T040000Z.db",
      "sandbox-20261121T220000Z.db",
      "sandbox-20261122T040000Z.db",
    ]);

    // Each kept file restores: the payment is in it.
    const restored = await Deno.makeTempDir({ prefix: "paystead-backups-restore-" });
    try {
      const result = await runCli(
        ["restore", "--from", `${backupDir}/sandbox-20261122T040000Z.db`, "--verify"],
        { DATA_DIR: restored },
      );
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, /\n {2}payments: 1\n/);
    } finally {
      await Deno.remove(restored, { recursive: true });
    }
    assert.ok(payment.paymentId);
  } finally {
    await t.close();
    await Deno.remove(backupDir, { recursive: true });
  }
});

Deno.test("[backups] a failed backup is logged, shown on /metrics and to owners in the panel", async () => {
  const parent = await Deno.makeTempDir({ prefix: "paystead-backups-fail-" });
  // A file where the folder should be: every backup fails until it is moved away.
  const backupDir = `${parent}/not-a-folder`;
  await Deno.writeTextFile(backupDir, "");
  const { t, agent } = await signedInApp({
    env: { BACKUP_DIR: backupDir, BACKUP_INTERVAL: "1h", ...METRICS_ENV },
  });
  try {
    await t.services.scheduler.runAll();
    const metrics = await (await t.app.request("/metrics", METRICS_REQUEST)).text();
    assert.deepEqual(gauge(metrics, "paystead_backup_failing "), ["paystead_backup_failing 1"]);
    const home = pageText(await (await agent.get("/panel")).text());
    assert.match(home, /The last scheduled backup failed At 2026-11-21T10:00:00\.000Z: /);

    // An ADMIN does not get the notice: backups are the owner's concern.
    const admin = new PanelAgent(t);
    const user = await addUser(t, { email: "admin@acme.test", role: "ADMIN" });
    await admin.signIn(user.email, user.password);
    assert.doesNotMatch(
      pageText(await (await admin.get("/panel")).text()),
      /scheduled backup failed/,
    );

    // Once the cause goes, the next try succeeds and the notice disappears.
    await Deno.remove(backupDir);
    t.clock.advance(5 * 60_000);
    await t.services.scheduler.runAll();
    assert.doesNotMatch(pageText(await (await agent.get("/panel")).text()), /backup failed/);
    assert.equal((await backupFiles(backupDir)).length, 2);
  } finally {
    await t.close();
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("[backups] the settings are validated, and a second process sharing the folder waits its turn", async () => {
  for (
    const [name, value, message] of [
      ["BACKUP_INTERVAL", "6", "must be off or a duration from 1m to 30d such as 30m, 6h or 1d"],
      ["BACKUP_INTERVAL", "31d", "must be off or a duration from 1m to 30d such as 30m, 6h or 1d"],
      ["BACKUP_KEEP", "0", "must be a whole number from 1 to 1000"],
      ["WEBHOOK_LOG_RETENTION_DAYS", "x", "must be a whole number from 1 to 3650"],
    ]
  ) {
    const result = await runCli(["version"], { [name]: value });
    assert.equal(result.code, 2);
    assert.equal(result.stderr, `Invalid configuration: ${name} ${message} (got "${value}").`);
  }

  const backupDir = await Deno.makeTempDir({ prefix: "paystead-backups-lock-" });
  const t = await makeTestApp({ env: { BACKUP_DIR: backupDir, BACKUP_INTERVAL: "1h" } });
  const other = await Deno.open(`${backupDir}/.paystead-backup.lock`, {
    read: true,
    write: true,
    create: true,
  });
  try {
    assert.equal(await other.tryLock(true), true);
    await t.services.scheduler.runAll();
    assert.deepEqual(await backupFiles(backupDir), []);
    await other.unlock();
    await t.services.scheduler.runAll();
    assert.equal((await backupFiles(backupDir)).length, 2);
  } finally {
    other.close();
    await t.close();
    await Deno.remove(backupDir, { recursive: true });
  }
});

Deno.test("[backups] the compiled binaries embed the backup worker", async () => {
  const tasks = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)))
    .tasks;
  const commands = (tasks.compile as string).split("&&")
    .filter((command) => command.trim().startsWith("deno compile "));
  assert.equal(commands.length, 2);
  // deno compile leaves out worker modules unless they are included by name.
  for (const command of commands) assert.match(command, / --include lib\/ops\/backup_worker\.ts /);
});

/** The first bytes of the POSIX read locks process `pid` holds on `path` (/proc/locks). */
async function shmLocksOf(pid: number, path: string): Promise<string[]> {
  const { ino, dev } = await Deno.stat(path);
  const inode = `${Math.floor(dev! / 256).toString(16).padStart(2, "0")}:${
    (dev! % 256).toString(16).padStart(2, "0")
  }:${ino}`;
  return (await Deno.readTextFile("/proc/locks")).split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) =>
      fields[1] === "POSIX" && fields[3] === "READ" && fields[4] === String(pid) &&
      fields[5] === inode
    )
    .map((fields) => fields[6]);
}

/** Waits until `dir` holds `count` finished backups; returns their names. */
async function waitForBackups(dir: string, count: number, server: ChildServer) {
  for (let i = 0; i < 300; i++) {
    const names = await backupFiles(dir).catch(() => []);
    if (names.length >= count) return names;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no scheduled backups in ${dir}; the server logged:\n${server.logs()}`);
}

Deno.test("[backups] a server started with the start task's flags writes its scheduled backups, and the CLI backs it up while it serves", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-backups-shipped-" });
  const backupDir = `${dataDir}/backups`;
  const server = await startPaystead(dataDir, { BACKUP_INTERVAL: "1h", LOG_LEVEL: "info" });
  try {
    // A new server writes its first backups at start.
    const names = await waitForBackups(backupDir, 2, server);
    assert.deepEqual(names.map((name) => name.replace(/\d{8}T\d{6}Z/, "STAMP")), [
      "accounts-STAMP.db",
      "sandbox-STAMP.db",
    ]);
    assert.doesNotMatch(server.logs(), /scheduled backup failed/);
    assert.match(server.logs(), /"message":"scheduled backup written","database":"environment"/);

    // The backup ran in the server's own process, which must still hold SQLite's lock on the
    // -shm file's "dead man switch" byte (128): closing any descriptor of the file would have
    // dropped it, and the next process to open the database would take itself for the first.
    assert.deepEqual(await shmLocksOf(server.process.pid, `${dataDir}/sandbox.db-shm`), ["128"]);
    const env = { DATA_DIR: dataDir };
    const key = await demoApiKey(server);
    // The scheduled backup ran in the server's own process. Had it closed a descriptor of the
    // -shm file, the server's SQLite locks on it would be gone: a CLI backup would take itself
    // for the database's first user and reset the file under the server's mapping, and the
    // server, serving meanwhile, would die of SIGBUS.
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    let serving = true;
    const answers: number[] = [];
    const load = async () => {
      for (let i = 0; serving; i++) {
        const made = await fetch(`${server.url}/api/v1/qr`, {
          method: "POST",
          headers,
          body: JSON.stringify({ name: `During ${i}`, amount: 100, currency: "PLN" }),
        });
        answers.push(made.status);
        await made.body?.cancel();
        const listed = await fetch(`${server.url}/api/v1/qr?limit=10`, { headers });
        answers.push(listed.status);
        await listed.body?.cancel();
      }
    };
    const loads = [load(), load(), load()];
    let copy!: Awaited<ReturnType<typeof runCli>>;
    try {
      for (const name of ["first.db", "copy.db"]) {
        copy = await runCli(["backup", "--out", `${dataDir}/${name}`], env);
        assert.equal(copy.code, 0, copy.stderr);
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      serving = false;
      await Promise.all(loads);
    }
    assert.ok(answers.length > 20, `${answers.length} answers`);
    assert.deepEqual(answers.filter((status) => status !== 200 && status !== 201), []);
    for (const file of [`${backupDir}/${names[1]}`, `${dataDir}/copy.db`]) {
      const verified = await runCli(["restore", "--from", file, "--verify"], env);
      assert.equal(verified.code, 0, verified.stderr);
      assert.match(verified.stdout, /\nMigration level: current\.\n/);
      // The copy made after the start printed the demo key has it.
      if (file.endsWith("copy.db")) assert.match(verified.stdout, /\n {2}api_keys: 1\n/);
    }
  } finally {
    await server.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
