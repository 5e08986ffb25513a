import assert from "node:assert/strict";
import { sql } from "kysely";
import { backupDatabase, migrate, openStore } from "../db/client.ts";
import { environmentMigrations } from "../db/migrations/mod.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { eventRow } from "./support/event_row.ts";

async function tempStore() {
  const dir = await Deno.makeTempDir({ prefix: "paystead-db-" });
  const url = `file:${dir}/env.db`;
  const store = await openStore<EnvironmentSchema>(url);
  await migrate(store, environmentMigrations);
  return {
    dir,
    url,
    store,
    async close() {
      await store.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function countEvents(store: Awaited<ReturnType<typeof tempStore>>["store"]): Promise<number> {
  const row = await store.db.selectFrom("events").select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

Deno.test("[db] a file database runs in WAL mode with foreign keys on", async () => {
  const t = await tempStore();
  try {
    const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(t.store.db);
    assert.equal(mode.rows[0].journal_mode, "wal");
    const fk = await t.store.write((trx) =>
      sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(trx)
    );
    assert.equal(fk.rows[0].foreign_keys, 1);
    await assert.rejects(
      t.store.write((trx) =>
        trx.insertInto("payments").values({
          public_id: "pay_x",
          org_id: 1,
          offer_id: 999,
          status: "PENDING",
          amount: 1,
          currency: "PLN",
          quantity: 1,
          amount_refunded: 0,
          customer_email: null,
          customer_name: null,
          success_url: null,
          cancel_url: null,
          failure_code: null,
          metadata: "{}",
          expires_at: 1,
          processing_deadline_at: null,
          created_at: 1,
          updated_at: 1,
        }).execute()
      ),
      /FOREIGN KEY/,
    );
  } finally {
    await t.close();
  }
});

Deno.test("[db] the read handle cannot write", async () => {
  const t = await tempStore();
  try {
    await assert.rejects(
      t.store.db.insertInto("events").values(eventRow("evt_a")).execute(),
      /readonly/,
    );
    assert.equal(await countEvents(t.store), 0);
  } finally {
    await t.close();
  }
});

Deno.test("[db] a commit probe reads inside each batch and is heard once it is durable", async () => {
  const t = await tempStore();
  try {
    const heard: (number | null)[] = [];
    let statement = "SELECT COUNT(*) AS n FROM events";
    t.store.onCommitProbe({
      statement: () => ({ sql: statement, args: [] }),
      listener: (result) => heard.push(result === null ? null : Number(result.rows[0].n)),
    });
    await Promise.all(
      ["evt_a", "evt_b", "evt_c"].map((id) =>
        t.store.write((trx) => trx.insertInto("events").values(eventRow(id)).execute())
      ),
    );
    // Writes made in one turn of the event loop share one batch, whose probe saw all three.
    assert.deepEqual(heard, [3]);

    statement = "SELECT no_such_column FROM events";
    await t.store.write((trx) => trx.insertInto("events").values(eventRow("evt_d")).execute());
    assert.deepEqual(heard, [3, null], "a failed probe is heard as null; the write commits");
    assert.equal(await countEvents(t.store), 4);
  } finally {
    await t.close();
  }
});

Deno.test("[db] concurrent writes share commits but fail alone", async () => {
  const t = await tempStore();
  try {
    const commits: number[] = [];
    t.store.onCommit(() => commits.push(1));
    const results = await Promise.allSettled(
      Array.from({ length: 300 }, (_, i) =>
        t.store.write(async (trx) => {
          await trx.insertInto("events").values(eventRow(`evt_${i}`)).execute();
          if (i % 10 === 3) throw new Error(`write ${i} fails`);
          return i;
        })),
    );
    const failed = results.filter((result) => result.status === "rejected");
    assert.equal(failed.length, 30);
    assert.equal((failed[0] as PromiseRejectedResult).reason.message, "write 3 fails");
    assert.deepEqual(
      results.filter((result) => result.status === "fulfilled").slice(0, 3).map((r) =>
        (r as PromiseFulfilledResult<number>).value
      ),
      [0, 1, 2],
    );
    assert.equal(await countEvents(t.store), 270);
    // Grouping: far fewer commits than writes.
    assert.ok(commits.length < 300 / 4, `${commits.length} commits for 300 writes`);
  } finally {
    await t.close();
  }
});

Deno.test("[db] a lone failing write leaves nothing behind", async () => {
  const t = await tempStore();
  try {
    await assert.rejects(
      t.store.write(async (trx) => {
        await trx.insertInto("events").values(eventRow("evt_lone")).execute();
        await trx.insertInto("events").values(eventRow("evt_lone")).execute();
      }),
      /UNIQUE/,
    );
    assert.equal(await countEvents(t.store), 0);
    assert.equal(
      await t.store.write(() => Promise.resolve("next write works")),
      "next write works",
    );
  } finally {
    await t.close();
  }
});

Deno.test("[db] a transaction handle cannot be used after its write", async () => {
  const t = await tempStore();
  try {
    let leaked: Parameters<Parameters<typeof t.store.write>[0]>[0] | undefined;
    await t.store.write((trx) => {
      leaked = trx;
      return Promise.resolve();
    });
    await assert.rejects(
      leaked!.insertInto("events").values(eventRow("evt_late")).execute(),
      /This transaction has ended/,
    );
  } finally {
    await t.close();
  }
});

Deno.test("[db] migrations apply once and refuse a database from a newer version", async () => {
  const t = await tempStore();
  try {
    assert.deepEqual(await migrate(t.store, environmentMigrations), []);
    await t.store.write((trx) =>
      sql`INSERT INTO schema_migrations (name, applied_at) VALUES ('9999_future', 1)`.execute(trx)
    );
    await assert.rejects(
      migrate(t.store, environmentMigrations),
      /has migrations this version does not know \(9999_future\); it was upgraded by a newer Paystead/,
    );
  } finally {
    await t.close();
  }
});

Deno.test("[db] a backup is a consistent copy taken while writes continue", async () => {
  const t = await tempStore();
  try {
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        // libSQL file calls resolve without I/O; yield so the backup's timer can fire.
        await new Promise((resolve) => setTimeout(resolve, 0));
        const n = written++;
        await t.store.write(async (trx) => {
          await trx.insertInto("events").values(eventRow(`evt_a${n}`)).execute();
          await trx.insertInto("events").values(eventRow(`evt_b${n}`)).execute();
        });
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const out = `${t.dir}/backup.db`;
    await backupDatabase(t.url, out);
    writing = false;
    await writer;

    const copy = await openStore<EnvironmentSchema>(`file:${out}`);
    try {
      const rows = await copy.db.selectFrom("events").select("public_id").execute();
      // Both rows of each write or neither: the copy is one snapshot.
      assert.equal(rows.length % 2, 0);
      assert.ok(rows.length > 0);
      await assert.rejects(backupDatabase(t.url, out), /already exists; choose a new file name/);
    } finally {
      await copy.close();
    }
    await assert.rejects(
      backupDatabase("http://127.0.0.1:1", out + "2"),
      /Backups are made of file databases/,
    );
  } finally {
    await t.close();
  }
});
