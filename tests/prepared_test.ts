import assert from "node:assert/strict";
import { CamelCasePlugin, type Generated, type Kysely, sql } from "kysely";
import { openStore } from "../db/client.ts";
import { prepared } from "../db/prepared.ts";

interface Schema {
  items: { id: Generated<number>; name: string; note: string | null; state: string };
}

Deno.test("[prepared] a compiled query runs with each call's parameters, per shape", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "paystead-prepared-" });
  const store = await openStore<Schema>(`file:${dir}/test.db`);
  try {
    await store.write((trx) =>
      sql`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, note TEXT,
        state TEXT NOT NULL DEFAULT 'NEW')`.execute(trx)
    );
    const insert = prepared((db: Kysely<Schema>, p: { name: string; note?: string | null }) =>
      db.insertInto("items").values({ ...p, state: "OPEN" })
    );
    const byName = prepared((db: Kysely<Schema>, p: { name: string }) =>
      db.selectFrom("items").select(["name", "note", "state"]).where("name", "=", p.name)
        .where("state", "=", "OPEN")
    );

    await t.step("the constant the builder adds stays, the parameters change", async () => {
      const first = await store.write((trx) => insert(trx, { name: "a", note: "x" }));
      const second = await store.write((trx) => insert(trx, { name: "b", note: null }));
      assert.equal(first.insertId, 1n);
      assert.equal(second.insertId, 2n);
      assert.deepEqual((await byName(store.db, { name: "b" })).rows, [
        { name: "b", note: null, state: "OPEN" },
      ]);
      assert.deepEqual((await byName(store.db, { name: "a" })).rows, [
        { name: "a", note: "x", state: "OPEN" },
      ]);
    });

    await t.step(
      "a parameter left undefined is another shape: its column is left out",
      async () => {
        await store.write((trx) => insert(trx, { name: "c", note: undefined }));
        assert.deepEqual((await byName(store.db, { name: "c" })).rows, [
          { name: "c", note: null, state: "OPEN" },
        ]);
      },
    );

    await t.step("a builder that drops a parameter is refused", async () => {
      const dropping = prepared((db: Kysely<Schema>, _p: { name: string }) =>
        db.selectFrom("items").selectAll()
      );
      await assert.rejects(
        () => dropping(store.db, { name: "a" }),
        { message: 'A prepared query did not use name: select * from "items"' },
      );
    });

    await t.step(
      "on a Kysely with a plugin it runs through Kysely, so the plugin applies",
      async () => {
        const named = prepared((db: Kysely<Schema>, p: { name: string }) =>
          db.selectFrom("items").select(sql<string>`name`.as("item_name")).where(
            "name",
            "=",
            p.name,
          )
        );
        assert.deepEqual((await named(store.db, { name: "a" })).rows, [{ item_name: "a" }]);
        const camel = store.db.withPlugin(new CamelCasePlugin());
        assert.deepEqual((await named(camel, { name: "a" })).rows, [{ itemName: "a" }]);
      },
    );
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
