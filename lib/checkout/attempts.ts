import {
  type CheckoutSessionRecord,
  findCheckoutSessionById,
  setCheckoutSessionPayment,
} from "../../db/checkout_sessions.ts";
import { findOffer } from "../../db/offers.ts";
import { type OrgContext, type Services, wakeAtOrgTime } from "../context.ts";
import { ApiError } from "../errors.ts";
import { newId } from "../ids.ts";
import {
  applyAuthorization,
  insertPendingPayment,
  PAYMENT_DEADLINES_JOB,
  type PaymentRecord,
  payWithCode,
  requireSandbox,
} from "../payments/mod.ts";
import { orgContextOnClock } from "../sandbox_clock.ts";
import { assertCodeEntryOpen, recordWrongCode } from "./guard.ts";
import { assertSessionPayable, getCheckoutSession } from "./mod.ts";

/**
 * Pays a checkout session with the customer's code. Every attempt is a new payment: a FAILED
 * payment is final, so the session stays OPEN and the next code makes the next payment. The
 * payment is created and given the provider's answer in one transaction, with the session
 * pointing at it, so the payment hook sees the session when the payment succeeds or fails.
 * `enforceLock` is false only for the merchant's sandbox operation. Session times are the
 * organisation's (`ctx.now()`); the wrong-code lock runs on real time.
 */
export async function payCheckoutSession(
  ctx: OrgContext,
  session: CheckoutSessionRecord,
  code: string,
  options: { enforceLock: boolean },
): Promise<CheckoutSessionRecord> {
  const { services } = ctx;
  assertSessionPayable(session, ctx.now());
  if (options.enforceLock) {
    await assertCodeEntryOpen(services.store.db, session.public_id, services.clock.now());
  }
  const paymentId = newId("payment");
  const result = await services.provider.authorize({
    paymentId,
    amount: session.amount,
    currency: session.currency,
    code,
  });
  const updated = await ctx.write(async (trx) => {
    const at = ctx.now();
    const current = (await findCheckoutSessionById(trx, session.id))!;
    assertSessionPayable(current, at);
    if (options.enforceLock) {
      await assertCodeEntryOpen(trx, current.public_id, services.clock.now());
    }
    if (current.payment_id !== session.payment_id) {
      throw new ApiError(
        "state_conflict",
        "Another payment attempt started on this checkout session meanwhile; reload and try again.",
      );
    }
    const offer = (await findOffer(trx, current.org_id, current.qr_id))!;
    const pending = await insertPendingPayment(trx, services, offer, {
      publicId: paymentId,
      amount: current.amount,
      quantity: 1,
      customerEmail: null,
      customerName: null,
      successUrl: current.success_url,
      cancelUrl: current.cancel_url,
      metadata: JSON.parse(current.metadata),
      expiresAt: current.expires_at,
      now: at,
    });
    await setCheckoutSessionPayment(trx, current.id, current.payment_id, pending.id, at);
    const payment = await applyAuthorization(trx, services, pending, result, at);
    if (payment.processing_deadline_at !== null) {
      wakeAtOrgTime(ctx, trx, PAYMENT_DEADLINES_JOB, payment.processing_deadline_at);
    }
    return await findCheckoutSessionById(trx, current.id);
  });
  return updated!;
}

/** The sandbox "complete" operation of a session: one attempt with a test code. */
export async function completeCheckoutSession(
  ctx: OrgContext,
  sessionId: string,
  code: string,
): Promise<CheckoutSessionRecord> {
  requireSandbox(ctx.services);
  const session = await getCheckoutSession(ctx, sessionId);
  return payCheckoutSession(ctx, session, code, { enforceLock: false });
}

/** Pays a hosted payment with the code its page received, unless code entry is locked. */
export async function payHostedPayment(
  services: Services,
  payment: PaymentRecord,
  code: string,
): Promise<PaymentRecord> {
  await assertCodeEntryOpen(services.store.db, payment.public_id, services.clock.now());
  return payWithCode(await orgContextOnClock(services, payment.org_id), payment, code);
}

/**
 * Counts a code that is not six digits against what the customer is paying, and throws the 400
 * for it. A person's browser checks the format first, so these come from scripts.
 */
export async function rejectMalformedCode(services: Services, subject: string): Promise<never> {
  await assertCodeEntryOpen(services.store.db, subject, services.clock.now());
  await services.store.write((trx) => recordWrongCode(trx, subject, services.clock.now()));
  throw new ApiError("parameter_invalid", "'code' must be exactly 6 digits.", { param: "code" });
}
