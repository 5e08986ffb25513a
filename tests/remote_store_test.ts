import assert from "node:assert/strict";
import { sql } from "kysely";
import { databaseName, migrate, openStore, type Store } from "../db/client.ts";
import { environmentMigrations } from "../db/migrations/mod.ts";
import type { MergeableWrite } from "../db/mergeable_write.ts";
import { hranaEndpoint, RemoteConnection } from "../db/remote_connection.ts";
import { RemoteReader } from "../db/remote_reader.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { StorageHealth, StorageUnavailableError } from "../db/storage_health.ts";
import { eventRow } from "./support/event_row.ts";
import { type SqldServer, startSqld, withSqld } from "./support/sqld.ts";

/** Runs `fn` against a fresh sqld, over WebSocket and over HTTP. */
function remoteTest(
  name: string,
  fn: (server: SqldServer, url: string, dir: string) => Promise<void>,
) {
  for (const scheme of ["ws", "http"]) {
    Deno.test({
      name: `[remote] ${name} (${scheme})`,
      sanitizeResources: false,
      sanitizeOps: false,
      fn: () =>
        withSqld((server, dir) => fn(server, server.url.replace("http:", `${scheme}:`), dir)),
    });
  }
}

Deno.test("[remote] server URLs are read as @libsql/client reads them", () => {
  assert.deepEqual(hranaEndpoint("libsql://db.example.com?authToken=abc"), {
    url: "wss://db.example.com/",
    authToken: "abc",
  });
  assert.deepEqual(hranaEndpoint("libsql://127.0.0.1:8080?tls=0"), {
    url: "ws://127.0.0.1:8080/",
    authToken: undefined,
  });
  assert.deepEqual(hranaEndpoint("http://127.0.0.1:8080"), {
    url: "http://127.0.0.1:8080/",
    authToken: undefined,
  });
});

remoteTest("reads take turns on streams kept open", async (_server, url) => {
  const connection = new RemoteConnection(url);
  const reader = new RemoteReader(connection);
  try {
    // last_insert_rowid() belongs to the connection behind one stream: it shows on that stream's
    // turns only, so no statement opened a stream of its own.
    await reader.execute({ sql: "CREATE TABLE marks (n INTEGER)", args: [] });
    await reader.execute({ sql: "INSERT INTO marks VALUES (7)", args: [] });
    const seen: unknown[] = [];
    for (let i = 0; i < 8; i++) {
      const { rows } = await reader.execute({ sql: "SELECT last_insert_rowid() AS id", args: [] });
      seen.push(rows[0].id);
    }
    assert.deepEqual(seen, [0, 0, 0, 1, 0, 0, 0, 1]);
  } finally {
    connection.close();
  }
});

remoteTest(
  "reads asked for together go in one request, each failing on its own",
  async (_server, url) => {
    const connection = new RemoteConnection(url);
    const reader = new RemoteReader(connection);
    const lastRowid = { sql: "SELECT last_insert_rowid() AS id", args: [] };
    try {
      await reader.execute({ sql: "CREATE TABLE marks (n INTEGER)", args: [] });
      // The insert's turn is the second stream's; only reads on that stream see its rowid.
      await reader.execute({ sql: "INSERT INTO marks VALUES (7)", args: [] });
      const together = await Promise.all(
        Array.from({ length: 4 }, () => reader.execute(lastRowid)),
      );
      // All four went on the third stream, in one turn: the next turns are the fourth, the first
      // and the second stream's.
      assert.deepEqual(together.map(({ rows }) => rows[0].id), [0, 0, 0, 0]);
      const after = [];
      for (let i = 0; i < 3; i++) after.push((await reader.execute(lastRowid)).rows[0].id);
      assert.deepEqual(after, [0, 0, 1]);
      const settled = await Promise.allSettled([
        reader.execute({ sql: "SELECT n FROM marks", args: [] }),
        reader.execute({ sql: "SELECT n FROM no_such_table", args: [] }),
        reader.execute({ sql: "SELECT n + 1 AS n FROM marks", args: [] }),
      ]);
      assert.deepEqual(settled.map((result) => result.status), [
        "fulfilled",
        "rejected",
        "fulfilled",
      ]);
      assert.match(String((settled[1] as PromiseRejectedResult).reason), /no_such_table/);
      assert.deepEqual(
        settled.map((result) => result.status === "fulfilled" ? result.value.rows[0].n : null),
        [7, null, 8],
      );
    } finally {
      connection.close();
    }
  },
);

/** As remoteTest, with a store on that server, migrated, closed after `fn`. */
function remoteStoreTest(
  name: string,
  fn: (store: Store<EnvironmentSchema>, server: SqldServer, dir: string) => Promise<void>,
) {
  remoteTest(name, async (server, url, dir) => {
    const store = await openStore<EnvironmentSchema>(`${url}?authToken=not-a-real-token`);
    try {
      await migrate(store, environmentMigrations);
      await fn(store, server, dir);
    } finally {
      await store.close();
    }
  });
}

/** The events' public ids, in the order they were written. */
async function eventIds(store: Store<EnvironmentSchema>): Promise<string[]> {
  const rows = await store.db.selectFrom("events").select("public_id").orderBy("id").execute();
  return rows.map((row) => row.public_id);
}

/** Restarts the stopped `server` on its port and data, runs `fn`, and stops it again. */
async function withRestarted(
  server: SqldServer,
  dir: string,
  fn: () => Promise<void>,
): Promise<void> {
  const restarted = await startSqld(dir, Number(new URL(server.url).port));
  try {
    await fn();
  } finally {
    await restarted.stop();
  }
}

const insertEvent = (id: string) => ({
  sql: "INSERT INTO events (public_id, org_id, type, payload, created_at) VALUES (?, 1, ?, ?, 1)",
  args: [id, "payment.created", "{}"],
});

/** The event counts a commit probe hears at each commit, in order (null: it was not run). */
function countEventsAtEachCommit(store: Store<EnvironmentSchema>): (number | null)[] {
  const heard: (number | null)[] = [];
  store.onCommitProbe({
    statement: () => ({ sql: "SELECT COUNT(*) AS n FROM events", args: [] }),
    listener: (result) => heard.push(result === null ? null : Number(result.rows[0].n)),
  });
  return heard;
}

remoteStoreTest("concurrent reads through the query builder share one request", async (store) => {
  await sql`CREATE TABLE marks (n INTEGER)`.execute(store.db);
  // The insert's turn's stream alone sees its rowid.
  await sql`INSERT INTO marks VALUES (7)`.execute(store.db);
  const reads = await Promise.all(
    Array.from(
      { length: 4 },
      () => sql<{ id: number }>`SELECT last_insert_rowid() AS id`.execute(store.db),
    ),
  );
  // Four turns one after the other would have come back to that stream; one turn did not.
  assert.deepEqual(reads.map(({ rows }) => rows[0].id), [0, 0, 0, 0]);
});

remoteStoreTest(
  "reads see every commit and survive a server restart",
  async (store, server, dir) => {
    const count = async () =>
      (await store.db.selectFrom("events").select((e) => e.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()).n;
    for (let i = 1; i <= 3; i++) {
      await store.writeStatements([insertEvent(`evt_${i}`)]);
      assert.equal(await count(), i);
    }
    await server.stop();
    await withRestarted(server, dir, async () => {
      assert.equal(await count(), 3, "the read reconnects instead of failing");
    });
  },
);

remoteStoreTest("declared writes carry the commit probes in their one request", async (store) => {
  const heard = countEventsAtEachCommit(store);
  await Promise.all(
    ["evt_1", "evt_2", "evt_3"].map((id) => store.writeStatements([insertEvent(id)])),
  );
  // An interactive transaction reads nothing for its listeners: they read for themselves.
  await store.write((trx) => trx.insertInto("events").values(eventRow("evt_4")).execute());
  // The three asked for together shared one request, whose probe saw all three.
  assert.deepEqual(heard, [3, null]);
});

remoteStoreTest(
  "after a shared request the next waits a moment for more writes; a lone writer never waits",
  async (store) => {
    const heard = countEventsAtEachCommit(store);
    const oneApart = async (first: string, second: string) => {
      const written = store.writeStatements([insertEvent(first)]);
      // A timer fires after the turn the writer takes before a request.
      await new Promise((resolve) => setTimeout(resolve, 1));
      await Promise.all([written, store.writeStatements([insertEvent(second)])]);
    };
    await store.writeStatements([insertEvent("evt_1")]);
    // Alone before, so evt_2 goes at once, and evt_3 a millisecond later in a request of its own.
    await oneApart("evt_2", "evt_3");
    await Promise.all(["evt_4", "evt_5"].map((id) => store.writeStatements([insertEvent(id)])));
    // The last request was shared, so evt_6 waits, and evt_7 joins it.
    await oneApart("evt_6", "evt_7");
    assert.deepEqual(heard, [1, 2, 3, 5, 7]);
    assert.deepEqual(await eventIds(store), [
      "evt_1",
      "evt_2",
      "evt_3",
      "evt_4",
      "evt_5",
      "evt_6",
      "evt_7",
    ]);
  },
);

remoteStoreTest(
  "a failing write fails alone, and its neighbours still carry the probes",
  async (store) => {
    const heard = countEventsAtEachCommit(store);
    await store.writeStatements([insertEvent("evt_1")]);
    // The four share one request, which fails.
    const results = await Promise.allSettled(
      ["evt_2", "evt_1", "evt_3", "evt_4"].map((id) => store.writeStatements([insertEvent(id)])),
    );
    assert.deepEqual(
      results.map((result) => result.status),
      ["fulfilled", "rejected", "fulfilled", "fulfilled"],
    );
    assert.match(String((results[1] as PromiseRejectedResult).reason), /UNIQUE/);
    assert.deepEqual(await eventIds(store), ["evt_1", "evt_2", "evt_3", "evt_4"]);
    // The shared request failed as a whole; each write was then sent alone, without the probes.
    assert.deepEqual(heard, [1, null, null, null]);
  },
);

/**
 * A mergeable write of events named `[id, group]`: several share one multi-row INSERT, except two
 * of one group. Records the inputs of each statements() call.
 */
function mergeableEvents(calls: string[][]): MergeableWrite<[string, string], number> {
  return {
    statements(inputs) {
      calls.push(inputs.map(([id]) => id));
      return [{
        sql: `INSERT INTO events (public_id, org_id, type, payload, created_at) VALUES ${
          inputs.map(() => "(?, 1, 'payment.created', '{}', 1)").join(", ")
        } RETURNING id, public_id`,
        args: inputs.map(([id]) => id),
      }];
    },
    results: (inputs, [inserted]) =>
      inputs.map(([id]) => Number(inserted.rows.find((row) => row.public_id === id)!.id)),
    conflict: ([, group]) => group,
  };
}

remoteStoreTest(
  "mergeable writes waiting together share statements, in turns where they conflict",
  async (store) => {
    const calls: string[][] = [];
    const kind = mergeableEvents(calls);
    const heard = countEventsAtEachCommit(store);
    const ids = await Promise.all([
      store.writeMergeable(kind, ["evt_1", "a"]),
      store.writeMergeable(kind, ["evt_2", "a"]),
      store.writeStatements([insertEvent("evt_3")]),
      store.writeMergeable(kind, ["evt_4", "a"]),
      store.writeMergeable(kind, ["evt_5", "b"]),
    ]);
    // All five shared one request: evt_1 and evt_5 one statement, evt_2 (group a again) a second
    // turn after them, the plain write its own, evt_4 (group a a third time) a third turn.
    assert.deepEqual(calls, [["evt_1", "evt_5"], ["evt_2"], ["evt_4"]]);
    assert.deepEqual(await eventIds(store), ["evt_1", "evt_5", "evt_2", "evt_3", "evt_4"]);
    assert.deepEqual([ids[0], ids[1], ids[3], ids[4]], [1, 3, 5, 2]);
    assert.deepEqual(heard, [5]);
  },
);

remoteStoreTest("a merged write that fails fails alone", async (store) => {
  const calls: string[][] = [];
  const kind = mergeableEvents(calls);
  await store.writeMergeable(kind, ["evt_1", "a"]);
  const results = await Promise.allSettled(
    ["evt_2", "evt_3", "evt_1", "evt_4"].map((id) => store.writeMergeable(kind, [id, id])),
  );
  assert.deepEqual(
    results.map((result) => result.status),
    ["fulfilled", "fulfilled", "rejected", "fulfilled"],
  );
  assert.match(String((results[2] as PromiseRejectedResult).reason), /UNIQUE/);
  // The first went alone; the shared statement of the rest failed as a whole, and each of them
  // was then sent alone.
  assert.deepEqual(calls, [
    ["evt_1"],
    ["evt_2", "evt_3", "evt_1", "evt_4"],
    ["evt_2"],
    ["evt_3"],
    ["evt_1"],
    ["evt_4"],
  ]);
  assert.deepEqual(await eventIds(store), ["evt_1", "evt_2", "evt_3", "evt_4"]);
});

remoteStoreTest(
  "a transaction that fails rolls back, and the next one commits on the same connection",
  async (store) => {
    await assert.rejects(
      store.write(async (trx) => {
        await trx.insertInto("events").values(eventRow("evt_1")).execute();
        await trx.insertInto("events").values(eventRow("evt_1")).execute();
      }),
      /UNIQUE/,
    );
    // Concurrent transactions share one commit, one after the other on the kept stream.
    await Promise.all(
      ["evt_2", "evt_3"].map((id) =>
        store.write((trx) => trx.insertInto("events").values(eventRow(id)).execute())
      ),
    );
    assert.deepEqual(await eventIds(store), ["evt_2", "evt_3"]);
  },
);

/** Asserts that `promise` fails as storage that cannot be reached, naming no credentials. */
async function assertUnavailable(promise: Promise<unknown>): Promise<void> {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof StorageUnavailableError, String(error));
    assert.doesNotMatch(error.message, /authToken|not-a-real-token/);
    return true;
  });
}

remoteStoreTest(
  "writes fail while the server is down and go through once it is back",
  async (store, server, dir) => {
    await server.stop();
    await assertUnavailable(store.writeStatements([insertEvent("evt_1")]));
    await assertUnavailable(
      store.write((trx) => trx.insertInto("events").values(eventRow("evt_2")).execute()),
    );
    await assertUnavailable(store.db.selectFrom("events").selectAll().execute());
    assert.equal(store.writable, false);
    await withRestarted(server, dir, async () => {
      await store.writeStatements([insertEvent("evt_3")]);
      await store.write((trx) => trx.insertInto("events").values(eventRow("evt_4")).execute());
      assert.deepEqual(await eventIds(store), ["evt_3", "evt_4"]);
      assert.equal(store.writable, true);
    });
  },
);

remoteStoreTest(
  "a read that cannot reach the server marks the storage unavailable, with no write tried",
  async (store, server, dir) => {
    await server.stop();
    await assertUnavailable(store.db.selectFrom("events").selectAll().execute());
    assert.equal(store.writable, false);
    await withRestarted(server, dir, async () => {
      await store.writeStatements([insertEvent("evt_1")]);
      assert.equal(store.writable, true);
      assert.deepEqual(await eventIds(store), ["evt_1"]);
    });
  },
);

Deno.test("[remote] a server is named in messages without its credentials", () => {
  assert.equal(
    databaseName("libsql://db.example.com/?authToken=not-a-real-token&tls=1"),
    "libsql://db.example.com/",
  );
  assert.equal(databaseName("http://user:pw@127.0.0.1:8080/db"), "http://127.0.0.1:8080/db");
  assert.equal(
    databaseName("file:/var/lib/paystead/production.db"),
    "file:/var/lib/paystead/production.db",
  );
});

remoteStoreTest(
  "writes racing right after the server came back succeed or are unavailable storage, never errors",
  async (store, server, dir) => {
    for (let i = 0; i < 20; i++) await store.writeStatements([insertEvent(`evt_a${i}`)]);
    await server.stop();
    await withRestarted(server, dir, async () => {
      const results = await Promise.allSettled(
        Array.from(
          { length: 40 },
          (_, i) =>
            i % 2
              ? store.writeStatements([insertEvent(`evt_b${i}`)])
              : store.write((trx) =>
                trx.insertInto("events").values(eventRow(`evt_c${i}`)).execute()
              ),
        ),
      );
      const failures = results.flatMap((result) =>
        result.status === "rejected" && !(result.reason instanceof StorageUnavailableError)
          ? [String(result.reason)]
          : []
      );
      assert.deepEqual(failures, []);
      await store.writeStatements([insertEvent("evt_after")]);
      assert.equal(store.writable, true);
    });
  },
);

Deno.test('[remote] "database is locked" from a libSQL server or from SQLite is unavailable storage', () => {
  const health = new StorageHealth("libsql://db.example");
  const busy = [
    Object.assign(new Error("SQLITE_BUSY: database is locked"), { code: "SQLITE_BUSY" }),
    Object.assign(new Error("database is locked"), { code: "ERR_SQLITE_ERROR", errcode: 5 }),
    Object.assign(new Error("database table is locked"), { code: "ERR_SQLITE_ERROR", errcode: 6 }),
  ];
  for (const error of busy) assert.ok(health.classify(error) instanceof StorageUnavailableError);
  const constraint = Object.assign(new Error("UNIQUE constraint failed"), { errcode: 2067 });
  assert.equal(health.classify(constraint), constraint);
});
