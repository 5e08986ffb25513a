import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { setImmediate } from "node:timers";
import { migrate, openStore, type Store } from "../db/client.ts";
import { environmentMigrations } from "../db/migrations/mod.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { eventRow } from "./support/event_row.ts";

async function withStore(test: (store: Store<EnvironmentSchema>, path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "paystead-snapshot-" });
  const store = await openStore<EnvironmentSchema>(`file:${dir}/env.db`);
  try {
    await migrate(store, environmentMigrations);
    await test(store, `${dir}/env.db`);
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
}

async function countEvents(store: Store<EnvironmentSchema>): Promise<number> {
  const row = await store.db.selectFrom("events").select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Resolves in the event loop's next check phase, where a write's batch starts its turn. */
function inNextTurn<T>(work: () => Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => setImmediate(() => work().then(resolve, reject)));
}

Deno.test("[db] a write is seen by the reads after its commit, in the turn a read began", async () => {
  await withStore(async (store) => {
    // Scheduled before the write, this read opens the snapshot of the turn the batch runs in.
    const before = inNextTurn(() => countEvents(store));
    await store.writeVisible((trx) =>
      trx.insertInto("events").values(eventRow("evt_batch")).execute()
    );
    assert.equal(await before, 0);
    assert.equal(await countEvents(store), 1);
    // A one-statement write commits by itself, outside a batch's COMMIT.
    const beforeStatement = inNextTurn(() => countEvents(store));
    await store.writeStatement((db) =>
      db.insertInto("events").values(eventRow("evt_statement")).execute()
    );
    assert.equal(await beforeStatement, 1);
    assert.equal(await countEvents(store), 2);
  });
});

Deno.test("[db] reads of one turn share a snapshot, and the next turn sees other processes' commits", async () => {
  await withStore(async (store, path) => {
    const other = new DatabaseSync(path);
    try {
      assert.equal(await countEvents(store), 0);
      other.exec(
        "INSERT INTO events (public_id, org_id, type, payload, created_at) " +
          "VALUES ('evt_cli', 1, 'payment.created', '{}', 1)",
      );
      // Still the turn's snapshot: the read locks of the turn are taken once.
      assert.equal(await countEvents(store), 0);
      assert.equal(await inNextTurn(() => countEvents(store)), 1);
    } finally {
      other.close();
    }
  });
});
