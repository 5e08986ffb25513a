import assert from "node:assert/strict";
import { type Kysely, sql } from "kysely";
import { openStore, type Store } from "../db/client.ts";
import { GroupCommitWriter, type WriteBatch } from "../db/group_commit.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { StorageHealth } from "../db/storage_health.ts";
import { afterCommit } from "../lib/after_commit.ts";
import { claimKey } from "../lib/idempotency.ts";

/** A writer over fake batches whose fsyncs finish when the test says. */
function fakeWriter() {
  const log: string[] = [];
  const flushes: (() => void)[] = [];
  let batches = 0;
  const writer = new GroupCommitWriter<EnvironmentSchema>(() => {
    const n = ++batches;
    return Promise.resolve<WriteBatch>({
      executor: { execute: () => Promise.resolve({ rows: [], rowsAffected: 0 }) },
      commit: () => Promise.resolve(void log.push(`commit ${n}`)),
      rollback: () => Promise.resolve(),
      durable: () => new Promise<void>((resolve) => flushes.push(resolve)),
    });
  }, new StorageHealth("file:test.db"));
  const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
  return { writer, log, flushes, turn };
}

Deno.test("[group-commit] a write is acknowledged only once on disk; the next batch may commit meanwhile", async () => {
  const { writer, log, flushes, turn } = fakeWriter();
  const first = writer.write(async (trx) => {
    afterCommit(trx, () => log.push("woken 1"));
    return await Promise.resolve(1);
  }).then((value) => log.push(`acknowledged ${value}`));
  await turn();
  await writer.writeVisible(() => Promise.resolve(2)).then((v) => log.push(`visible ${v}`));
  const third = writer.write(() => Promise.resolve(3)).then((v) => log.push(`acknowledged ${v}`));
  await turn();
  // Batch 2 committed while batch 1's fsync runs; batch 3 waits, as two fsyncs are running.
  assert.deepEqual(log, ["commit 1", "commit 2", "visible 2"]);
  assert.equal(flushes.length, 2);
  flushes[1]();
  await turn();
  assert.deepEqual(log, ["commit 1", "commit 2", "visible 2", "commit 3"]);
  flushes[2]();
  await third;
  // A later batch on disk is acknowledged at once; the earlier one still waits for its fsync.
  assert.deepEqual(log.slice(4), ["acknowledged 3"]);
  flushes[0]();
  await first;
  assert.deepEqual(log.slice(5), ["woken 1", "acknowledged 1"]);
  await writer.idle();
});

Deno.test("[group-commit] beforeBatch holds the next batch back; writes meanwhile share it", async () => {
  const log: string[] = [];
  let release = () => {};
  let holds = 0;
  const writer = new GroupCommitWriter<EnvironmentSchema>(
    () =>
      Promise.resolve<WriteBatch>({
        executor: { execute: () => Promise.resolve({ rows: [], rowsAffected: 0 }) },
        commit: () => Promise.resolve(void log.push("commit")),
        rollback: () => Promise.resolve(),
      }),
    new StorageHealth("file:test.db"),
    {
      beforeBatch: () => {
        if (holds++ > 0) return undefined;
        return new Promise<void>((resolve) => release = resolve);
      },
    },
  );
  const first = writer.write(() => Promise.resolve(1));
  await new Promise((resolve) => setTimeout(resolve, 0));
  const second = writer.write(() => Promise.resolve(2));
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(log, []);
  release();
  assert.deepEqual(await Promise.all([first, second]), [1, 2]);
  // Both waited for the same batch: one commit, one hold asked.
  assert.deepEqual(log, ["commit"]);
  assert.equal(holds, 1);
  await writer.idle();
});

/** A writer over real-looking batches that record each statement and fail the ones named "bad". */
function recordingWriter(active: boolean) {
  const log: string[] = [];
  const writer = new GroupCommitWriter<EnvironmentSchema>(
    (oneStatement) =>
      Promise.resolve<WriteBatch>({
        executor: {
          execute: ({ sql }) => {
            log.push(sql);
            return sql.includes("bad")
              ? Promise.reject(new Error(`failed: ${sql}`))
              : Promise.resolve({ rows: [], rowsAffected: 1, lastInsertRowid: 7n });
          },
        },
        // A lone one-statement write runs as it comes: there is nothing to commit or roll back.
        commit: () => Promise.resolve(void log.push(oneStatement ? "(autocommit)" : "COMMIT")),
        rollback: () => Promise.resolve(void log.push(oneStatement ? "(autocommit)" : "ROLLBACK")),
        active: () => active,
      }),
    new StorageHealth("file:test.db"),
  );
  const run = (trx: Kysely<EnvironmentSchema>, name: string) => sql.raw(name).execute(trx);
  return { writer, log, run };
}

Deno.test("[group-commit] a one-statement write shares a batch without a savepoint; its failure undoes only it", async () => {
  const { writer, log, run } = recordingWriter(true);
  // Writes made in one turn of the event loop share its batch.
  const results = await Promise.allSettled([
    writer.write((trx) => run(trx, "first")),
    writer.writeStatement((trx) => run(trx, "claim")),
    writer.writeStatement((trx) => run(trx, "bad claim")),
    writer.write((trx) => run(trx, "last")),
  ]);
  assert.deepEqual(results.map((result) => result.status), [
    "fulfilled",
    "fulfilled",
    "rejected",
    "fulfilled",
  ]);
  assert.deepEqual(log, [
    "SAVEPOINT write_item",
    "first",
    "RELEASE write_item",
    "claim",
    "bad claim",
    "SAVEPOINT write_item",
    "last",
    "RELEASE write_item",
    "COMMIT",
  ]);
});

Deno.test("[group-commit] a batch of declared writes runs without savepoints", async () => {
  const { writer, log } = recordingWriter(true);
  const [a, b] = await Promise.all([
    writer.writeStatements([{ sql: "a1", args: [] }, { sql: "a2", args: [] }]),
    writer.writeStatements([{ sql: "b1", args: [] }]),
  ]);
  assert.deepEqual([a.length, b.length], [2, 1]);
  assert.deepEqual(log, ["a1", "a2", "b1", "COMMIT"]);
});

Deno.test("[group-commit] a failing declared write rolls its batch back, which runs again with savepoints", async () => {
  const { writer, log } = recordingWriter(true);
  const results = await Promise.allSettled([
    writer.writeStatements([{ sql: "a", args: [] }]),
    writer.writeStatements([{ sql: "b1", args: [] }, { sql: "bad b2", args: [] }]),
    writer.writeStatements([{ sql: "c", args: [] }]),
  ]);
  assert.deepEqual(results.map((result) => result.status), [
    "fulfilled",
    "rejected",
    "fulfilled",
  ]);
  assert.match(String((results[1] as PromiseRejectedResult).reason), /failed: bad b2/);
  assert.deepEqual(log, [
    "a",
    "b1",
    "bad b2",
    "ROLLBACK",
    "SAVEPOINT write_item",
    "a",
    "RELEASE write_item",
    "SAVEPOINT write_item",
    "b1",
    "bad b2",
    "ROLLBACK TO write_item",
    "RELEASE write_item",
    "SAVEPOINT write_item",
    "c",
    "RELEASE write_item",
    "COMMIT",
  ]);
});

Deno.test("[group-commit] a declared write failing where SQLite ended the transaction fails its batch", async () => {
  const { writer, log } = recordingWriter(false);
  const results = await Promise.allSettled([
    writer.writeStatements([{ sql: "a", args: [] }]),
    writer.writeStatements([{ sql: "bad b", args: [] }]),
  ]);
  assert.deepEqual(results.map((result) => result.status), ["rejected", "rejected"]);
  // Not run again: a full disk or an I/O error fails the batch as before.
  assert.deepEqual(log, ["a", "bad b", "ROLLBACK"]);
});

Deno.test("[group-commit] on SQLite, a declared write that fails half-way leaves nothing; its batch commits", async () => {
  const dir = await Deno.makeTempDir({ prefix: "paystead-group-commit-" });
  const store = await openStore<Record<string, never>>(`file:${dir}/test.db`);
  try {
    await store.write((trx) => sql`CREATE TABLE t (x INTEGER PRIMARY KEY)`.execute(trx));
    const insert = (x: number) => ({ sql: "INSERT INTO t (x) VALUES (?)", args: [x] });
    const results = await Promise.allSettled([
      store.writeStatements([insert(1), insert(2)]),
      store.writeStatements([insert(3), insert(1)]),
      store.writeStatements([insert(4)]),
    ]);
    assert.deepEqual(results.map((result) => result.status), [
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    assert.match(String((results[1] as PromiseRejectedResult).reason), /UNIQUE|PRIMARY KEY/);
    const rows = await sql<{ x: number }>`SELECT x FROM t ORDER BY x`.execute(store.db);
    assert.deepEqual(rows.rows.map((row) => row.x), [1, 2, 4]);
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[group-commit] a one-statement write's failure that ended the transaction fails its batch", async () => {
  const { writer, log, run } = recordingWriter(false);
  const results = await Promise.allSettled([
    writer.write((trx) => run(trx, "first")),
    writer.writeStatement((trx) => run(trx, "bad claim")),
  ]);
  assert.deepEqual(results.map((result) => result.status), ["rejected", "rejected"]);
  assert.deepEqual(log.slice(-2), ["bad claim", "ROLLBACK"]);
});

Deno.test("[group-commit] a one-statement write that makes a second statement is refused", async () => {
  const { writer, log, run } = recordingWriter(true);
  const results = await Promise.allSettled([
    writer.write((trx) => run(trx, "other")),
    writer.writeStatement(async (trx) => {
      await run(trx, "one");
      await run(trx, "two");
    }),
  ]);
  assert.deepEqual(results.map((result) => result.status), ["rejected", "rejected"]);
  assert.match(String((results[1] as PromiseRejectedResult).reason), /makes one statement/);
  // Its first statement took effect and cannot be undone alone: the batch rolls back.
  assert.deepEqual(log, [
    "SAVEPOINT write_item",
    "other",
    "RELEASE write_item",
    "one",
    "ROLLBACK",
  ]);
});

Deno.test("[group-commit] claiming a new Idempotency-Key is one statement in the batch", async () => {
  const { writer, log } = recordingWriter(true);
  const store = {
    writeStatement: (work) => writer.writeStatement(work),
    writeVisible: (work) => writer.writeVisible(work),
    write: (work) => writer.write(work),
  } as Pick<Store<EnvironmentSchema>, "write" | "writeVisible" | "writeStatement">;
  const claim = await claimKey(store as Store<EnvironmentSchema>, {
    orgId: 1,
    key: "k1",
    fingerprint: "f",
    at: 1_000,
  });
  assert.deepEqual(claim, { id: 7, lockedUntil: 61_000 });
  assert.deepEqual(log.map((sql) => sql.replace(/ \(.*/, "")), [
    'insert into "idempotency_keys"',
    "(autocommit)",
  ]);
  assert.match(log[0], /on conflict \("org_id", "key"\) do nothing$/);
});
