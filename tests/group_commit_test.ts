import assert from "node:assert/strict";
import { GroupCommitWriter, type WriteBatch } from "../db/group_commit.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { StorageHealth } from "../db/storage_health.ts";
import { afterCommit } from "../lib/after_commit.ts";
import { sql } from "kysely";

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
  const claim = writer.writeVisible(() => Promise.resolve(2)).then((v) => log.push(`visible ${v}`));
  const third = writer.write(() => Promise.resolve(3)).then((v) => log.push(`acknowledged ${v}`));
  await turn();
  await claim;
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

/** A writer whose executor logs each statement when it is sent and answers when the test says. */
function pipelinedWriter(failing: string) {
  const log: string[] = [];
  const answers: (() => void)[] = [];
  const writer = new GroupCommitWriter<EnvironmentSchema>(() =>
    Promise.resolve<WriteBatch>({
      executor: {
        execute: ({ sql }) => {
          log.push(`sent ${sql}`);
          return new Promise((resolve, reject) =>
            answers.push(() =>
              sql === failing
                ? reject(new Error(`${sql} failed`))
                : resolve({ rows: [], rowsAffected: 0 })
            )
          );
        },
      },
      commit: () => Promise.resolve(void log.push("commit")),
      rollback: () => Promise.resolve(void log.push("rollback")),
    }), new StorageHealth("file:test.db"));
  return { writer, log, answers };
}

Deno.test("[group-commit] savepoints go out without waiting, and a failed one fails the whole batch", async () => {
  const { writer, log, answers } = pipelinedWriter("RELEASE write_item");
  const settled: string[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  // A lone write runs without a savepoint; the two queued behind it share the next batch.
  const first = writer.write(() => gate);
  const writes = [1, 2].map((n) =>
    writer.write(async (trx) => {
      await sql`SELECT ${n}`.execute(trx);
      return n;
    }).then(
      (value) => settled.push(`acknowledged ${value}`),
      (error: Error) => settled.push(`rejected: ${error.message}`),
    )
  );
  open();
  await first;
  for (let turn = 0; turn < 10 && log.length < 3; turn++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  // The first item's SELECT was sent before its SAVEPOINT was answered.
  assert.deepEqual(log, ["commit", "sent SAVEPOINT write_item", "sent SELECT ?"]);
  while (answers.length > 0 || !log.includes("rollback")) {
    answers.splice(0).forEach((answer) => answer());
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  await Promise.all(writes);
  assert.deepEqual(log, [
    "commit",
    "sent SAVEPOINT write_item",
    "sent SELECT ?",
    "sent RELEASE write_item",
    "sent SAVEPOINT write_item",
    "sent SELECT ?",
    "sent RELEASE write_item",
    "commit",
    "rollback",
  ]);
  assert.deepEqual(settled, [
    "rejected: RELEASE write_item failed",
    "rejected: RELEASE write_item failed",
  ]);
  await writer.idle();
});
