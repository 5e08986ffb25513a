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
import { productionApiKey, runCli, startPaystead } from "./support/processes.ts";
import { bash, readmeBlock } from "./support/readme.ts";
import {
  type S3Server,
  startS3Server,
  storedKeys,
  storedObject,
  TEST_BUCKET,
  testStore,
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
    assert.equal(metrics.includes(PASSPHRASE) || metrics.includes("S3RVER"), false);

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

const ROOT = new URL("../", import.meta.url).pathname;

/** The README's off-site restore command, as written. */
function readmeRestoreCommand(): string {
  const command = readmeBlock("Off-site backups").trim();
  assert.match(
    command,
    /^deno task cli restore --from s3:\/\/\S+$/,
    "the off-site restore command",
  );
  return command;
}

async function filesOf(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile) continue;
    const bytes = await Deno.readFile(`${dir}/${entry.name}`);
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    found[entry.name] = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0"))
      .join("");
  }
  return found;
}

Deno.test("[offsite] a production server started as shipped copies its backups off-site; the README's restore --from s3:// brings them back, and a wrong passphrase changes nothing", async () => {
  const s3 = await startS3Server();
  const root = await Deno.makeTempDir({ prefix: "paystead-offsite-drill-" });
  const dataDir = `${root}/data`;
  const offsiteEnv = {
    PAYSTEAD_ENV: "production",
    BACKUP_INTERVAL: "6h",
    BACKUP_S3_URL: `s3://${TEST_BUCKET}/paystead`,
    BACKUP_PASSPHRASE: PASSPHRASE,
    ...s3.env,
  };
  try {
    const key = await productionApiKey(dataDir);
    const server = await startPaystead(dataDir, {
      ...offsiteEnv,
      BACKUP_DIR: `${root}/backups`,
      LOG_LEVEL: "info",
    });
    let keys: string[] = [];
    try {
      // A new server backs up at start, then copies both backups off-site.
      const deadline = Date.now() + 60_000;
      while (keys.length < 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        keys = await storedKeys(s3);
      }
      assert.equal(keys.length, 2, server.logs());
      assert.match(keys[0], /^paystead\/accounts-\d{8}T\d{6}Z\.db\.age$/);
      assert.match(keys[1], /^paystead\/production-\d{8}T\d{6}Z\.db\.age$/);
      const logs = server.logs();
      assert.equal(logs.match(/"message":"off-site backup uploaded"/g)?.length, 2, logs);
      assert.equal(logs.includes(PASSPHRASE), false);
      assert.equal(logs.includes("S3RVER"), false);
      assert.doesNotMatch(logs, /"level":"error"/);
    } finally {
      assert.equal((await server.stop()).code, 0);
    }

    // The README names its copy production-20261123T060000Z.db.age: put this one there.
    const command = readmeRestoreCommand();
    const readmeKey = command.slice(command.indexOf("s3://") + `s3://${TEST_BUCKET}/`.length);
    const store = testStore(s3.endpoint);
    const scratch = `${root}/copy.age`;
    await Deno.writeFile(scratch, await storedObject(s3, keys[1]));
    await store.upload(readmeKey, scratch);

    // The disaster: the data folder is gone. The accounts database first, then the README's line.
    await Deno.remove(dataDir, { recursive: true });
    const env = { ...offsiteEnv, DATA_DIR: dataDir };
    const accounts = await runCli(
      ["restore", "--database", "accounts", "--from", `s3://${TEST_BUCKET}/${keys[0]}`],
      env,
    );
    assert.equal(accounts.code, 0, accounts.stderr);
    const restored = await bash(command, { env, cwd: ROOT });
    const stdout = restored.stdout;
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(
      stdout,
      new RegExp(
        `Downloaded s3://${TEST_BUCKET}/${readmeKey} and decrypted it with BACKUP_PASSPHRASE\\.\\nRestored ${dataDir}/production\\.db \\(the environment database\\); PRAGMA integrity_check: ok\\.\\n`,
      ),
    );
    assert.match(stdout, /\n {2}api_keys: 1\n/);
    assert.equal((await Deno.stat(`${dataDir}/production.db`)).mode! & 0o777, 0o600);

    // A wrong passphrase: one line, and not a byte of the data folder changes.
    const before = await filesOf(dataDir);
    const wrong = await runCli(["restore", "--from", `s3://${TEST_BUCKET}/${readmeKey}`], {
      ...env,
      BACKUP_PASSPHRASE: "not-the-passphrase-of-these-copies",
    });
    assert.deepEqual([wrong.code, wrong.stdout, wrong.stderr], [
      1,
      "",
      `Error: BACKUP_PASSPHRASE does not decrypt s3://${TEST_BUCKET}/${readmeKey}: it was encrypted with another passphrase. Nothing was changed.`,
    ]);
    // A name that is not there: one line too.
    const missing = await runCli(
      ["restore", "--from", `s3://${TEST_BUCKET}/paystead/production-20200101T000000Z.db.age`],
      env,
    );
    assert.deepEqual([missing.code, missing.stderr], [
      1,
      `Error: s3://${TEST_BUCKET}/paystead/production-20200101T000000Z.db.age does not exist; list the bucket to find the name of a copy.`,
    ]);
    // The restore decrypts into the data folder under the database's lock, which names its
    // process: every data file is as it was, and nothing is left beside them.
    const withoutLocks = (files: Record<string, string>) =>
      Object.fromEntries(Object.entries(files).filter(([name]) => !name.endsWith(".lock")));
    const after = await filesOf(dataDir);
    assert.deepEqual(Object.keys(after), Object.keys(before));
    assert.deepEqual(withoutLocks(after), withoutLocks(before));

    // doctor opens the header of the newest copy: the right passphrase passes, a wrong one is named.
    const doctorLines = async (passphrase: string) =>
      (await runCli(["doctor"], { ...env, BACKUP_PASSPHRASE: passphrase })).stderr.split("\n")
        .filter((line) => line.includes("off-site"));
    assert.deepEqual(await doctorLines(PASSPHRASE), []);
    const wrongDoctor = await doctorLines("not-the-passphrase-of-these-copies");
    assert.equal(wrongDoctor.length, 1);
    assert.match(
      wrongDoctor[0],
      /^BACKUP_PASSPHRASE does not decrypt the newest off-site copy s3:\/\/paystead-backups\/paystead\/(accounts|production)-\d{8}T\d{6}Z\.db\.age\. Fix: Set BACKUP_PASSPHRASE to the passphrase the copies were made with; a copy restores only with its own passphrase\.$/,
    );

    // The restored production database serves: the key made before the disaster still works.
    const again = await startPaystead(dataDir, { PAYSTEAD_ENV: "production" });
    try {
      const offers = await fetch(`${again.url}/api/v1/qr`, {
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(offers.status, 200);
      assert.deepEqual(await offers.json(), { data: [], hasMore: false });
    } finally {
      assert.equal((await again.stop()).code, 0);
    }
  } finally {
    await s3.stop();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(s3.folder, { recursive: true });
  }
});

Deno.test("[offsite] doctor asks the store: a missing bucket, refused keys and a store that is down are each one line with its fix", async () => {
  const s3 = await startS3Server();
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-offsite-doctor-" });
  const env = {
    DATA_DIR: dataDir,
    BACKUP_INTERVAL: "6h",
    BACKUP_S3_URL: `s3://${TEST_BUCKET}/paystead`,
    BACKUP_PASSPHRASE: PASSPHRASE,
    ...s3.env,
  };
  /** Doctor's lines about the off-site store. */
  const offsiteLines = async (overrides: Record<string, string>) => {
    const result = await runCli(["doctor"], { ...env, ...overrides });
    return result.stderr.split("\n").filter((line) => /BACKUP_S3|off-site|AWS_|s3:\/\//.test(line));
  };
  try {
    assert.deepEqual(await offsiteLines({}), []);
    assert.deepEqual(await offsiteLines({ BACKUP_S3_URL: "s3://no-such-bucket/paystead" }), [
      `The bucket no-such-bucket of BACKUP_S3_URL does not exist at ${s3.endpoint}. Fix: Create the bucket, or correct BACKUP_S3_URL (and BACKUP_S3_ENDPOINT).`,
    ]);
    // s3rver checks the key id (not SigV4 signatures): an unknown one is refused as S3 does.
    const refused = await offsiteLines({
      AWS_ACCESS_KEY_ID: "AKIAUNKNOWNKEY",
      AWS_SECRET_ACCESS_KEY: "not-the-secret-key",
    });
    assert.equal(refused.length, 1);
    assert.match(
      refused[0],
      new RegExp(
        `^The store at ${s3.endpoint} refused to list s3://${TEST_BUCKET}/paystead/ \\(InvalidAccessKeyId \\(HTTP 403\\): .+\\)\\. Fix: Check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, and that the key may list, read, write and delete objects under that prefix\\.$`,
      ),
    );
    assert.equal(refused[0].includes("not-the-secret-key"), false);
    await s3.stop();
    const down = await offsiteLines({});
    assert.equal(down.length, 1);
    assert.match(
      down[0],
      new RegExp(
        `^The off-site store at ${s3.endpoint} does not answer for s3://${TEST_BUCKET}/paystead/ \\(.*(ECONNREFUSED|refused).*\\)\\. Fix: Check BACKUP_S3_ENDPOINT and BACKUP_S3_REGION, and that this machine can reach the store\\.$`,
      ),
    );
  } finally {
    await s3.stop();
    await Deno.remove(dataDir, { recursive: true });
    await Deno.remove(s3.folder, { recursive: true });
  }
});

Deno.test("[offsite] the settings are checked at start: BACKUP_S3_URL needs a passphrase and scheduled backups, and no secret is echoed", async () => {
  const base = { BACKUP_INTERVAL: "6h", BACKUP_S3_URL: "s3://bucket/paystead" };
  for (
    const [env, message] of [
      [
        base,
        "Invalid configuration: BACKUP_PASSPHRASE is required with BACKUP_S3_URL (off-site copies are encrypted with it; keep it apart from the backups).",
      ],
      [
        { BACKUP_S3_URL: "s3://bucket/paystead", BACKUP_PASSPHRASE: PASSPHRASE },
        "Invalid configuration: BACKUP_S3_URL copies the scheduled backups, so it needs BACKUP_INTERVAL (such as 6h).",
      ],
      [
        { ...base, BACKUP_PASSPHRASE: "short-secret" },
        "Invalid configuration: BACKUP_PASSPHRASE must be at least 16 characters (e.g. from openssl rand -base64 24).",
      ],
      [
        {
          ...base,
          BACKUP_S3_URL: "https://bucket.example/paystead",
          BACKUP_PASSPHRASE: PASSPHRASE,
        },
        'Invalid configuration: BACKUP_S3_URL must be s3://bucket or s3://bucket/prefix (got "https://bucket.example/paystead").',
      ],
      [
        { ...base, BACKUP_PASSPHRASE: PASSPHRASE, AWS_SECRET_ACCESS_KEY: "only-the-secret" },
        "Invalid configuration: AWS_ACCESS_KEY_ID is required with the other AWS_* key (the pair of the store's access key).",
      ],
      [
        { ...base, BACKUP_PASSPHRASE: PASSPHRASE, AWS_SECRET_ACCESS_KEY: "a secret with spaces" },
        "Invalid configuration: AWS_SECRET_ACCESS_KEY must be a secret access key.",
      ],
    ] as [Record<string, string>, string][]
  ) {
    const result = await runCli(["version"], env);
    assert.deepEqual([result.code, result.stderr], [2, message]);
  }
});

Deno.test("[offsite] a copy larger than one part goes up as a multipart upload and comes back byte for byte", async () => {
  const s3 = await startS3Server();
  // A recording proxy in front of the store: which S3 calls the upload makes.
  const calls: string[] = [];
  const proxy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    calls.push(`${request.method} ${url.search.replace(/uploadId=[^&]+/, "uploadId=U")}`);
    const body = request.method === "GET" || request.method === "HEAD"
      ? undefined
      : await request.arrayBuffer();
    const headers = new Headers(request.headers);
    headers.delete("host");
    return await fetch(`${s3.endpoint}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      body,
    });
  });
  const folder = await Deno.makeTempDir({ prefix: "paystead-offsite-parts-" });
  try {
    const store = testStore(`http://127.0.0.1:${proxy.addr.port}`);
    // 9 MiB of random bytes: one full 8 MiB part and the rest.
    const file = await Deno.open(`${folder}/big.db.age`, { write: true, createNew: true });
    for (let i = 0; i < 144; i++) await file.write(crypto.getRandomValues(new Uint8Array(65536)));
    file.close();
    await store.upload("paystead/big.db.age", `${folder}/big.db.age`);
    // Start, the two parts (two in flight at once, so in either order), complete.
    assert.equal(calls.length, 4);
    assert.equal(calls[0], "POST ?uploads=");
    assert.deepEqual(calls.slice(1, 3).sort(), [
      "PUT ?partNumber=1&uploadId=U&x-id=UploadPart",
      "PUT ?partNumber=2&uploadId=U&x-id=UploadPart",
    ]);
    assert.equal(calls[3], "POST ?uploadId=U");
    assert.deepEqual(
      await storedObject(s3, "paystead/big.db.age"),
      await Deno.readFile(`${folder}/big.db.age`),
    );
    const listed = await store.list("paystead/");
    assert.deepEqual(listed.map((object) => [object.key, object.sizeBytes]), [
      ["paystead/big.db.age", 9 * 1024 * 1024],
    ]);
    const downloaded = new Uint8Array(
      await new Response(await store.download("paystead/big.db.age")).arrayBuffer(),
    );
    assert.deepEqual(downloaded, await Deno.readFile(`${folder}/big.db.age`));
  } finally {
    await proxy.shutdown();
    await s3.stop();
    await Deno.remove(folder, { recursive: true });
    await Deno.remove(s3.folder, { recursive: true });
  }
});
