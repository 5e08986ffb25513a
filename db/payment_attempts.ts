import { type Insertable, type Kysely, sql, type Updateable } from "kysely";
import { clockOffsetOf } from "./sandbox_clocks.ts";
import type { EnvironmentSchema, PaymentAttemptRow, PaymentAttemptsTable } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

export type { PaymentAttemptRow };

/** An attempt with its payment's public id and its organisation's sandbox clock offset. */
export type AttemptRecord = PaymentAttemptRow & { payment_public_id: string; clock_offset: number };

function selectAttempts(db: Db) {
  return db.selectFrom("payment_attempts")
    .innerJoin("payments", "payments.id", "payment_attempts.payment_id")
    .selectAll("payment_attempts")
    .select("payments.public_id as payment_public_id")
    .select(clockOffsetOf("payment_attempts.org_id").as("clock_offset"));
}

/** Inserts an attempt; throws on a second open attempt of the same payment (unique index). */
export async function insertAttempt(
  db: Db,
  values: Insertable<PaymentAttemptsTable>,
): Promise<PaymentAttemptRow> {
  return await db.insertInto("payment_attempts").values(values).returningAll()
    .executeTakeFirstOrThrow();
}

/** The open attempt of a payment, if one is waiting for the provider. */
export function findOpenAttempt(db: Db, paymentId: number): Promise<PaymentAttemptRow | undefined> {
  return db.selectFrom("payment_attempts").selectAll()
    .where("payment_id", "=", paymentId).where("status", "=", "OPEN").executeTakeFirst();
}

/** Finds an attempt by its public id (the provider's external order id). */
export function findAttemptByPublicId(
  db: Db,
  publicId: string,
): Promise<AttemptRecord | undefined> {
  return selectAttempts(db).where("payment_attempts.public_id", "=", publicId).executeTakeFirst();
}

/** An attempt by its row id. */
export function findAttempt(db: Db, id: number): Promise<PaymentAttemptRow | undefined> {
  return db.selectFrom("payment_attempts").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Updates an attempt only while it is still open; returns the row, or undefined if it is not. */
export function updateOpenAttempt(
  db: Db,
  id: number,
  changes: Updateable<PaymentAttemptsTable>,
): Promise<PaymentAttemptRow | undefined> {
  return db.updateTable("payment_attempts").set(changes)
    .where("id", "=", id).where("status", "=", "OPEN")
    .returningAll().executeTakeFirst();
}

/** Updates an attempt only while it is in `status`; returns the row, or undefined if it is not. */
export function updateAttempt(
  db: Db,
  id: number,
  status: string,
  changes: Updateable<PaymentAttemptsTable>,
): Promise<PaymentAttemptRow | undefined> {
  return db.updateTable("payment_attempts").set(changes)
    .where("id", "=", id).where("status", "=", status)
    .returningAll().executeTakeFirst();
}

/** How many attempts a payment has had. */
export async function countAttempts(db: Db, paymentId: number): Promise<number> {
  const row = await db.selectFrom("payment_attempts").where("payment_id", "=", paymentId)
    .select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** An attempt is asked about while open, and once given up while its provider has not confirmed. */
function watched(db: Db) {
  return db.selectFrom("payment_attempts").where((eb) =>
    eb.or([eb("status", "=", "OPEN"), eb("watch_until", "is not", null)])
  );
}

/**
 * Claims up to `limit` open (or watched) attempts due for a question to the provider, moving their next check
 * to `leaseUntil`, and returns them. Run inside a write transaction, so two processes never ask
 * about the same attempt at once.
 */
export async function claimDueAttempts(
  db: Db,
  now: number,
  leaseUntil: number,
  limit: number,
): Promise<AttemptRecord[]> {
  const due = await watched(db).select("id").where("check_at", "<=", now)
    .orderBy("check_at").limit(limit).execute();
  if (due.length === 0) return [];
  const ids = due.map((row) => row.id);
  await db.updateTable("payment_attempts").set({ check_at: leaseUntil })
    .where("id", "in", ids).where((eb) =>
      eb.or([eb("status", "=", "OPEN"), eb("watch_until", "is not", null)])
    ).where("check_at", "<=", now).execute();
  return await selectAttempts(db)
    .where("payment_attempts.id", "in", ids).where("payment_attempts.check_at", "=", leaseUntil)
    .orderBy("payment_attempts.id").execute();
}

/** Makes every open or watched attempt due at `now`; returns how many waited for a later check. */
export async function makeOpenAttemptsDue(db: Db, now: number): Promise<number> {
  const result = await db.updateTable("payment_attempts").set({ check_at: now })
    .where((eb) => eb.or([eb("status", "=", "OPEN"), eb("watch_until", "is not", null)]))
    .where("check_at", ">", now).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** When the earliest open or watched attempt is due for a check (system time), or null. */
export async function nextAttemptCheckAt(db: Db): Promise<number | null> {
  const row = await watched(db)
    .select((eb) => eb.fn.min<number>("check_at").as("at")).executeTakeFirst();
  return typeof row?.at === "number" ? row.at : null;
}

/**
 * SQL true when the payment in `paymentIdColumn` has no attempt waiting for the provider: only
 * then may the payment (or its checkout session) expire.
 */
export function noOpenAttempt(paymentIdColumn: string) {
  return sql<boolean>`not exists (select 1 from payment_attempts
    where payment_attempts.payment_id = ${sql.ref(paymentIdColumn)}
    and payment_attempts.status = 'OPEN')`;
}

/** A payment's attempts, oldest first. */
export function listAttemptsOfPayment(db: Db, paymentId: number): Promise<PaymentAttemptRow[]> {
  return db.selectFrom("payment_attempts").selectAll().where("payment_id", "=", paymentId)
    .orderBy("id").execute();
}

/**
 * Brings the check of an open attempt forward to `now` unless it is due within `withinMs`;
 * returns whether it was brought forward (the customer is back from the provider's page).
 */
export async function checkAttemptSoon(
  db: Db,
  attemptId: number,
  now: number,
  withinMs: number,
): Promise<boolean> {
  const result = await db.updateTable("payment_attempts").set({ check_at: now })
    .where("id", "=", attemptId).where("status", "=", "OPEN")
    .where("check_at", ">", now + withinMs).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
