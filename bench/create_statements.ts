/**
 * What a create's three statements (`db/payment_create.ts`) cost SQLite in a group-commit batch,
 * each write in a savepoint against none: `deno run -A bench/create_statements.ts`. One node:sqlite
 * connection on a database made by a test app, batches of seven creates, every create under new
 * ids; microseconds per create, rounds alternating.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from "node:sqlite";
import { paymentCreateStatements } from "../db/payment_create.ts";
import type { EventRow, IdempotencyKeyRow, OfferRow, PaymentRow } from "../db/schema.ts";
import { newId } from "../lib/ids.ts";
import { makeTestApp } from "../tests/support/helpers.ts";

const CREATES = Number(Deno.env.get("CREATES") ?? 7_000);
const BATCH = 7;
const ROUNDS = Number(Deno.env.get("ROUNDS") ?? 3);

const app = await makeTestApp({ environment: "production" });
try {
  const offer = await (await app.request("POST", "/api/v1/qr", {
    name: "Bench",
    amount: 1000,
    currency: "PLN",
  })).json();
  const created = await app.request("POST", "/api/v1/payments", { qrId: offer.qrId }, {
    "idempotency-key": "bench-first",
  });
  if (created.status !== 201) throw new Error(`the first create answered ${created.status}`);
  const db = new DatabaseSync(`${app.dataDir}/production.db`);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  const one = <T>(sql: string) => db.prepare(sql).get() as T;
  const payment = one<PaymentRow>("SELECT * FROM payments LIMIT 1");
  const offerRow = one<OfferRow>("SELECT * FROM offers LIMIT 1");
  const event = one<EventRow>("SELECT * FROM events LIMIT 1");
  // The first create completed its key: its stored answer is there.
  const key = one<IdempotencyKeyRow>("SELECT * FROM idempotency_keys LIMIT 1");

  const statementsOfNewCreate = () => {
    const publicId = newId("payment");
    return paymentCreateStatements({
      payment: { ...payment, public_id: publicId },
      offer: offerRow,
      event: { ...event, public_id: newId("event") },
      key: {
        key: crypto.randomUUID(),
        fingerprint: key.fingerprint,
        lockedUntil: key.locked_until,
        status: key.response_status!,
        contentType: key.response_content_type!,
        body: key.response_body!,
        createdAt: key.created_at,
      },
    });
  };
  const prepared = new Map<string, StatementSync>();
  const statement = (sql: string) => {
    let found = prepared.get(sql);
    if (!found) prepared.set(sql, found = db.prepare(sql));
    return found;
  };
  const run = (inSavepoints: boolean) => {
    let elapsed = 0;
    for (let done = 0; done < CREATES; done += BATCH) {
      const creates = Array.from({ length: BATCH }, statementsOfNewCreate);
      const started = performance.now();
      db.exec("BEGIN IMMEDIATE");
      for (const statements of creates) {
        if (inSavepoints) db.exec("SAVEPOINT write_item");
        for (const { sql, args } of statements) {
          statement(sql).run(...(args as SQLInputValue[]));
        }
        if (inSavepoints) db.exec("RELEASE write_item");
      }
      db.exec("COMMIT");
      elapsed += performance.now() - started;
    }
    return (elapsed * 1000) / CREATES;
  };
  console.log(`a create's statements, batches of ${BATCH}, us per create (BEGIN to COMMIT):`);
  for (let round = 1; round <= ROUNDS; round++) {
    const savepoints = run(true);
    const straight = run(false);
    console.log(
      `round ${round}: each write in a savepoint ${savepoints.toFixed(1)}, none ${
        straight.toFixed(1)
      }`,
    );
  }
  db.close();
} finally {
  await app.close();
}
