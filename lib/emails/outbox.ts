import { CUSTOMER_EMAILS_JOB } from "../jobs.ts";
import type { Kysely } from "kysely";
import {
  findCustomerEmail,
  findPaymentRecipient,
  insertCustomerEmail,
  listCustomerEmailsOfPayment,
} from "../../db/customer_emails.ts";
import { findPayment } from "../../db/payments.ts";
import type { CustomerEmailRow, EnvironmentSchema } from "../../db/schema.ts";
import { afterCommit } from "../after_commit.ts";
import type { Config } from "../config.ts";
import type { OrgContext, Services } from "../context.ts";
import { ApiError, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import type { PaymentTransitionHook } from "../payments/hooks.ts";
import type { PaymentRecord } from "../payments/mod.ts";
import type { EmailKind } from "./facts.ts";

/** Why production keeps an e-mail unsent. */
export const NO_SMTP_MESSAGE = "Not sent: this production process has no SMTP_URL, so it sends " +
  "no e-mails. Set SMTP_URL and MAIL_FROM, restart, then resend.";

/**
 * The e-mail's `Message-ID`: its outbox id at this environment's host. The same on every
 * attempt, so a copy that a crash made us send twice is recognisable as one message.
 */
export function messageIdOf(publicId: string, config: Pick<Config, "publicUrl">): string {
  return `<${publicId}@${new URL(config.publicUrl).hostname}>`;
}

/** Whether this process delivers e-mails at all: through SMTP, or into the sandbox's mailbox. */
export function sendsEmails(services: Pick<Services, "config" | "environment">): boolean {
  return services.config.smtp !== null || services.environment === "sandbox";
}

interface NewEmail {
  orgId: number;
  paymentId: number;
  refundId: number | null;
  kind: EmailKind;
  recipient: string;
  resendOf: number | null;
  /** The organisation's time, for `created_at`. */
  now: number;
}

/**
 * Writes an e-mail to the outbox in `trx`, the transaction of the change that causes it, so it
 * exists if and only if that change committed; the e-mail job sends it after the commit.
 * Production without SMTP records it as SKIPPED, so the panel says why nothing was sent.
 */
async function queueEmail(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  email: NewEmail,
): Promise<void> {
  const publicId = newId("customerEmail");
  const sending = sendsEmails(services);
  const dueAt = services.clock.now() + services.config.emailRetryScheduleMs[0];
  await insertCustomerEmail(trx, {
    public_id: publicId,
    org_id: email.orgId,
    payment_id: email.paymentId,
    refund_id: email.refundId,
    kind: email.kind,
    recipient: email.recipient,
    message_id: messageIdOf(publicId, services.config),
    status: sending ? "PENDING" : "SKIPPED",
    attempt_count: 0,
    in_flight: 0,
    next_attempt_at: sending ? dueAt : null,
    last_error: sending ? null : NO_SMTP_MESSAGE,
    resend_of: email.resendOf,
    created_at: email.now,
    updated_at: email.now,
  });
  if (sending) afterCommit(trx, () => services.scheduler.wake(CUSTOMER_EMAILS_JOB, dueAt));
}

/** Queues the payment confirmation when a payment with a customer address succeeds. */
export const confirmationOnPayment: PaymentTransitionHook = async (
  trx,
  services,
  payment,
  to,
  now,
) => {
  if (to !== "SUCCEEDED" || payment.customer_email === null) return;
  await queueEmail(trx, services, {
    orgId: payment.org_id,
    paymentId: payment.id,
    refundId: null,
    kind: "PAYMENT_CONFIRMATION",
    recipient: payment.customer_email,
    resendOf: null,
    now,
  });
};

/** Queues a refund notice in the transaction that records `refund.succeeded`. */
export async function queueRefundNotice(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  refund: { id: number; org_id: number; payment_id: number },
  now: number,
): Promise<void> {
  const recipient = await findPaymentRecipient(trx, refund.payment_id);
  if (recipient === null) return;
  await queueEmail(trx, services, {
    orgId: refund.org_id,
    paymentId: refund.payment_id,
    refundId: refund.id,
    kind: "REFUND_NOTICE",
    recipient,
    resendOf: null,
    now,
  });
}

/**
 * Queues a subscription's renewal notice or reminder, about its renewal payment (whose hosted
 * page is the link), in the transaction that opened the payment or reached the reminder's step.
 */
export async function queueRenewalEmail(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  email: {
    orgId: number;
    paymentId: number;
    kind: Extract<EmailKind, "RENEWAL_NOTICE" | "RENEWAL_REMINDER">;
    recipient: string;
    now: number;
  },
): Promise<void> {
  await queueEmail(trx, services, { ...email, refundId: null, resendOf: null });
}

/** A payment's e-mails, oldest first (the panel's payment page). */
export function listPaymentEmails(
  ctx: OrgContext,
  payment: Pick<PaymentRecord, "id">,
): Promise<CustomerEmailRow[]> {
  return listCustomerEmailsOfPayment(ctx.db, payment.id);
}

/**
 * Sends one of the organisation's e-mails again, as a new e-mail with its own Message-ID (the
 * customer asked for it again; it is not a retry). 409 while the first is still being sent, or
 * when this process sends no e-mails.
 */
export async function resendCustomerEmail(
  ctx: OrgContext,
  paymentId: string,
  emailId: string,
): Promise<void> {
  const { services } = ctx;
  if (!sendsEmails(services)) throw new ApiError("state_conflict", NO_SMTP_MESSAGE);
  await ctx.write(async (trx) => {
    const payment = await findPayment(trx, ctx.orgId, paymentId);
    if (!payment) throw notFound("payment", paymentId);
    const email = await findCustomerEmail(trx, ctx.orgId, emailId);
    if (!email || email.payment_id !== payment.id) throw notFound("e-mail", emailId);
    if (email.status === "PENDING") {
      throw new ApiError(
        "state_conflict",
        `The e-mail '${emailId}' is still being sent (attempt ${email.attempt_count}); wait for it.`,
      );
    }
    await queueEmail(trx, services, {
      orgId: email.org_id,
      paymentId: email.payment_id,
      refundId: email.refund_id,
      kind: email.kind as EmailKind,
      recipient: email.recipient,
      resendOf: email.id,
      now: ctx.now(),
    });
  });
}
