import { isLanguage } from "../i18n/languages.ts";
import {
  type CheckoutSessionRecord,
  findCheckoutSessionById,
  setCheckoutSessionPayment,
} from "../../db/checkout_sessions.ts";
import { findOffer } from "../../db/offers.ts";
import type { OrgContext, Services } from "../context.ts";
import { ApiError } from "../errors.ts";
import { newId } from "../ids.ts";
import type { Kysely } from "kysely";
import { findPaymentByPublicId } from "../../db/payments.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import { authorizeAttempt, openAttempt, type Payer } from "../payments/attempts.ts";
import { applyAttemptOutcome } from "../payments/outcome.ts";
import {
  insertPendingPayment,
  invoiceRequestOf,
  type PaymentRecord,
  payWithCode,
  requireSandbox,
  SANDBOX_PAYER,
} from "../payments/mod.ts";
import { orgContextOnClock } from "../sandbox_clock.ts";
import { assertCodeEntryOpen, recordWrongCode } from "./guard.ts";
import { saveCustomerDetails } from "../payments/customer_details.ts";
import type { CustomerDetailsChange } from "../../db/payments.ts";
import { assertSessionPayable, getCheckoutSession } from "./mod.ts";

/**
 * Pays a checkout session with the customer's code. Every code is an attempt on the session's
 * current payment while it is PENDING (a refused connection leaves it so), else on a new payment:
 * a FAILED payment is final, so the session stays OPEN and the next code makes the next payment.
 * The payment and its attempt are committed, with the session pointing at the payment, before
 * the provider hears of the code; the payment hook then sees the session when the payment ends.
 * `enforceLock` is false only for the merchant's sandbox operation. Session times are the
 * organisation's (`ctx.now()`); the wrong-code lock runs on real time.
 */
export async function payCheckoutSession(
  ctx: OrgContext,
  session: CheckoutSessionRecord,
  code: string,
  options: { enforceLock: boolean; payer: Payer; details?: CustomerDetailsChange },
): Promise<CheckoutSessionRecord> {
  const { services } = ctx;
  assertSessionPayable(session, ctx.now());
  if (options.enforceLock) {
    await assertCodeEntryOpen(services.store.db, session.public_id, services.clock.now());
  }
  // NOTE: its own write, not ctx.write: the attempt must be on disk before the provider is
  // called even when the request's write (an Idempotency-Key's) is later undone.
  const { payment, attempt } = await services.store.write(async (trx) => {
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
    const details = options.details ?? { customerEmail: null, invoice: null };
    const pending = await currentPendingPayment(trx, current);
    if (pending) await saveCustomerDetails(trx, pending.id, details, at);
    const payment = pending
      ? (await findPaymentByPublicId(trx, pending.public_id))!
      : await newSessionPayment(trx, services, current, details, at);
    return {
      payment,
      attempt: await openAttempt(trx, services, payment, at, services.clock.now()),
    };
  });
  const answer = await authorizeAttempt(services, payment, attempt, code, options.payer);
  return await ctx.write(async (trx) => {
    await applyAttemptOutcome(trx, services, attempt.public_id, answer, services.clock.now());
    return (await findCheckoutSessionById(trx, session.id))!;
  });
}

/** The session's payment when a code may still be tried on it (PENDING). */
async function currentPendingPayment(
  trx: Kysely<EnvironmentSchema>,
  session: CheckoutSessionRecord,
): Promise<PaymentRecord | undefined> {
  if (session.payment_id === null || session.payment_status !== "PENDING") return undefined;
  return await findPaymentByPublicId(trx, session.payment_public_id!);
}

/**
 * A new PENDING payment for the session, which now points at it. The customer's details come
 * from this attempt or, when it gave none, from the session's previous payment.
 */
async function newSessionPayment(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  session: CheckoutSessionRecord,
  details: CustomerDetailsChange,
  at: number,
): Promise<PaymentRecord> {
  const offer = (await findOffer(trx, session.org_id, session.qr_id))!;
  const previous = session.payment_public_id === null
    ? undefined
    : await findPaymentByPublicId(trx, session.payment_public_id);
  const payment = await insertPendingPayment(trx, services, offer, {
    publicId: newId("payment"),
    amount: session.amount,
    quantity: 1,
    customerEmail: details.customerEmail ?? previous?.customer_email ?? null,
    customerName: null,
    locale: isLanguage(session.locale) ? session.locale : null,
    invoice: details.invoice ?? (previous ? invoiceRequestOf(previous) : null),
    successUrl: session.success_url,
    cancelUrl: session.cancel_url,
    metadata: JSON.parse(session.metadata),
    expiresAt: session.expires_at,
    now: at,
  });
  await setCheckoutSessionPayment(trx, session.id, session.payment_id, payment.id, at);
  return payment;
}

/** The sandbox "complete" operation of a session: one attempt with a test code. */
export async function completeCheckoutSession(
  ctx: OrgContext,
  sessionId: string,
  code: string,
): Promise<CheckoutSessionRecord> {
  requireSandbox(ctx.services);
  const session = await getCheckoutSession(ctx, sessionId);
  return payCheckoutSession(ctx, session, code, { enforceLock: false, payer: SANDBOX_PAYER });
}

/** Pays a hosted payment with the code its page received, unless code entry is locked. */
export async function payHostedPayment(
  services: Services,
  payment: PaymentRecord,
  code: string,
  payer: Payer,
): Promise<PaymentRecord> {
  await assertCodeEntryOpen(services.store.db, payment.public_id, services.clock.now());
  return payWithCode(await orgContextOnClock(services, payment.org_id), payment, code, payer);
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
