import type { Kysely, Updateable } from "kysely";
import type { EnvironmentSchema, NewPayment, PaymentRow, PaymentsTable } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** A payment row with its offer's public id (`qrId`). */
export type PaymentRecord = PaymentRow & { qr_id: string };

function selectPayments(db: Db) {
  return db.selectFrom("payments")
    .innerJoin("offers", "offers.id", "payments.offer_id")
    .selectAll("payments")
    .select("offers.public_id as qr_id");
}

/** Inserts a payment. */
export function insertPayment(db: Db, values: NewPayment): Promise<PaymentRow> {
  return db.insertInto("payments").values(values).returningAll().executeTakeFirstOrThrow();
}

/** Finds an organisation's payment by its public id. */
export function findPayment(
  db: Db,
  orgId: number,
  publicId: string,
): Promise<PaymentRecord | undefined> {
  return selectPayments(db).where("payments.org_id", "=", orgId)
    .where("payments.public_id", "=", publicId).executeTakeFirst();
}

/** Finds a payment by public id in any organisation (the public hosted page). */
export function findPaymentByPublicId(
  db: Db,
  publicId: string,
): Promise<PaymentRecord | undefined> {
  return selectPayments(db).where("payments.public_id", "=", publicId).executeTakeFirst();
}

/** Lists an organisation's payments newest first, with optional filters. */
export function listPayments(
  db: Db,
  orgId: number,
  filter: { status?: string; qrId?: string; beforeId?: number; limit: number },
): Promise<PaymentRecord[]> {
  let query = selectPayments(db).where("payments.org_id", "=", orgId);
  if (filter.status !== undefined) query = query.where("payments.status", "=", filter.status);
  if (filter.qrId !== undefined) query = query.where("offers.public_id", "=", filter.qrId);
  if (filter.beforeId !== undefined) query = query.where("payments.id", "<", filter.beforeId);
  return query.orderBy("payments.id", "desc").limit(filter.limit).execute();
}

/**
 * Moves a payment from `from` to `to` only if it is still in `from` (compare-and-set).
 * Returns the updated row, or undefined if another change got there first.
 */
export function transitionPayment(
  db: Db,
  id: number,
  from: string,
  to: string,
  changes: Updateable<PaymentsTable>,
): Promise<PaymentRow | undefined> {
  return db.updateTable("payments").set({ ...changes, status: to })
    .where("id", "=", id).where("status", "=", from)
    .returningAll().executeTakeFirst();
}

/** Payments still pending at or after their expiry, oldest first. */
export function findExpiredPendingPayments(
  db: Db,
  now: number,
  limit: number,
): Promise<PaymentRecord[]> {
  return selectPayments(db).where("payments.status", "=", "PENDING")
    .where("payments.expires_at", "<=", now).orderBy("payments.expires_at").limit(limit).execute();
}

/** Payments processing past their deadline, oldest first. */
export function findTimedOutPayments(
  db: Db,
  now: number,
  limit: number,
): Promise<PaymentRecord[]> {
  return selectPayments(db).where("payments.status", "=", "PROCESSING")
    .where("payments.processing_deadline_at", "<=", now)
    .orderBy("payments.processing_deadline_at").limit(limit).execute();
}

/** The earliest expiry of a pending payment and the earliest processing deadline. */
export async function nextPaymentDeadline(db: Db): Promise<number | null> {
  const expiry = await db.selectFrom("payments").where("status", "=", "PENDING")
    .select((eb) => eb.fn.min<number>("expires_at").as("at")).executeTakeFirst();
  const deadline = await db.selectFrom("payments").where("status", "=", "PROCESSING")
    .select((eb) => eb.fn.min<number>("processing_deadline_at").as("at")).executeTakeFirst();
  const times = [expiry?.at, deadline?.at].filter((at): at is number => typeof at === "number");
  return times.length === 0 ? null : Math.min(...times);
}
