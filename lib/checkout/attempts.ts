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
import { findOpenAttempt } from "../../db/payment_attempts.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import {
  applyAuthorization,
  type AttemptStart,
  authorizeAttempt,
  makeWayForAttempt,
  openAttempt,
  type Payer,
  startAttempt,
} from "../payments/attempts.ts";
import { allowlistOf, requireChoiceAvailable } from "../payments/methods.ts";
import {
  insertPendingPayment,
  invoiceRequestOf,
  type PaymentRecord,
  requireSandbox,
} from "../payments/mod.ts";
import { completionChoice, SANDBOX_PAYER } from "../payments/pay.ts";
import { settleSandboxRedirect } from "../payments/sandbox_redirect.ts";
import type { CompletePaymentRequest } from "../payments/schemas.ts";
import type { MethodChoice } from "../providers/mod.ts";
import { orgContextOnClock } from "../sandbox_clock.ts";
import { assertCodeEntryOpen, recordWrongCode } from "./guard.ts";
import { saveCustomerDetails } from "../payments/customer_details.ts";
import type { CustomerDetailsChange } from "../../db/payments.ts";
import { assertSessionPayable, getCheckoutSession } from "./mod.ts";

/** What an attempt on a session led to: the session after it, and the page to send them to. */
export interface SessionAttempt {
  session: CheckoutSessionRecord;
  redirectUrl: string | null;
}

/**
 * Pays a checkout session by the customer's choice. Every attempt is on the session's current
 * payment while it is PENDING (a refused connection, or a redirect method not yet paid, leaves
 * it so), else on a new payment: a FAILED payment is final, so the session stays OPEN and the
 * next attempt makes the next payment. The payment and its attempt are committed, with the
 * session pointing at the payment, before the provider hears of it; the payment hook then sees
 * the session when the payment ends. `enforceLock` (the wrong-code lock, codes only) is false only
 * for the merchant's sandbox operation. Session times are the organisation's (`ctx.now()`); the
 * wrong-code lock runs on real time.
 */
export async function payCheckoutSession(
  ctx: OrgContext,
  session: CheckoutSessionRecord,
  choice: MethodChoice,
  options: { enforceLock: boolean; payer: Payer; details?: CustomerDetailsChange },
): Promise<SessionAttempt> {
  const { services } = ctx;
  assertSessionPayable(session, ctx.now());
  const lock = options.enforceLock && choice.method === "blik";
  if (lock) await assertCodeEntryOpen(services.store.db, session.public_id, services.clock.now());
  await requireChoiceAvailable(services, {
    amount: session.amount,
    currency: session.currency,
    payment_methods: session.payment_methods ?? session.offer_payment_methods,
  }, choice);
  const pending = await currentPendingPayment(services.store.db, session);
  if (pending) {
    const again = await makeWayForAttempt(services, pending, choice);
    if (again !== null) return { session, redirectUrl: again };
  }
  // NOTE: its own write, not ctx.write: the attempt must be on disk before the provider is
  // called even when the request's write (an Idempotency-Key's) is later undone.
  const { payment, attempt } = await services.store.write(async (trx) => {
    const at = ctx.now();
    const current = (await findCheckoutSessionById(trx, session.id))!;
    assertSessionPayable(current, at);
    if (lock) await assertCodeEntryOpen(trx, current.public_id, services.clock.now());
    if (current.payment_id !== session.payment_id) {
      throw new ApiError(
        "state_conflict",
        "Another payment attempt started on this checkout session meanwhile; reload and try again.",
      );
    }
    const details = options.details ?? { customerEmail: null, invoice: null };
    const open = await currentPendingPayment(trx, current);
    if (open) await saveCustomerDetails(trx, open.id, details, at);
    const payment = open
      ? (await findPaymentByPublicId(trx, open.public_id))!
      : await newSessionPayment(trx, services, current, details, at);
    return {
      payment,
      attempt: await openAttempt(trx, services, payment, choice, options.payer, {
        orgNow: at,
        now: services.clock.now(),
      }),
    };
  });
  const answer = await authorizeAttempt(services, payment, attempt, choice, options.payer);
  return await ctx.write(async (trx) => {
    const { redirectUrl } = await applyAuthorization(
      trx,
      services,
      attempt.public_id,
      answer,
      services.clock.now(),
    );
    return { session: (await findCheckoutSessionById(trx, session.id))!, redirectUrl };
  });
}

/** The session's payment when a code may still be tried on it (PENDING). */
async function currentPendingPayment(
  db: Kysely<EnvironmentSchema>,
  session: CheckoutSessionRecord,
): Promise<PaymentRecord | undefined> {
  if (session.payment_id === null || session.payment_status !== "PENDING") return undefined;
  return await findPaymentByPublicId(db, session.payment_public_id!);
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
    paymentMethods: allowlistOf(session.payment_methods ?? session.offer_payment_methods) ??
      undefined,
  });
  await setCheckoutSessionPayment(trx, session.id, session.payment_id, payment.id, at);
  return payment;
}

/**
 * The sandbox "complete" operation of a session: one attempt with a test code, or a redirect
 * method paid or declined at once.
 */
export async function completeCheckoutSession(
  ctx: OrgContext,
  sessionId: string,
  request: CompletePaymentRequest,
): Promise<CheckoutSessionRecord> {
  requireSandbox(ctx.services);
  const session = await getCheckoutSession(ctx, sessionId);
  const attempt = await payCheckoutSession(ctx, session, completionChoice(request), {
    enforceLock: false,
    payer: SANDBOX_PAYER,
  });
  if (attempt.redirectUrl === null || "code" in request) return attempt.session;
  const payment = await findPaymentByPublicId(ctx.db, attempt.session.payment_public_id!);
  const open = payment && await findOpenAttempt(ctx.db, payment.id);
  if (open) await settleSandboxRedirect(ctx.services, open.public_id, request.result);
  return (await findCheckoutSessionById(ctx.db, session.id))!;
}

/**
 * Starts an attempt on a hosted payment by its page's choice; a code is refused while code entry
 * is locked (wrong codes), a redirect method is not.
 */
export async function payHostedPayment(
  services: Services,
  payment: PaymentRecord,
  choice: MethodChoice,
  payer: Payer,
): Promise<AttemptStart> {
  if (choice.method === "blik") {
    await assertCodeEntryOpen(services.store.db, payment.public_id, services.clock.now());
  }
  return startAttempt(await orgContextOnClock(services, payment.org_id), payment, choice, payer);
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
