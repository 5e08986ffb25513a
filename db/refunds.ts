import { type Kysely, sql, type Updateable } from "kysely";
import { clockOffsetOf } from "./sandbox_clocks.ts";
import { nextVersion } from "./versions.ts";
import type { EnvironmentSchema, NewRefund, RefundRow, RefundsTable } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** A refund row with its payment's public id (`paymentId`). */
export type RefundRecord = RefundRow & { payment_public_id: string };

/**
 * A refund as the provider is asked about it: with its organisation's clock offset and the
 * attempt whose money it gives back (its own, or else the one that decided the payment).
 */
export type ClaimedRefund = RefundRecord & {
  clock_offset: number;
  attempt_public_id: string | null;
  attempt_provider_ref: string | null;
  attempt_provider: string | null;
};

function selectClaimedRefunds(db: Db) {
  return selectRefunds(db)
    .leftJoin(
      "payment_attempts",
      (join) =>
        join.on(
          sql<boolean>`payment_attempts.id = coalesce(refunds.attempt_id, payments.attempt_id)`,
        ),
    )
    .select(clockOffsetOf("refunds.org_id").as("clock_offset"))
    .select([
      "payment_attempts.public_id as attempt_public_id",
      "payment_attempts.provider_ref as attempt_provider_ref",
      "payment_attempts.provider as attempt_provider",
    ]);
}

function selectRefunds(db: Db) {
  return db.selectFrom("refunds")
    .innerJoin("payments", "payments.id", "refunds.payment_id")
    .selectAll("refunds")
    .select("payments.public_id as payment_public_id");
}

/** Inserts a refund. */
export function insertRefund(db: Db, values: NewRefund): Promise<RefundRow> {
  return db.insertInto("refunds").values(values).returningAll().executeTakeFirstOrThrow();
}

/** Finds an organisation's refund by its public id. */
export function findRefund(
  db: Db,
  orgId: number,
  publicId: string,
): Promise<RefundRecord | undefined> {
  return selectRefunds(db).where("refunds.org_id", "=", orgId)
    .where("refunds.public_id", "=", publicId).executeTakeFirst();
}

/** Lists a payment's refunds newest first. */
export function listRefundsOfPayment(
  db: Db,
  paymentId: number,
  filter: { beforeId?: number; limit: number },
): Promise<RefundRecord[]> {
  let query = selectRefunds(db).where("refunds.payment_id", "=", paymentId);
  if (filter.beforeId !== undefined) query = query.where("refunds.id", "<", filter.beforeId);
  return query.orderBy("refunds.id", "desc").limit(filter.limit).execute();
}

/**
 * Adds `amount` to a succeeded payment's `amount_refunded` only if the total stays within the
 * payment's amount. Returns false (and changes nothing) otherwise.
 */
export async function reservePaymentRefund(
  db: Db,
  paymentId: number,
  amount: number,
  now: number,
): Promise<boolean> {
  const row = await db.updateTable("payments")
    .set({
      amount_refunded: sql`amount_refunded + ${amount}`,
      updated_at: now,
      version: nextVersion,
    })
    .where("id", "=", paymentId)
    .where("status", "=", "SUCCEEDED")
    .where(sql<boolean>`amount_refunded + ${amount} <= amount`)
    .returning("id").executeTakeFirst();
  return row !== undefined;
}

/** Gives a failed refund's `amount` back to its payment's refundable rest. */
export async function releasePaymentRefund(
  db: Db,
  paymentId: number,
  amount: number,
  now: number,
): Promise<void> {
  await db.updateTable("payments")
    .set({
      amount_refunded: sql`amount_refunded - ${amount}`,
      updated_at: now,
      version: nextVersion,
    })
    .where("id", "=", paymentId).executeTakeFirstOrThrow();
}

/**
 * Claims up to `limit` pending refunds whose lease ran out (or that were never claimed) until
 * `leaseUntil`, and returns them. Run inside a write transaction, so two processes never claim
 * the same refund at once.
 */
export async function claimPendingRefunds(
  db: Db,
  now: number,
  leaseUntil: number,
  limit: number,
): Promise<ClaimedRefund[]> {
  const due = await db.selectFrom("refunds").select("id")
    .where("status", "=", "PENDING").where("locked_until", "<=", now)
    .orderBy("locked_until").limit(limit).execute();
  if (due.length === 0) return [];
  const ids = due.map((row) => row.id);
  await db.updateTable("refunds").set({ locked_until: leaseUntil })
    .where("id", "in", ids).where("status", "=", "PENDING").where("locked_until", "<=", now)
    .execute();
  return await selectClaimedRefunds(db)
    .where("refunds.id", "in", ids).where("refunds.locked_until", "=", leaseUntil)
    .orderBy("refunds.id").execute();
}

/**
 * Moves a refund from `from` to `to` only if it is still in `from` (compare-and-set). Returns
 * the updated row, or undefined if another process got there first.
 */
export function transitionRefund(
  db: Db,
  id: number,
  from: string,
  to: string,
  changes: Updateable<RefundsTable>,
): Promise<RefundRow | undefined> {
  return db.updateTable("refunds").set({ ...changes, status: to, version: nextVersion })
    .where("id", "=", id).where("status", "=", from)
    .returningAll().executeTakeFirst();
}

/** When the earliest pending refund may be claimed (system time), or null if none is pending. */
export async function nextPendingRefundAt(db: Db): Promise<number | null> {
  const row = await db.selectFrom("refunds").where("status", "=", "PENDING")
    .select((eb) => eb.fn.min<number>("locked_until").as("at")).executeTakeFirst();
  return typeof row?.at === "number" ? row.at : null;
}

/** A refund by its public id (the provider's external refund id) or the provider's own id. */
export function findRefundForProvider(
  db: Db,
  key: { publicId: string } | { reference: string },
): Promise<ClaimedRefund | undefined> {
  const query = selectClaimedRefunds(db);
  return ("publicId" in key
    ? query.where("refunds.public_id", "=", key.publicId)
    : query.where("refunds.provider_ref", "=", key.reference)).executeTakeFirst();
}

/**
 * Records the provider's id of a pending refund and when to ask about it next; nothing when the
 * refund already ended.
 */
export async function setPendingRefundReference(
  db: Db,
  id: number,
  reference: string | null,
  nextCheckAt: number,
): Promise<void> {
  await db.updateTable("refunds")
    .set({ provider_ref: reference, locked_until: nextCheckAt })
    .where("id", "=", id).where("status", "=", "PENDING").execute();
}
