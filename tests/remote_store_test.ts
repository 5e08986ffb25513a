import assert from "node:assert/strict";
import { migrate, openStore, type Store } from "../db/client.ts";
import { environmentMigrations } from "../db/migrations/mod.ts";
import { hranaEndpoint, RemoteConnection } from "../db/remote_connection.ts";
import { RemoteReader } from "../db/remote_reader.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
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

remoteTest("reads see every commit and survive a server restart", async (server, url, dir) => {
  const store = await openStore<EnvironmentSchema>(url);
  try {
    await migrate(store, environmentMigrations);
    const count = async () =>
      (await store.db.selectFrom("events").select((e) => e.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()).n;
    for (let i = 1; i <= 3; i++) {
      await store.writeStatements([insertEvent(`evt_${i}`)]);
      assert.equal(await count(), i);
    }
    const port = Number(new URL(server.url).port);
    await server.stop();
    const restarted = await startSqld(dir, port);
    try {
      assert.equal(await count(), 3, "the read reconnects instead of failing");
    } finally {
      await restarted.stop();
    }
  } finally {
    await store.close();
  }
});

remoteTest("declared writes carry the commit probes in their one request", async (_server, url) => {
  const store = await openStore<EnvironmentSchema>(url);
  try {
    await migrate(store, environmentMigrations);
    const heard = countEventsAtEachCommit(store);
    await Promise.all(
      ["evt_1", "evt_2", "evt_3"].map((id) => store.writeStatements([insertEvent(id)])),
    );
    // An interactive transaction reads nothing for its listeners: they read for themselves.
    await store.write((trx) => trx.insertInto("events").values(eventRow("evt_4")).execute());
    // The first write went alone; the two that waited for it shared the next request, whose
    // probe saw all three.
    assert.deepEqual(heard, [1, 3, null]);
  } finally {
    await store.close();
  }
});

remoteTest(
  "a failing write fails alone, and its neighbours still carry the probes",
  async (_server, url) => {
    const store = await openStore<EnvironmentSchema>(url);
    try {
      await migrate(store, environmentMigrations);
      const heard = countEventsAtEachCommit(store);
      await store.writeStatements([insertEvent("evt_1")]);
      // The first goes alone; the three that wait for it share the next request, which fails.
      const results = await Promise.allSettled(
        ["evt_2", "evt_1", "evt_3", "evt_4"].map((id) => store.writeStatements([insertEvent(id)])),
      );
      assert.deepEqual(
        results.map((result) => result.status),
        ["fulfilled", "rejected", "fulfilled", "fulfilled"],
      );
      assert.match(String((results[1] as PromiseRejectedResult).reason), /UNIQUE/);
      const rows = await store.db.selectFrom("events").select("public_id").orderBy("id").execute();
      assert.deepEqual(rows.map((row) => row.public_id), ["evt_1", "evt_2", "evt_3", "evt_4"]);
      // The shared request failed as a whole; each write was then sent alone, without the probes.
      assert.deepEqual(heard, [1, 2, null, null]);
    } finally {
      await store.close();
    }
  },
);

remoteTest(
  "a transaction that fails rolls back, and the next one commits on the same connection",
  async (_server, url) => {
    const store = await openStore<EnvironmentSchema>(url);
    try {
      await migrate(store, environmentMigrations);
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
      const rows = await store.db.selectFrom("events").select("public_id").orderBy("id").execute();
      assert.deepEqual(rows.map((row) => row.public_id), ["evt_2", "evt_3"]);
    } finally {
      await store.close();
    }
  },
);

remoteTest(
  "writes fail while the server is down and go through once it is back",
  async (server, url, dir) => {
    const store = await openStore<EnvironmentSchema>(url);
    try {
      await migrate(store, environmentMigrations);
      const port = Number(new URL(server.url).port);
      await server.stop();
      await assert.rejects(store.writeStatements([insertEvent("evt_1")]));
      await assert.rejects(
        store.write((trx) => trx.insertInto("events").values(eventRow("evt_2")).execute()),
      );
      const restarted = await startSqld(dir, port);
      try {
        await store.writeStatements([insertEvent("evt_3")]);
        await store.write((trx) => trx.insertInto("events").values(eventRow("evt_4")).execute());
        const rows = await store.db.selectFrom("events").select("public_id").orderBy("id")
          .execute();
        assert.deepEqual(rows.map((row) => row.public_id), ["evt_3", "evt_4"]);
      } finally {
        await restarted.stop();
      }
    } finally {
      await store.close();
    }
  },
);
