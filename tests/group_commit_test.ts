import assert from "node:assert/strict";
import { GroupCommitWriter, type WriteBatch } from "../db/group_commit.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { StorageHealth } from "../db/storage_health.ts";
import { afterCommit } from "../lib/after_commit.ts";

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
