import { PAYMENT_DEADLINES_JOB } from "../jobs.ts";
import { isLanguage } from "../i18n/languages.ts";
import { findOffer } from "../../db/offers.ts";
import { findPaymentByPublicId } from "../../db/payments.ts";
import { findOpenRenewal, findRenewalOfPayment } from "../../db/subscription_renewals.ts";
import type { Services } from "../context.ts";
import { wakeAtOrgTime } from "../context.ts";
import { ApiError } from "../errors.ts";
import { newId } from "../ids.ts";
import {
  insertPendingPayment,
  invoiceRequestOf,
  type PaymentRecord,
  requirePayableOffer,
} from "../payments/mod.ts";
import { orgContextOnClock } from "../sandbox_clock.ts";
import { assertCodeEntryOpen, carryCodeGuard } from "./guard.ts";

/**
 * Starts a new payment for what a FAILED hosted payment was for, so its customer can try a new
 * code: a failed payment is final (CONTRACT "Payments"), the purchase is not. The new payment
 * copies the failed one (offer, amount, quantity, customer, invoice, language, redirects,
 * metadata), keeps its expiry, so the merchant's deadline holds, and its wrong-code counter.
 * A payment still PENDING is its own next try. A renewal payment is never copied: its
 * subscription already opened the next one (see renewalOnLinkPayment), which is returned. 409 when
 * the payment succeeded, was canceled, has expired, its offer was deactivated or its renewal is
 * over; 429 while code entry is locked.
 */
export async function startPaymentAgain(
  services: Services,
  payment: PaymentRecord,
): Promise<PaymentRecord> {
  const ctx = await orgContextOnClock(services, payment.org_id);
  // A provider that could not be reached leaves the payment PENDING: it takes the next code.
  if (payment.status === "PENDING" && payment.expires_at > ctx.now()) return payment;
  if (payment.status !== "FAILED") {
    throw new ApiError(
      "payment_already_final",
      `The payment '${payment.public_id}' is ${payment.status}; only a failed one starts again.`,
    );
  }
  if (payment.expires_at <= ctx.now()) {
    throw new ApiError("payment_expired", `The payment '${payment.public_id}' has expired.`);
  }
  await assertCodeEntryOpen(services.store.db, payment.public_id, services.clock.now());
  const renewal = await findRenewalOfPayment(services.store.db, payment.id);
  if (renewal) return await openRenewalPayment(services, payment, renewal.subscription_id);
  return await ctx.write(async (trx) => {
    const offer = await findOffer(trx, payment.org_id, payment.qr_id);
    requirePayableOffer(payment.qr_id, offer);
    const now = ctx.now();
    const record = await insertPendingPayment(trx, services, offer, {
      publicId: newId("payment"),
      amount: payment.amount,
      quantity: payment.quantity,
      customerEmail: payment.customer_email,
      customerName: payment.customer_name,
      successUrl: payment.success_url,
      cancelUrl: payment.cancel_url,
      metadata: JSON.parse(payment.metadata),
      expiresAt: payment.expires_at,
      now,
      locale: isLanguage(payment.locale) ? payment.locale : null,
      invoice: invoiceRequestOf(payment),
    });
    await carryCodeGuard(trx, payment.public_id, record.public_id, services.clock.now());
    wakeAtOrgTime(ctx, trx, PAYMENT_DEADLINES_JOB, record.expires_at);
    return record;
  });
}

/**
 * The payment that now renews the subscription a failed renewal payment was for.
 * NOTE: copying the failed one would start a second subscription when paid.
 */
async function openRenewalPayment(
  services: Services,
  payment: PaymentRecord,
  subscriptionId: number,
): Promise<PaymentRecord> {
  const open = await findOpenRenewal(services.store.db, subscriptionId);
  const next = open?.payment_status === "PENDING"
    ? await findPaymentByPublicId(services.store.db, open.payment_public_id)
    : undefined;
  if (!next) {
    throw new ApiError(
      "payment_already_final",
      `The renewal paid by '${payment.public_id}' is over; the shop can send a new link.`,
    );
  }
  return next;
}
