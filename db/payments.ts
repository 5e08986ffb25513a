import { type Kysely, type RawBuilder, sql, type Updateable } from "kysely";
import { noOpenAttempt } from "./payment_attempts.ts";
import { prepared } from "./prepared.ts";
import { clockOffsetOf, maxClockOffset } from "./sandbox_clocks.ts";
import { nextVersion } from "./versions.ts";
import type { EnvironmentSchema, PaymentRow, PaymentsTable } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** A payment row with its offer's public id (`qrId`). */
export type PaymentRecord = PaymentRow & { qr_id: string };

/** A payment past a deadline, with its organisation's sandbox clock offset. */
export type DuePayment = PaymentRecord & { clock_offset: number };

function selectPayments(db: Db) {
  return db.selectFrom("payments")
    .innerJoin("offers", "offers.id", "payments.offer_id")
    .selectAll("payments")
    .select("offers.public_id as qr_id");
}

/** A payment as first written: every column but the id and the milestones still to come. */
export type NewPayment = Omit<
  PaymentRow,
  | "id"
  | "version"
  | "processing_at"
  | "succeeded_at"
  | "failed_at"
  | "canceled_at"
  | "expired_at"
>;

// The hot paths of the API, compiled once (see prepared.ts).
const insertPaymentRow = prepared((db: Db, values: NewPayment) =>
  db.insertInto("payments").values(values)
);
const selectPayment = prepared((db: Db, p: { orgId: number; publicId: string }) =>
  selectPayments(db).where("payments.org_id", "=", p.orgId)
    .where("payments.public_id", "=", p.publicId)
);

const selectApiPayment = prepared((db: Db, p: { orgId: number; publicId: string }) =>
  db.selectFrom("payments")
    .innerJoin("offers", "offers.id", "payments.offer_id")
    .select([
      "payments.public_id",
      "payments.status",
      "payments.amount",
      "payments.currency",
      "payments.quantity",
      "payments.amount_refunded",
      "payments.customer_email",
      "payments.customer_name",
      "payments.success_url",
      "payments.cancel_url",
      "payments.expires_at",
      "payments.failure_code",
      "payments.metadata",
      "payments.created_at",
      "payments.updated_at",
      "payments.version",
      "payments.invoice_company_name",
      "payments.invoice_tax_id",
      "payments.locale",
      "payments.payment_methods",
      "payments.payment_method",
      "payments.bank",
      "payments.provider",
      "offers.public_id as qr_id",
    ])
    .where("payments.org_id", "=", p.orgId)
    .where("payments.public_id", "=", p.publicId)
);

/** What a payment's API form shows (see toPayment). */
export type PaymentApiRow = Pick<
  PaymentRecord,
  | "public_id"
  | "qr_id"
  | "status"
  | "amount"
  | "currency"
  | "quantity"
  | "amount_refunded"
  | "customer_email"
  | "customer_name"
  | "success_url"
  | "cancel_url"
  | "expires_at"
  | "failure_code"
  | "metadata"
  | "created_at"
  | "updated_at"
  | "version"
  | "invoice_company_name"
  | "invoice_tax_id"
  | "locale"
  | "payment_methods"
  | "payment_method"
  | "bank"
  | "provider"
>;

/** Inserts a payment and returns its row. */
export async function insertPayment(db: Db, values: NewPayment): Promise<PaymentRow> {
  // Every column is known, so the row needs no RETURNING read-back.
  const result = await insertPaymentRow(db, values);
  return { ...asFirstWritten(values), id: Number(result.insertId) };
}

/** A new payment's row as the insert leaves it, but for its row id: version 1, no milestones. */
export function asFirstWritten(values: NewPayment): Omit<PaymentRow, "id"> {
  return {
    ...values,
    version: 1,
    processing_at: null,
    succeeded_at: null,
    failed_at: null,
    canceled_at: null,
    expired_at: null,
  };
}

/** Finds an organisation's payment by its public id. */
export async function findPayment(
  db: Db,
  orgId: number,
  publicId: string,
): Promise<PaymentRecord | undefined> {
  return (await selectPayment(db, { orgId, publicId })).rows[0];
}

/**
 * Finds an organisation's payment by its public id, only the columns its API form shows: a
 * read of the API's, where every column read is a value converted for nothing.
 */
export async function findApiPayment(
  db: Db,
  orgId: number,
  publicId: string,
): Promise<PaymentApiRow | undefined> {
  return (await selectApiPayment(db, { orgId, publicId })).rows[0];
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
  return db.updateTable("payments").set({ ...changes, status: to, version: nextVersion })
    .where("id", "=", id).where("status", "=", from)
    .returningAll().executeTakeFirst();
}

// NOTE: deadlines are in the organisation's time, which its sandbox clock may move ahead of
// the system time `now` the jobs run on: a deadline is due when `deadline - offset <= now`.
const paymentClockOffset = clockOffsetOf("payments.org_id");
const systemExpiry = sql<number>`payments.expires_at - ${paymentClockOffset}`;
const systemProcessingDeadline = sql<
  number
>`payments.processing_deadline_at - ${paymentClockOffset}`;

/** Payments still pending at or after their expiry, oldest first. */
export function findExpiredPendingPayments(
  db: Db,
  now: number,
  limit: number,
): Promise<DuePayment[]> {
  return selectPayments(db).select(paymentClockOffset.as("clock_offset"))
    .where("payments.status", "=", "PENDING")
    .where("payments.expires_at", "<=", sql<number>`${now} + ${maxClockOffset()}`)
    .where(systemExpiry, "<=", now)
    .where(noOpenAttempt("payments.id"))
    .orderBy(systemExpiry).limit(limit).execute();
}

/** Payments processing past their deadline, oldest first. */
export function findTimedOutPayments(
  db: Db,
  now: number,
  limit: number,
): Promise<DuePayment[]> {
  return selectPayments(db).select(paymentClockOffset.as("clock_offset"))
    .where("payments.status", "=", "PROCESSING")
    .where("payments.processing_deadline_at", "<=", sql<number>`${now} + ${maxClockOffset()}`)
    .where(systemProcessingDeadline, "<=", now)
    .orderBy(systemProcessingDeadline).limit(limit).execute();
}

/**
 * The earliest system time of `column` among payments in `status`. Only rows within the
 * largest clock offset of the earliest `column` can come first, so the index scan stays short.
 */
async function earliestSystemTime(
  db: Db,
  status: string,
  column: "expires_at" | "processing_deadline_at",
  systemTime: RawBuilder<number>,
): Promise<number | undefined> {
  // A payment waiting for the provider's answer has no deadline of its own until it ends.
  const earliest = sql<number>`(select min(${sql.ref(`first.${column}`)}) from payments as first
    where first.status = ${status} and ${noOpenAttempt("first.id")})`;
  const row = await db.selectFrom("payments").where("payments.status", "=", status)
    .where(`payments.${column}`, "<=", sql<number>`${earliest} + ${maxClockOffset()}`)
    .where(noOpenAttempt("payments.id"))
    .select((eb) => eb.fn.min<number>(systemTime).as("at")).executeTakeFirst();
  return typeof row?.at === "number" ? row.at : undefined;
}

/** The earliest expiry of a pending payment and the earliest processing deadline (system time). */
export async function nextPaymentDeadline(db: Db): Promise<number | null> {
  const times = [
    await earliestSystemTime(db, "PENDING", "expires_at", systemExpiry),
    await earliestSystemTime(db, "PROCESSING", "processing_deadline_at", systemProcessingDeadline),
  ].filter((at): at is number => at !== undefined);
  return times.length === 0 ? null : Math.min(...times);
}

/** What a customer adds to a payment on its page: an address when it has none, an invoice. */
export interface CustomerDetailsChange {
  customerEmail: string | null;
  invoice: { companyName: string; taxId: string } | null;
}

/**
 * Adds the customer's details to a payment while it is still PENDING: the address only when the
 * payment has none (the merchant's own stays), the invoice request when given. Returns whether
 * the payment changed; a payment no longer payable is left as it is.
 */
export async function addCustomerDetails(
  db: Db,
  id: number,
  change: CustomerDetailsChange,
  now: number,
): Promise<boolean> {
  const result = await db.updateTable("payments").set((eb) => ({
    customer_email: eb.fn.coalesce("customer_email", eb.val(change.customerEmail)),
    ...(change.invoice && {
      invoice_company_name: change.invoice.companyName,
      invoice_tax_id: change.invoice.taxId,
    }),
    updated_at: now,
    version: nextVersion,
  })).where("id", "=", id).where("status", "=", "PENDING").executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records the language of the page a customer paid on. */
export async function setCustomerLanguage(db: Db, id: number, language: string): Promise<void> {
  await db.updateTable("payments").set({ customer_language: language }).where("id", "=", id)
    .execute();
}
