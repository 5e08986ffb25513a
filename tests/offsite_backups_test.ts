import assert from "node:assert/strict";
import { inspectDatabase, openFile } from "../db/inspect.ts";
import { createLogger } from "../lib/log.ts";
import { decryptToFile } from "../lib/ops/encryption.ts";
import {
  createTestOffer,
  createTestPayment,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";
import { addUser, pageText, PanelAgent } from "./support/panel_helpers.ts";
import {
  type S3Server,
  startS3Server,
  storedKeys,
  storedObject,
  TEST_BUCKET,
} from "./support/s3_server.ts";

const HOUR_MS = 3_600_000;
const PASSPHRASE = "offsite-test-passphrase-7f3a9c21";
const METRICS_TOKEN = "offsite-test-metrics-token-0123456789";

function gauge(metrics: string, name: string): string[] {
  return metrics.split("\n").filter((line) => line.startsWith(name));
}

async function metricsOf(t: TestApp): Promise<string> {
  const response = await t.app.request("/metrics", {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return await response.text();
}

/** A sandbox app that backs up every 6 hours into `backupDir` and copies off-site to `s3`. */
async function offsiteApp(s3: S3Server, backupDir: string, logs: string[] = []) {
  const t = await makeTestApp({
    env: {
      BACKUP_DIR: backupDir,
      BACKUP_INTERVAL: "6h",
      BACKUP_KEEP: "1",
      BACKUP_S3_URL: `s3://${TEST_BUCKET}/paystead`,
      BACKUP_PASSPHRASE: PASSPHRASE,
      METRICS_TOKEN,
      ...s3.env,
    },
    log: createLogger("debug", (line) => logs.push(line)),
  });
  const owner = new PanelAgent(t);
  const user = await addUser(t, { email: "owner@acme.test", role: "OWNER" });
  await owner.signIn(user.email, user.password);
  return { t, owner };
}

/** Runs the scheduler's sweep and waits for the off-site pass it started. */
async function sweep(t: TestApp): Promise<void> {
  await t.services.scheduler.runAll();
  await t.services.offsite!.settled();
}

async function localBackups(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test("[offsite] each scheduled backup is encrypted with age, uploaded, kept BACKUP_KEEP deep, and shown on /metrics and to owners", async () => {
  const s3 = await startS3Server();
  const backupDir = await Deno.makeTempDir({ prefix: "paystead-offsite-" });
  const logs: string[] = [];
  const { t, owner } = await offsiteApp(s3, backupDir, logs);
  try {
    const offer = await createTestOffer(t);
    await createTestPayment(t, offer.qrId);
    await sweep(t);
    // 2026-11-21T10:00:00Z is the manual clock's start.
    assert.deepEqual(await storedKeys(s3), [
      "paystead/accounts-20261121T100000Z.db.age",
      "paystead/sandbox-20261121T100000Z.db.age",
    ]);

    // The object is an age file for a passphrase, with nothing of the database in the clear.
    const object = await storedObject(s3, "paystead/sandbox-20261121T100000Z.db.age");
    const head = new TextDecoder().decode(object.slice(0, 200));
    assert.match(head, /^age-encryption\.org\/v1\n-> scrypt [A-Za-z0-9+/]{22} 18\n/);
    assert.equal(new TextDecoder("latin1").decode(object).includes("SQLite format 3"), false);
    const local = await Deno.readFile(`${backupDir}/sandbox-20261121T100000Z.db`);
    assert.equal(new TextDecoder("latin1").decode(local).startsWith("SQLite format 3"), true);

    // It decrypts with the passphrase to a database that passes integrity_check, payment and all.
    const scratch = await Deno.makeTempDir({ prefix: "paystead-offsite-decrypt-" });
    try {
      await decryptToFile(
        (await Deno.open(
          `${s3.folder}/${TEST_BUCKET}/paystead/sandbox-20261121T100000Z.db.age._S3rver_object`,
        )).readable,
        `${scratch}/copy.db`,
        PASSPHRASE,
      );
      assert.deepEqual(await Deno.readFile(`${scratch}/copy.db`), local);
      const connection = openFile(`${scratch}/copy.db`);
      try {
        const inspection = await inspectDatabase(connection);
        assert.deepEqual(inspection.integrity, ["ok"]);
        assert.equal(inspection.counts.payments, 1);
      } finally {
        connection.close();
      }
    } finally {
      await Deno.remove(scratch, { recursive: true });
    }
    // Only the finished backups stay in the folder: the encrypted file was removed after upload.
    assert.deepEqual(await localBackups(backupDir), [
      ".paystead-backup.lock",
      "accounts-20261121T100000Z.db",
      "sandbox-20261121T100000Z.db",
    ]);

    const metrics = await metricsOf(t);
    assert.deepEqual(gauge(metrics, "paystead_backup_offsite_last_success_timestamp_seconds{"), [
      'paystead_backup_offsite_last_success_timestamp_seconds{database="environment"} 1795255200',
      'paystead_backup_offsite_last_success_timestamp_seconds{database="accounts"} 1795255200',
    ]);
    assert.deepEqual(
      gauge(metrics, 'paystead_backup_offsite_last_size_bytes{database="environment"}'),
      [
        `paystead_backup_offsite_last_size_bytes{database="environment"} ${object.length}`,
      ],
    );
    assert.deepEqual(gauge(metrics, "paystead_backup_offsite_failing "), [
      "paystead_backup_offsite_failing 0",
    ]);

    // The owner's home page shows the last copies and how to restore them; an admin's does not.
    const home = pageText(await (await owner.get("/panel")).text());
    assert.match(
      home,
      /Off-site backups Last off-site copies Database Copied at Size \(encrypted\) Restore with sandbox database 2026-11-21T10:00:00\.000Z \d+\.\d [kM]B restore --from s3:\/\/paystead-backups\/paystead\/sandbox-20261121T100000Z\.db\.age accounts database 2026-11-21T10:00:00\.000Z/,
    );
    const admin = new PanelAgent(t);
    const adminUser = await addUser(t, { email: "admin@acme.test", role: "ADMIN" });
    await admin.signIn(adminUser.email, adminUser.password);
    assert.doesNotMatch(pageText(await (await admin.get("/panel")).text()), /Off-site/);

    // The next backups replace them: the store keeps the newest BACKUP_KEEP (1) of each database,
    // as the folder does, and leaves alone what is not a scheduled backup's copy.
    await Deno.writeTextFile(`${backupDir}/note.txt`, "not a backup");
    t.clock.advance(6 * HOUR_MS);
    await sweep(t);
    assert.deepEqual(await storedKeys(s3), [
      "paystead/accounts-20261121T160000Z.db.age",
      "paystead/sandbox-20261121T160000Z.db.age",
    ]);
    assert.deepEqual(
      gauge(await metricsOf(t), "paystead_backup_offsite_last_success_timestamp_seconds{"),
      [
        'paystead_backup_offsite_last_success_timestamp_seconds{database="environment"} 1795276800',
        'paystead_backup_offsite_last_success_timestamp_seconds{database="accounts"} 1795276800',
      ],
    );

    // Each upload logged one line naming the object; no line holds a credential or the passphrase.
    const uploaded = logs.map((line) => JSON.parse(line))
      .filter((line) => line.message === "off-site backup uploaded");
    assert.equal(uploaded.length, 4);
    assert.deepEqual(
      { database: uploaded[0].database, object: uploaded[0].object },
      {
        database: "environment",
        object: "s3://paystead-backups/paystead/sandbox-20261121T100000Z.db.age",
      },
    );
    for (const line of logs) {
      assert.equal(line.includes(PASSPHRASE), false, line);
      assert.equal(line.includes("S3RVER"), false, line);
    }
  } finally {
    await t.services.offsite?.settled();
    await t.close();
    await s3.stop();
    await Deno.remove(backupDir, { recursive: true });
    await Deno.remove(s3.folder, { recursive: true });
  }
});

Deno.test("[offsite] while the store is down the copy is retried with backoff, the local backup kept, and one error logged per episode", async () => {
  const s3 = await startS3Server();
  const backupDir = await Deno.makeTempDir({ prefix: "paystead-offsite-down-" });
  const logs: string[] = [];
  const { t, owner } = await offsiteApp(s3, backupDir, logs);
  const lines = (message: string) =>
    logs.map((line) => JSON.parse(line)).filter((line) => line.message === message);
  try {
    await s3.stop();
    await sweep(t);
    assert.deepEqual(await localBackups(backupDir), [
      ".paystead-backup.lock",
      "accounts-20261121T100000Z.db",
      "sandbox-20261121T100000Z.db",
    ]);
    const failed = lines("off-site backup failed");
    assert.equal(failed.length, 1);
    assert.equal(failed[0].level, "error");
    assert.equal(failed[0].destination, "s3://paystead-backups/paystead/");
    assert.equal(failed[0].retryAt, "2026-11-21T10:01:00.000Z");
    assert.match(failed[0].error, /ECONNREFUSED|Connection refused/);
    assert.deepEqual(gauge(await metricsOf(t), "paystead_backup_offsite_failing "), [
      "paystead_backup_offsite_failing 1",
    ]);
    const home = pageText(await (await owner.get("/panel")).text());
    assert.match(
      home,
      /The last scheduled backup failed At 2026-11-21T10:00:00\.000Z: copying it off-site failed \(/,
    );
    assert.match(
      home,
      /Copying backups off-site fails Failing since 2026-11-21T10:00:00\.000Z; last try at 2026-11-21T10:00:00\.000Z: .+ The local backups are kept and the copy is retried\. No copy in s3:\/\/paystead-backups\/paystead\/ yet\./,
    );

    // Not due yet: the sweep runs every minute, but the retry waits its turn.
    t.clock.advance(30_000);
    await sweep(t);
    assert.equal(t.services.backups.offsiteFailure?.at, Date.parse("2026-11-21T10:00:00.000Z"));
    // The retries fail too, each waiting twice as long, and log no new error.
    t.clock.advance(30_000);
    await sweep(t);
    assert.equal(t.services.backups.offsiteFailure?.at, Date.parse("2026-11-21T10:01:00.000Z"));
    t.clock.advance(60_000);
    await sweep(t);
    assert.equal(t.services.backups.offsiteFailure?.at, Date.parse("2026-11-21T10:01:00.000Z"));
    t.clock.advance(60_000);
    await sweep(t);
    assert.equal(t.services.backups.offsiteFailure?.at, Date.parse("2026-11-21T10:03:00.000Z"));
    assert.equal(lines("off-site backup failed").length, 1);
    assert.deepEqual(await storedKeys(s3), []);

    // The store comes back: the next retry copies both backups, and one line says so.
    await s3.restart();
    t.clock.advance(4 * 60_000);
    await sweep(t);
    assert.deepEqual(await storedKeys(s3), [
      "paystead/accounts-20261121T100000Z.db.age",
      "paystead/sandbox-20261121T100000Z.db.age",
    ]);
    const recovered = lines("off-site backups work again");
    assert.deepEqual(
      recovered.map((line) => [line.level, line.failedAttempts, line.failingSince]),
      [
        ["info", 3, "2026-11-21T10:00:00.000Z"],
      ],
    );
    assert.equal(lines("off-site backup failed").length, 1);
    assert.deepEqual(gauge(await metricsOf(t), "paystead_backup_offsite_failing "), [
      "paystead_backup_offsite_failing 0",
    ]);
    assert.doesNotMatch(pageText(await (await owner.get("/panel")).text()), /fail/i);

    // A new episode logs its own error.
    await s3.stop();
    t.clock.advance(6 * HOUR_MS);
    await sweep(t);
    assert.equal(lines("off-site backup failed").length, 2);
    for (const line of logs) {
      assert.equal(line.includes(PASSPHRASE), false, line);
      assert.equal(line.includes("S3RVER"), false, line);
    }
  } finally {
    await t.services.offsite?.settled();
    await t.close();
    await s3.stop();
    await Deno.remove(backupDir, { recursive: true });
    await Deno.remove(s3.folder, { recursive: true });
  }
});
