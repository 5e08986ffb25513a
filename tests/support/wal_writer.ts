import { sql } from "kysely";
import { openStore } from "../../db/client.ts";

/**
 * A child process for the WAL tests: writes rows of about a page through a store, eight at a
 * time, and prints each row's id once its write is acknowledged, until it is killed.
 */
const store = await openStore(`file:${Deno.args[0]}`);
await store.write((trx) =>
  sql`CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB NOT NULL)`.execute(trx)
);
const encoder = new TextEncoder();
let next = 0;
await Promise.all(Array.from({ length: 8 }, async () => {
  for (;;) {
    const id = ++next;
    await store.write((trx) =>
      sql`INSERT INTO blobs (id, data) VALUES (${id}, randomblob(3000))`.execute(trx)
    );
    Deno.stdout.writeSync(encoder.encode(`${id}\n`));
  }
}));
