import assert from "node:assert/strict";
import { sql } from "kysely";
import { openStore } from "../db/client.ts";
import { afterCommit } from "../lib/after_commit.ts";

Deno.test("[after-commit] an action runs once its write is durable, never when it rolls back", async () => {
  const dir = await Deno.makeTempDir({ prefix: "paystead-after-commit-" });
  const store = await openStore<Record<string, never>>(`file:${dir}/test.db`);
  try {
    await store.write((trx) => sql`CREATE TABLE t (x INTEGER NOT NULL)`.execute(trx));
    const ran: string[] = [];
    const seen: number[] = [];
    let counted: Promise<void> | undefined;
    const count = async () =>
      Number((await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(store.db)).rows[0].n);
    const writes = [
      store.write(async (trx) => {
        await sql`INSERT INTO t (x) VALUES (1)`.execute(trx);
        afterCommit(trx, () => {
          ran.push("kept");
          counted = count().then((n) => {
            seen.push(n);
          });
        });
        ran.push("written");
      }),
      store.write(async (trx) => {
        await sql`INSERT INTO t (x) VALUES (2)`.execute(trx);
        afterCommit(trx, () => ran.push("rolled back"));
        throw new Error("undo");
      }),
    ];
    const results = await Promise.allSettled(writes);
    assert.deepEqual(results.map((result) => result.status), ["fulfilled", "rejected"]);
    assert.deepEqual(ran, ["written", "kept"]);
    // The action's own read sees its write: waited for, not raced against another write.
    await counted;
    assert.deepEqual(seen, [1]);
    assert.throws(
      () => afterCommit(store.db, () => {}),
      { message: "afterCommit() takes the transaction of a write() callback." },
    );
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
