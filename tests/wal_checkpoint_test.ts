import assert from "node:assert/strict";
import { sql } from "kysely";
import { migrate, openStore } from "../db/client.ts";
import { LocalSqliteConnection } from "../db/local_sqlite.ts";
import { environmentMigrations } from "../db/migrations/mod.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { WalCheckpointer } from "../db/wal_checkpoint.ts";
import { WalIndex } from "../db/wal_index.ts";
import { eventRow } from "./support/event_row.ts";
import { withSqld } from "./support/sqld.ts";

const MiB = 1024 * 1024;

/** A writer connection as openStore opens it, its WAL's index, on a new file. */
async function walDatabase() {
  const dir = await Deno.makeTempDir({ prefix: "paystead-wal-" });
  const path = `${dir}/wal.db`;
  const writer = new LocalSqliteConnection(path, {
    busyTimeoutMs: 5000,
    readOnly: false,
    syncOnCommit: false,
    checkpointOnCommit: false,
  });
  writer.exec("CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL)");
  const index = new WalIndex(`${path}-shm`);
  return {
    dir,
    path,
    writer,
    index,
    /** Commits `rows` rows of about a page each in one transaction. */
    async insert(rows: number) {
      writer.exec("BEGIN IMMEDIATE");
      for (let i = 0; i < rows; i++) {
        await writer.execute({
          sql: "INSERT INTO blobs (data) VALUES (randomblob(3000))",
          args: [],
        });
      }
      writer.exec("COMMIT");
    },
    async close() {
      writer.close();
      index.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("[wal-checkpoint] the writer never checkpoints at commit; the worker copies the WAL into the database", async () => {
  const t = await walDatabase();
  try {
    const checkpointer = new WalCheckpointer(t.path, t.index, { busyTimeoutMs: 5000 });
    const emptySize = Deno.statSync(t.path).size;
    await t.insert(1200);
    const written = t.index.read()!;
    assert.ok(written.frames >= 1200, `${written.frames} frames`);
    // SQLite's own checkpoint would have run inside that COMMIT, past 1000 frames.
    assert.equal(written.backfilled, 0);
    assert.equal(Deno.statSync(t.path).size, emptySize);

    checkpointer.committed();
    // close() waits for the checkpoint it started.
    await checkpointer.close();
    assert.deepEqual(t.index.read(), { ...written, backfilled: written.frames });
    assert.ok(Deno.statSync(t.path).size >= 1200 * 3000);
  } finally {
    await t.close();
  }
});

Deno.test("[wal-checkpoint] the worker stops once no checkpoint was needed for a while, and starts again for the next", async () => {
  const t = await walDatabase();
  try {
    const checkpointer = new WalCheckpointer(t.path, t.index, {
      busyTimeoutMs: 5000,
      workerIdleMs: 100,
    });
    assert.equal(checkpointer.workerRunning, false);
    await t.insert(1200);
    checkpointer.committed();
    assert.equal(checkpointer.workerRunning, true);
    const until = Date.now() + 5_000;
    while (checkpointer.workerRunning && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(checkpointer.workerRunning, false);
    assert.equal(t.index.read()!.backfilled, t.index.read()!.frames);

    await t.insert(1200);
    const written = t.index.read()!;
    checkpointer.committed();
    await checkpointer.close();
    assert.deepEqual(t.index.read(), { ...written, backfilled: written.frames });
  } finally {
    await t.close();
  }
});

Deno.test("[wal-checkpoint] fewer frames than a checkpoint's worth start no checkpoint", async () => {
  const t = await walDatabase();
  try {
    const checkpointer = new WalCheckpointer(t.path, t.index, { busyTimeoutMs: 5000 });
    await t.insert(500);
    checkpointer.committed();
    assert.equal(checkpointer.beforeBatch(), undefined);
    await checkpointer.close();
    assert.equal(t.index.read()!.backfilled, 0);
  } finally {
    await t.close();
  }
});

Deno.test("[wal-checkpoint] past half its bound every commit starts a checkpoint, however few frames wait", async () => {
  const t = await walDatabase();
  try {
    const checkpointer = new WalCheckpointer(t.path, t.index, {
      busyTimeoutMs: 5000,
      checkpointFrames: 10_000,
      maxWalBytes: 4 * MiB,
    });
    // About 400 frames of 4,120 bytes: 1.6 MiB, under half the bound.
    await t.insert(400);
    checkpointer.committed();
    assert.equal(checkpointer.workerRunning, false);
    // About 600: 2.4 MiB, past it.
    await t.insert(200);
    const written = t.index.read()!;
    checkpointer.committed();
    assert.equal(checkpointer.workerRunning, true);
    await checkpointer.close();
    assert.deepEqual(t.index.read(), { ...written, backfilled: written.frames });
  } finally {
    await t.close();
  }
});

Deno.test("[wal-checkpoint] once a reader held frames back, commits past half the bound wait for a checkpoint's worth again", async () => {
  const t = await walDatabase();
  const reader = new LocalSqliteConnection(t.path, {
    busyTimeoutMs: 5000,
    readOnly: true,
    syncOnCommit: false,
    checkpointOnCommit: false,
  });
  try {
    const checkpointer = new WalCheckpointer(t.path, t.index, {
      busyTimeoutMs: 5000,
      checkpointFrames: 10_000,
      maxWalBytes: 4 * MiB,
    });
    await t.insert(100);
    // A backup's read: the frames written after it began stay in the WAL while it lasts.
    reader.exec("BEGIN");
    await reader.execute({ sql: "SELECT count(*) FROM blobs", args: [] });
    await t.insert(1000);
    checkpointer.committed();
    // 1,100 frames are past the bound too: the hold's catch-up gives up while the reader stays.
    await checkpointer.beforeBatch();
    const pinned = t.index.read()!;
    assert.ok(pinned.backfilled > 0 && pinned.backfilled < pinned.frames, JSON.stringify(pinned));
    reader.exec("COMMIT");

    await t.insert(1);
    checkpointer.committed();
    await checkpointer.close();
    assert.equal(t.index.read()!.backfilled, pinned.backfilled);
  } finally {
    reader.close();
    await t.close();
  }
});

Deno.test("[wal-checkpoint] past its bound the WAL holds the next batch until a checkpoint caught up", async () => {
  const t = await walDatabase();
  try {
    const checkpointer = new WalCheckpointer(t.path, t.index, {
      busyTimeoutMs: 5000,
      checkpointFrames: 10_000,
      maxWalBytes: MiB,
    });
    await t.insert(400);
    checkpointer.committed();
    const hold = checkpointer.beforeBatch();
    assert.ok(hold instanceof Promise);
    // Every batch asking meanwhile waits for the same catch-up.
    assert.equal(checkpointer.beforeBatch(), hold);
    await hold;
    const state = t.index.read()!;
    assert.equal(state.backfilled, state.frames);
    assert.equal(checkpointer.beforeBatch(), undefined);
    // The next commit writes the WAL from its start again.
    const walSize = Deno.statSync(`${t.path}-wal`).size;
    await t.insert(1);
    checkpointer.committed();
    assert.ok(t.index.read()!.frames < 10);
    assert.equal(Deno.statSync(`${t.path}-wal`).size, walSize);
    await checkpointer.close();
  } finally {
    await t.close();
  }
});

Deno.test("[wal-checkpoint] a checkpoint that fails neither throws nor holds writes for good", async () => {
  const t = await walDatabase();
  try {
    // The worker cannot open this path, so every checkpoint fails.
    const checkpointer = new WalCheckpointer(`${t.dir}/missing/wal.db`, t.index, {
      busyTimeoutMs: 5000,
      checkpointFrames: 1,
      maxWalBytes: 1,
    });
    await t.insert(10);
    checkpointer.committed();
    const hold = checkpointer.beforeBatch();
    assert.ok(hold instanceof Promise);
    assert.equal(await hold, undefined);
    // Given up, it holds writes again only once the WAL grew by another checkpoint's worth.
    assert.equal(checkpointer.beforeBatch(), undefined);
    assert.equal(t.index.read()!.backfilled, 0);
    await checkpointer.close();
  } finally {
    await t.close();
  }
});

Deno.test("[wal-checkpoint] sustained writes through a store keep the WAL under its bound", async () => {
  const dir = await Deno.makeTempDir({ prefix: "paystead-wal-" });
  const path = `${dir}/env.db`;
  const store = await openStore<EnvironmentSchema>(`file:${path}`);
  try {
    const autocheckpoint = await store.write((trx) =>
      sql<{ wal_autocheckpoint: number }>`PRAGMA wal_autocheckpoint`.execute(trx)
    );
    assert.deepEqual(autocheckpoint.rows, [{ wal_autocheckpoint: 0 }]);
    await store.write((trx) =>
      sql`CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL)`.execute(trx)
    );
    // 48 MiB of rows, three times the bound, from 16 writers at a time.
    const writers = 16;
    const perWriter = 200;
    let largestWal = 0;
    await Promise.all(Array.from({ length: writers }, async () => {
      for (let i = 0; i < perWriter; i++) {
        await store.write((trx) =>
          sql`INSERT INTO blobs (data) VALUES (randomblob(${16 * 1024}))`.execute(trx)
        );
        largestWal = Math.max(largestWal, Deno.statSync(`${path}-wal`).size);
      }
    }));
    // The bound, plus the two batches of 16 rows that may commit before a hold.
    assert.ok(largestWal > 15 * MiB, `the WAL reached ${largestWal} bytes`);
    assert.ok(largestWal <= 17 * MiB, `the WAL reached ${largestWal} bytes`);
    assert.ok(Deno.statSync(path).size >= 32 * MiB);
    const count = await sql<{ n: number }>`SELECT count(*) AS n FROM blobs`.execute(store.db);
    assert.deepEqual(count.rows, [{ n: writers * perWriter }]);
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[wal-checkpoint] closing a store stops its worker and, as before, leaves no WAL", async () => {
  const dir = await Deno.makeTempDir({ prefix: "paystead-wal-" });
  const url = `file:${dir}/env.db`;
  try {
    const store = await openStore<EnvironmentSchema>(url);
    await store.write((trx) =>
      sql`CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL)`.execute(trx)
    );
    // Past a checkpoint's worth, so a checkpoint may be running as the store closes.
    await store.write((trx) =>
      sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500)
        INSERT INTO blobs (data) SELECT randomblob(3000) FROM n`.execute(trx)
    );
    await store.close();
    assert.deepEqual([...Deno.readDirSync(dir)].map((entry) => entry.name), ["env.db"]);

    const reopened = await openStore<EnvironmentSchema>(url);
    const count = await sql<{ n: number }>`SELECT count(*) AS n FROM blobs`.execute(reopened.db);
    assert.deepEqual(count.rows, [{ n: 1500 }]);
    await reopened.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "[wal-checkpoint] SIGKILL while checkpoints run loses no acknowledged write",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "paystead-wal-" });
    const path = `${dir}/env.db`;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("./support/wal_writer.ts", import.meta.url).pathname, path],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const acknowledged: number[] = [];
    try {
      // 6,000 rows are about 6,000 frames: several checkpoints and one start-over of the WAL.
      let pending = "";
      for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
        const lines = (pending + chunk).split("\n");
        pending = lines.pop()!;
        acknowledged.push(...lines.map(Number));
        // Killed before its output is closed, so it dies of the kill and nothing else.
        if (acknowledged.length >= 6000) {
          child.kill("SIGKILL");
          break;
        }
      }
      assert.equal((await child.status).signal, "SIGKILL");
      // Only checkpoints write the database file: the writer never does.
      assert.ok(Deno.statSync(path).size >= 3000 * 3000);

      const store = await openStore<EnvironmentSchema>(`file:${path}`);
      const rows = await sql<{ id: number }>`SELECT id FROM blobs`.execute(store.db);
      await store.close();
      const stored = new Set(rows.rows.map((row) => row.id));
      assert.deepEqual(acknowledged.filter((id) => !stored.has(id)), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "[wal-checkpoint] a store on a libSQL server writes and closes with no checkpointer",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: () =>
    withSqld(async (server) => {
      const store = await openStore<EnvironmentSchema>(server.url);
      await migrate(store, environmentMigrations);
      await store.write((trx) => trx.insertInto("events").values(eventRow("evt_1")).execute());
      const rows = await store.db.selectFrom("events").select("public_id").execute();
      assert.deepEqual(rows, [{ public_id: "evt_1" }]);
      await store.close();
    }),
});
