import { findCheckoutSessionByPaymentId } from "../../db/checkout_sessions.ts";
import { checkAttemptSoon, findOpenAttempt } from "../../db/payment_attempts.ts";
import type { Services } from "../context.ts";
import { PAYMENT_ATTEMPTS_JOB } from "../jobs.ts";
import { findPublicPayment } from "../payments/mod.ts";
import {
  type Audience,
  audienceOf,
  type LanguageRequest,
  type OrderSummary,
  paymentSummary,
} from "./pages.ts";

/**
 * Where the customer stands after the provider's page: the bank has not decided yet (`waiting`,
 * then `late` after a minute), the customer came back without paying (`notPaid`: the payment
 * may still be paid another way), or the payment's end.
 */
export type ReturnPhase =
  | "waiting"
  | "late"
  | "notPaid"
  | "succeeded"
  | "failed"
  | "expired"
  | "canceled";

/** The return page (`/pay/{paymentId}/return`): the payment's state and where to go next. */
export interface ReturnPage extends Audience {
  paymentId: string;
  phase: ReturnPhase;
  summary: OrderSummary;
  sandbox: boolean;
  /** Back to the shop after paying: the payment's or its session's `successUrl`. */
  successUrl: string | null;
  /** Back to the shop without paying: the payment's or its session's `cancelUrl`. */
  cancelUrl: string | null;
  /** Whether the hosted page may be opened again to pay another way (not for a session's). */
  canChooseAgain: boolean;
  /** After a failure, whether a new payment for the same purchase may start (not a session's). */
  canStartAgain: boolean;
  /** When the customer first came back (ms), kept in the page's reload URL. */
  since: number;
  /** Without JavaScript, how often the page reloads itself while the bank decides. */
  refreshSeconds: number | undefined;
}

/** How long the customer waits before the page says the bank is late. */
export const LATE_AFTER_MS = 60_000;

/** While waiting, how often the page reloads; later, less often. */
const WAITING_REFRESH_SECONDS = 3;
const LATE_REFRESH_SECONDS = 15;

/** A reload brings the attempt's check forward unless one is due within this. */
const CHECK_SOON_MS = 2_000;

/**
 * Loads the return page of a payment by its public id; undefined when there is none. Only the
 * provider's signed notification or a lookup decides an attempt, never this request: while the
 * bank has not decided, the page asks the reconciler to look the attempt up now.
 */
export async function loadReturnPage(
  services: Services,
  paymentId: string,
  request: LanguageRequest,
  since: number | null,
): Promise<ReturnPage | undefined> {
  const payment = await findPublicPayment(services, paymentId);
  if (!payment) return undefined;
  const now = services.clock.now();
  const firstSeen = since !== null && since <= now && now - since < 86_400_000 ? since : now;
  const [audience, session, open] = await Promise.all([
    audienceOf(services, payment.org_id, payment.locale, request),
    findCheckoutSessionByPaymentId(services.store.db, payment.id),
    findOpenAttempt(services.store.db, payment.id),
  ]);
  let phase: ReturnPhase;
  if (payment.status === "SUCCEEDED") phase = "succeeded";
  else if (payment.status === "FAILED") phase = "failed";
  else if (payment.status === "EXPIRED") phase = "expired";
  else if (payment.status === "CANCELED") phase = "canceled";
  else if (open) phase = now - firstSeen >= LATE_AFTER_MS ? "late" : "waiting";
  else phase = "notPaid";
  if (
    open && open.check_at > now + CHECK_SOON_MS &&
    await services.store.write((trx) => checkAttemptSoon(trx, open.id, now, CHECK_SOON_MS))
  ) {
    services.scheduler.wake(PAYMENT_ATTEMPTS_JOB, now);
  }
  const waiting = phase === "waiting" || phase === "late";
  return {
    ...audience,
    paymentId: payment.public_id,
    phase,
    summary: await paymentSummary(services, payment, audience),
    sandbox: services.environment === "sandbox",
    successUrl: payment.success_url ?? session?.success_url ?? null,
    cancelUrl: payment.cancel_url ?? session?.cancel_url ?? null,
    // Leaving the bank's page unpaid looks like waiting; choosing again gives that attempt up.
    canChooseAgain: session === undefined && (waiting || phase === "notPaid"),
    canStartAgain: session === undefined && phase === "failed",
    since: firstSeen,
    refreshSeconds: waiting
      ? (phase === "late" ? LATE_REFRESH_SECONDS : WAITING_REFRESH_SECONDS)
      : undefined,
  };
}
