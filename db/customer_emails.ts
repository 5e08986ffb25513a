import type { Insertable, Kysely } from "kysely";
import type { CustomerEmailRow, CustomerEmailsTable, EnvironmentSchema } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** A new outbox row: every column the insert sets. */
export type NewCustomerEmail = Insertable<CustomerEmailsTable>;

/** Writes an e-mail to the outbox (inside the transaction of the event that causes it). */
export async function insertCustomerEmail(db: Db, row: NewCustomerEmail): Promise<void> {
  await db.insertInto("customer_emails").values(row).execute();
}

/** When the earliest pending e-mail is due (or its lease runs out), or null if none is pending. */
export async function nextCustomerEmailDueAt(db: Db): Promise<number | null> {
  const row = await db.selectFrom("customer_emails").where("status", "=", "PENDING")
    .select((eb) => eb.fn.min<number>("next_attempt_at").as("at")).executeTakeFirst();
  return typeof row?.at === "number" ? row.at : null;
}

/** Pending e-mails due at `now` (their wait over, or the lease of a dead process run out). */
export function findDueCustomerEmails(db: Db, now: number, limit: number) {
  return db.selectFrom("customer_emails")
    .select(["id", "attempt_count", "in_flight"])
    .where("status", "=", "PENDING").where("next_attempt_at", "<=", now)
    .orderBy("next_attempt_at").limit(limit).execute();
}

/**
 * Leases a due e-mail for its next attempt until `leaseUntil` (compare-and-set on the attempt
 * count read); `lostError` records why the previous attempt has no result. False when another
 * process got there first.
 */
export async function leaseCustomerEmail(
  db: Db,
  claim: { id: number; attempt: number; now: number; leaseUntil: number; lostError: string | null },
): Promise<boolean> {
  const result = await db.updateTable("customer_emails")
    .set({
      in_flight: 1,
      attempt_count: claim.attempt + 1,
      next_attempt_at: claim.leaseUntil,
      updated_at: claim.now,
      ...(claim.lostError !== null && { last_error: claim.lostError }),
    })
    .where("id", "=", claim.id).where("status", "=", "PENDING")
    .where("attempt_count", "=", claim.attempt).where("next_attempt_at", "<=", claim.now)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Ends a pending e-mail as FAILED (its attempts used up), if still at the attempt count read. */
export async function failCustomerEmail(
  db: Db,
  claim: { id: number; attempt: number; now: number; error: string },
): Promise<void> {
  await db.updateTable("customer_emails")
    .set({
      status: "FAILED",
      in_flight: 0,
      next_attempt_at: null,
      last_error: claim.error,
      updated_at: claim.now,
    })
    .where("id", "=", claim.id).where("status", "=", "PENDING")
    .where("attempt_count", "=", claim.attempt).execute();
}

/** An e-mail leased for one attempt, with what it is about. */
export interface LeasedEmail {
  id: number;
  public_id: string;
  org_id: number;
  kind: string;
  recipient: string;
  message_id: string;
  attempt_count: number;
  payment_id: number;
  refund_id: number | null;
}

/** The e-mails this process just leased, by id. */
export function findLeasedEmails(db: Db, ids: number[]): Promise<LeasedEmail[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("customer_emails")
    .select([
      "id",
      "public_id",
      "org_id",
      "kind",
      "recipient",
      "message_id",
      "attempt_count",
      "payment_id",
      "refund_id",
    ])
    .where("id", "in", ids).orderBy("id").execute();
}

/** What was sent, kept on the row (the panel and the sandbox mailbox show it). */
export interface SentContent {
  transport: "SMTP" | "MAILBOX";
  language: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Records that the server accepted attempt `attempt` (or the mailbox took it): SENT for good.
 * Fenced on the attempt, so a result that arrives after its lease was taken over changes nothing.
 */
export async function recordCustomerEmailSent(
  db: Db,
  result: { id: number; attempt: number; now: number; content: SentContent },
): Promise<boolean> {
  const { content } = result;
  const updated = await db.updateTable("customer_emails")
    .set({
      status: "SENT",
      in_flight: 0,
      next_attempt_at: null,
      transport: content.transport,
      language: content.language,
      subject: content.subject,
      text_body: content.text,
      html_body: content.html,
      sent_at: result.now,
      updated_at: result.now,
    })
    .where("id", "=", result.id).where("status", "=", "PENDING")
    .where("attempt_count", "=", result.attempt).where("in_flight", "=", 1)
    .executeTakeFirst();
  return updated.numUpdatedRows === 1n;
}

/** Records a failed attempt: due again at `nextAttemptAt`, or FAILED when that is null. */
export async function recordCustomerEmailFailure(
  db: Db,
  result: { id: number; attempt: number; now: number; error: string; nextAttemptAt: number | null },
): Promise<void> {
  await db.updateTable("customer_emails")
    .set({
      status: result.nextAttemptAt === null ? "FAILED" : "PENDING",
      in_flight: 0,
      next_attempt_at: result.nextAttemptAt,
      last_error: result.error,
      updated_at: result.now,
    })
    .where("id", "=", result.id).where("status", "=", "PENDING")
    .where("attempt_count", "=", result.attempt).where("in_flight", "=", 1)
    .execute();
}

/** Renews the leases of attempts still running in this process. */
export async function extendCustomerEmailLeases(
  db: Db,
  claims: { id: number; attempt: number }[],
  leaseUntil: number,
): Promise<void> {
  for (const claim of claims) {
    await db.updateTable("customer_emails").set({ next_attempt_at: leaseUntil })
      .where("id", "=", claim.id).where("status", "=", "PENDING")
      .where("attempt_count", "=", claim.attempt).where("in_flight", "=", 1).execute();
  }
}

/** A payment's e-mails, oldest first. */
export function listCustomerEmailsOfPayment(
  db: Db,
  paymentId: number,
): Promise<CustomerEmailRow[]> {
  return db.selectFrom("customer_emails").selectAll()
    .where("payment_id", "=", paymentId).orderBy("id").execute();
}

/** One of an organisation's e-mails by public id. */
export function findCustomerEmail(
  db: Db,
  orgId: number,
  publicId: string,
): Promise<CustomerEmailRow | undefined> {
  return db.selectFrom("customer_emails").selectAll()
    .where("org_id", "=", orgId).where("public_id", "=", publicId).executeTakeFirst();
}

/** A sandbox mailbox message with its payment's public id. */
export type MailboxRow = CustomerEmailRow & { payment_public_id: string };

function selectMailbox(db: Db, orgId: number) {
  return db.selectFrom("customer_emails")
    .innerJoin("payments", "payments.id", "customer_emails.payment_id")
    .selectAll("customer_emails")
    .select("payments.public_id as payment_public_id")
    .where("customer_emails.org_id", "=", orgId)
    .where("customer_emails.transport", "=", "MAILBOX");
}

/** The organisation's sandbox mailbox, newest first, before row `beforeId`. */
export function listMailbox(
  db: Db,
  orgId: number,
  page: { beforeId?: number; limit: number },
): Promise<MailboxRow[]> {
  let query = selectMailbox(db, orgId);
  if (page.beforeId !== undefined) query = query.where("customer_emails.id", "<", page.beforeId);
  return query.orderBy("customer_emails.id", "desc").limit(page.limit).execute();
}

/** One message of the organisation's sandbox mailbox. */
export function findMailboxEmail(
  db: Db,
  orgId: number,
  publicId: string,
): Promise<MailboxRow | undefined> {
  return selectMailbox(db, orgId).where("customer_emails.public_id", "=", publicId)
    .executeTakeFirst();
}

/** Everything an e-mail about a payment says, read when it is sent. */
export function findEmailFacts(db: Db, paymentId: number, refundId: number | null) {
  return db.selectFrom("payments")
    .innerJoin("offers", "offers.id", "payments.offer_id")
    .leftJoin("checkout_sessions", "checkout_sessions.payment_id", "payments.id")
    .leftJoin(
      "refunds",
      (join) =>
        join.on("refunds.id", "=", refundId ?? -1).onRef("refunds.payment_id", "=", "payments.id"),
    )
    .select([
      "payments.public_id",
      "payments.amount",
      "payments.currency",
      "payments.quantity",
      "payments.amount_refunded",
      "payments.locale",
      "payments.customer_language",
      "payments.invoice_company_name",
      "payments.invoice_tax_id",
      "payments.succeeded_at",
      "payments.created_at",
      "offers.name as offer_name",
      "offers.amount as offer_amount",
      "checkout_sessions.line_items",
      "refunds.public_id as refund_public_id",
      "refunds.amount as refund_amount",
      "refunds.succeeded_at as refund_succeeded_at",
    ])
    .where("payments.id", "=", paymentId).executeTakeFirst();
}

/** The address a payment's customer gave, or null for none. */
export async function findPaymentRecipient(db: Db, paymentId: number): Promise<string | null> {
  const row = await db.selectFrom("payments").select("customer_email")
    .where("id", "=", paymentId).executeTakeFirst();
  return row?.customer_email ?? null;
}
