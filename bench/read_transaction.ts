/**
 * What a one-row read costs on its own (a read transaction of its own, as a statement outside a
 * transaction gets in WAL mode) against the same read inside a transaction other reads share:
 * the saving db/turn_snapshot.ts makes. A payment table of 50,000 rows read by organisation and
 * public id, with its offer joined, as `GET /payments/{id}` reads it; best of 7 rounds each.
 * `deno run -A bench/read_transaction.ts`
 */
import { DatabaseSync, type StatementSync } from "node:sqlite";

const ROWS = 50_000;
const dir = await Deno.makeTempDir({ prefix: "paystead-read-transaction-" });
const path = `${dir}/bench.db`;
const setup = new DatabaseSync(path);
setup.exec("PRAGMA journal_mode = WAL");
setup.exec("CREATE TABLE offers (id INTEGER PRIMARY KEY, public_id TEXT)");
setup.exec(
  "CREATE TABLE payments (id INTEGER PRIMARY KEY, org_id INTEGER, public_id TEXT, status TEXT, " +
    "amount INTEGER, currency TEXT, metadata TEXT, created_at INTEGER, offer_id INTEGER, " +
    "customer_email TEXT, customer_name TEXT, success_url TEXT)",
);
setup.exec("CREATE UNIQUE INDEX payments_org_public ON payments (org_id, public_id)");
setup.exec("INSERT INTO offers (public_id) VALUES ('qr_bench')");
const insert = setup.prepare(
  "INSERT INTO payments (org_id, public_id, status, amount, currency, metadata, created_at, " +
    "offer_id, customer_email, customer_name, success_url) VALUES (1, ?, 'PENDING', 1000, 'PLN', " +
    "'{}', 1, 1, 'jan@example.pl', 'Jan', 'https://example.pl/done')",
);
setup.exec("BEGIN");
for (let i = 0; i < ROWS; i++) insert.run(publicId(i));
setup.exec("COMMIT");
// A commit the checkpoint has not copied yet: reads look the WAL up, as a server's do.
setup.exec("INSERT INTO offers (public_id) VALUES ('qr_later')");

const reader = new DatabaseSync(path);
reader.exec("PRAGMA query_only = ON");
const read = reader.prepare(
  "SELECT p.public_id, p.status, p.amount, p.currency, p.metadata, p.created_at, " +
    "p.customer_email, p.customer_name, p.success_url, o.public_id AS qr_id FROM payments p " +
    "JOIN offers o ON o.id = p.offer_id WHERE p.org_id = 1 AND p.public_id = ?",
);

function publicId(i: number): string {
  return `pay_${String(i).padStart(24, "0")}`;
}

/** Microseconds per read over ROWS reads in a scattered order. */
function perRead(statement: StatementSync): number {
  const started = performance.now();
  for (let i = 0; i < ROWS; i++) statement.all(publicId(i * 7919 % ROWS));
  return (performance.now() - started) * 1000 / ROWS;
}

// Alternated, so a busy moment of the machine falls on both; the best round of each.
let alone = Infinity;
let shared = Infinity;
for (let round = 0; round < 7; round++) {
  alone = Math.min(alone, perRead(read));
  reader.exec("BEGIN");
  shared = Math.min(shared, perRead(read));
  reader.exec("COMMIT");
}
console.log(
  `one-row read: ${alone.toFixed(2)} µs in its own read transaction, ${
    shared.toFixed(2)
  } µs in a shared one (${(alone - shared).toFixed(2)} µs of locking per read)`,
);
reader.close();
setup.close();
await Deno.remove(dir, { recursive: true });
