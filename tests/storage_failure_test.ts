import assert from "node:assert/strict";
import { GroupCommitWriter, type WriteBatch } from "../db/group_commit.ts";
import type { ExecuteResult } from "../db/libsql_dialect.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { StorageHealth, StorageUnavailableError } from "../db/storage_health.ts";
import { diskFull, type FailingStore, failingStore } from "./support/failing_store.ts";
import { createTestOffer, createTestPayment, expectError, makeTestApp } from "./support/helpers.ts";
import { demoApiKey, runCli, startPaystead } from "./support/processes.ts";

const noRows = (): Promise<ExecuteResult> => Promise.resolve({ rows: [], rowsAffected: 0 });

Deno.test("[storage] a commit that fails on a full disk rejects the write and nothing else", async () => {
  const health = new StorageHealth("file:test.db");
  const changes: boolean[] = [];
  health.onChange((writable) => changes.push(writable));
  let full = true;
  const writer = new GroupCommitWriter<EnvironmentSchema>(() =>
    Promise.resolve<WriteBatch>({
      executor: { execute: noRows },
      commit: () => full ? Promise.reject(diskFull()) : Promise.resolve(),
      // SQLite has rolled back by itself, and libsql's rollback throws at once, not in a promise.
      rollback: () => {
        throw new Error("cannot rollback - no transaction is active");
      },
    }), health);

  const failed = await Promise.allSettled([
    writer.write(() => Promise.resolve(1)),
    writer.write(() => Promise.resolve(2)),
  ]);
  for (const result of failed) {
    assert.equal(result.status, "rejected");
    assert.ok(result.reason instanceof StorageUnavailableError);
    assert.equal(
      result.reason.message,
      "The database file:test.db cannot take writes: database or disk is full",
    );
  }
  await assert.rejects(writer.write(() => Promise.resolve(3)), StorageUnavailableError);
  assert.equal(health.writable, false);
  assert.deepEqual(changes, [false]);

  full = false;
  assert.equal(await writer.write(() => Promise.resolve(4)), 4);
  assert.equal(health.writable, true);
  assert.deepEqual(changes, [false, true]);
  health.stop();
});

Deno.test("[storage] a write the storage refuses is a 503, and its key is free for the retry", async () => {
  let store!: FailingStore;
  const t = await makeTestApp({ wrapStore: (real) => (store = failingStore(real)) });
  try {
    const offer = await createTestOffer(t);
    const payment = await createTestPayment(t, offer.qrId);
    const cancel = `/api/v1/payments/${payment.paymentId}/cancel`;

    // The claim of the key commits; the cancel's write and the key's release fail.
    let writes = 0;
    store.setFailing(() => ++writes >= 2);
    const headers = { "idempotency-key": "cancel-1" };
    const refused = await t.request("POST", cancel, undefined, headers);
    assert.equal(refused.headers.get("retry-after"), "5");
    await expectError(
      refused,
      503,
      "api",
      "storage_unavailable",
      "The server cannot store anything right now; nothing of this request was kept. Retry later.",
    );
    const ready = await t.app.request("/readyz");
    assert.equal(ready.status, 503);
    assert.deepEqual(await ready.json(), {
      status: "unavailable",
      reason: "the storage cannot take writes",
    });
    assert.equal(
      (await (await t.request("GET", `/api/v1/payments/${payment.paymentId}`)).json())
        .status,
      "PENDING",
    );

    store.setFailing(() => false);
    const retried = await t.request("POST", cancel, undefined, headers);
    assert.equal(retried.status, 200);
    assert.equal(retried.headers.get("idempotent-replayed"), null);
    assert.equal((await t.app.request("/readyz")).status, 200);
    const replayed = await t.request("POST", cancel, undefined, headers);
    assert.equal(replayed.status, 200);
    assert.equal(replayed.headers.get("idempotent-replayed"), "true");
    assert.equal((await replayed.json()).status, "CANCELED");
  } finally {
    await t.close();
  }
});

Deno.test("[storage] a create the storage refuses is a 503 that keeps nothing, and its key is free for the retry", async () => {
  let store!: FailingStore;
  const t = await makeTestApp({ wrapStore: (real) => (store = failingStore(real)) });
  try {
    const offer = await createTestOffer(t);
    // The first use of a key writes its last-use time; get it out of the way.
    assert.equal((await t.request("GET", `/api/v1/qr/${offer.qrId}`)).status, 200);

    store.setFailing(() => true);
    const headers = { "idempotency-key": "order-1" };
    const refused = await t.request("POST", "/api/v1/payments", { qrId: offer.qrId }, headers);
    assert.equal(refused.headers.get("retry-after"), "5");
    await expectError(refused, 503, "api", "storage_unavailable");
    assert.equal((await t.app.request("/readyz")).status, 503);
    for (const table of ["payments", "events", "idempotency_keys"] as const) {
      assert.deepEqual(await t.store.db.selectFrom(table).select("id").execute(), [], table);
    }

    store.setFailing(() => false);
    const retried = await t.request("POST", "/api/v1/payments", { qrId: offer.qrId }, headers);
    assert.equal(retried.status, 201);
    assert.equal(retried.headers.get("idempotent-replayed"), null);
    assert.equal((await t.app.request("/readyz")).status, 200);
    const replayed = await t.request("POST", "/api/v1/payments", { qrId: offer.qrId }, headers);
    assert.equal(replayed.status, 201);
    assert.equal(replayed.headers.get("idempotent-replayed"), "true");
    assert.equal((await t.store.db.selectFrom("payments").select("id").execute()).length, 1);
  } finally {
    await t.close();
  }
});

async function mountTmpfs(path: string, size: string): Promise<string | null> {
  try {
    const mounted = await new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", path],
      stdout: "null",
      stderr: "piped",
    }).output();
    return mounted.success ? null : new TextDecoder().decode(mounted.stderr).trim();
  } catch (error) {
    return String(error);
  }
}

/** Writes zeros to `path` until the file system is full. */
async function fill(path: string): Promise<void> {
  const file = await Deno.open(path, { create: true, write: true });
  const chunk = new Uint8Array(64 * 1024);
  try {
    while (true) await file.write(chunk);
  } catch (error) {
    if (!(error instanceof Error && /No space left/.test(error.message))) throw error;
  } finally {
    file.close();
  }
}

Deno.test({
  name:
    "[storage] on a full disk the server answers 503, stays up and takes writes when space returns",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const mountPoint = await Deno.makeTempDir({ prefix: "paystead-tmpfs-" });
    const refused = await mountTmpfs(mountPoint, "16m");
    if (refused !== null) {
      console.log(`skipped: cannot mount a tmpfs here (${refused}); run the tests as root`);
      await Deno.remove(mountPoint);
      return;
    }
    const server = await startPaystead(`${mountPoint}/data`);
    try {
      const key = await demoApiKey(server);
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const offer = await (await fetch(`${server.url}/api/v1/qr`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Full disk", amount: 100, currency: "PLN" }),
      })).json();
      const create = (idempotencyKey: string) =>
        fetch(`${server.url}/api/v1/payments`, {
          method: "POST",
          headers: { ...headers, "idempotency-key": idempotencyKey },
          body: JSON.stringify({ qrId: offer.qrId }),
        });
      const keys = Array.from({ length: 40 }, (_, i) => `order-${i}`);

      await t.step("while the disk is full every create is a 503 with Retry-After", async () => {
        await fill(`${mountPoint}/filler`);
        const responses = await Promise.all(keys.map(create));
        for (const response of responses) {
          assert.equal(response.headers.get("retry-after"), "5");
          await expectError(response, 503, "api", "storage_unavailable");
        }
        const health = await fetch(`${server.url}/healthz`);
        assert.equal(health.status, 200);
        await health.body?.cancel();
        const ready = await fetch(`${server.url}/readyz`);
        assert.equal(ready.status, 503);
        assert.deepEqual(await ready.json(), {
          status: "unavailable",
          reason: "the storage cannot take writes",
        });
      });

      await t.step(
        "once space returns it is ready again and every key's retry succeeds",
        async () => {
          await Deno.remove(`${mountPoint}/filler`);
          // Nothing writes meanwhile: the server's own probe finds the space.
          for (let tries = 0; tries < 300; tries++) {
            const ready = await fetch(`${server.url}/readyz`);
            await ready.body?.cancel();
            if (ready.status === 200) break;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          const responses = await Promise.all(keys.map(create));
          const statuses = responses.map((response) => response.status);
          await Promise.all(responses.map((response) => response.body?.cancel()));
          assert.deepEqual(statuses, keys.map(() => 201));
          const ready = await fetch(`${server.url}/readyz`);
          assert.equal(ready.status, 200);
          await ready.body?.cancel();
        },
      );

      await t.step(
        "the process never exited and logged the failure and the recovery once",
        async () => {
          const stopped = await server.stop();
          assert.equal(stopped.code, 0);
          const lines = server.logs().split("\n").filter((line) => line.startsWith("{"))
            .map((line) => JSON.parse(line));
          const storage = lines.filter((line) => /^storage /.test(line.message))
            .map((line) => [line.level, line.message, line.database]);
          assert.deepEqual(storage, [
            [
              "error",
              "storage cannot take writes (disk full, read-only or failing); answering 503 until it can",
              `file:${mountPoint}/data/sandbox.db`,
            ],
            ["warn", "storage takes writes again", `file:${mountPoint}/data/sandbox.db`],
          ]);
          assert.deepEqual(lines.filter((line) => line.level === "error").length, 1);
        },
      );
    } finally {
      await server.stop();
      await new Deno.Command("umount", { args: [mountPoint] }).output();
      await Deno.remove(mountPoint, { recursive: true });
    }
  },
});

/** The size of a file in bytes, 0 when it does not exist. */
async function sizeOf(path: string): Promise<number> {
  return await Deno.stat(path).then((info) => info.size, () => 0);
}

Deno.test({
  name: "[storage] on a small disk whose space returns, the WAL is truncated before writes resume",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const mountPoint = await Deno.makeTempDir({ prefix: "paystead-tmpfs-" });
    const refused = await mountTmpfs(mountPoint, "6m");
    if (refused !== null) {
      console.log(`skipped: cannot mount a tmpfs here (${refused}); run the tests as root`);
      await Deno.remove(mountPoint);
      return;
    }
    const server = await startPaystead(`${mountPoint}/data`);
    const wal = `${mountPoint}/data/sandbox.db-wal`;
    try {
      const key = await demoApiKey(server);
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const offer = await (await fetch(`${server.url}/api/v1/qr`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Small disk", amount: 100, currency: "PLN" }),
      })).json();
      const create = async () => {
        const response = await fetch(`${server.url}/api/v1/payments`, {
          method: "POST",
          headers,
          body: JSON.stringify({ qrId: offer.qrId, metadata: { note: "x".repeat(400) } }),
        });
        await response.body?.cancel();
        return response.status;
      };
      // Writes until the WAL file holds a megabyte: SQLite reuses it from its start after each
      // checkpoint but never makes it smaller.
      for (let round = 0; round < 300 && await sizeOf(wal) < 1024 * 1024; round++) {
        assert.deepEqual(await Promise.all([create(), create(), create(), create()]), [
          201,
          201,
          201,
          201,
        ]);
      }
      const before = await sizeOf(wal);
      assert.ok(before >= 1024 * 1024, `the WAL reached only ${before} bytes`);

      // The disk fills up; writes go on in the WAL's room until they need more, then fail.
      await fill(`${mountPoint}/filler`);
      let failed = false;
      for (let round = 0; round < 500 && !failed; round++) {
        const statuses = await Promise.all([create(), create(), create(), create()]);
        failed = statuses.includes(503);
      }
      assert.ok(failed, "writes never failed on the full disk");

      // Space returns: the first write after it (the server's own probe) truncates the WAL.
      await Deno.remove(`${mountPoint}/filler`);
      let ready = false;
      for (let tries = 0; tries < 100 && !ready; tries++) {
        const response = await fetch(`${server.url}/readyz`);
        await response.body?.cancel();
        ready = response.status === 200;
        if (!ready) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(ready, "the server did not take writes again");
      const after = await sizeOf(wal);
      assert.ok(after < 128 * 1024, `the WAL still holds ${after} bytes (it held ${before})`);
      const statuses = [];
      for (let round = 0; round < 10; round++) {
        statuses.push(...await Promise.all([create(), create(), create(), create()]));
      }
      assert.deepEqual(statuses, statuses.map(() => 201));
    } finally {
      await server.stop();
      await new Deno.Command("umount", { args: [mountPoint] }).output();
      await Deno.remove(mountPoint, { recursive: true });
    }
  },
});

Deno.test("[storage] a data folder that cannot be made is one line saying where and what to do", async () => {
  const file = await Deno.makeTempFile({ prefix: "paystead-not-a-folder-" });
  try {
    const result = await runCli(["migrate"], { DATA_DIR: `${file}/data` });
    assert.equal(result.code, 1);
    assert.equal(result.stdout, "");
    assert.equal(
      result.stderr,
      `Cannot use the database ${file}/data/accounts.db: Not a directory (os error 20): mkdir ` +
        `'${file}/data'. Make the folder ${file}/data exist and be writable by the user running ` +
        "Paystead, or point DATA_DIR (--data-dir) at one that is.",
    );
  } finally {
    await Deno.remove(file);
  }
});
