import { findCheckoutSessionByPaymentId } from "../../db/checkout_sessions.ts";
import type { PaymentTransitionHook } from "../payments/hooks.ts";
import { type FailureCode, flowOf, type PaymentMethod } from "../providers/mod.ts";
import { recordWrongCode } from "./guard.ts";
import { transitionSession } from "./mod.ts";

/** Failures caused by the code the customer entered; a timeout is the provider's silence. */
const WRONG_CODE_FAILURES: ReadonlySet<FailureCode> = new Set([
  "invalid_code",
  "declined",
  "code_expired",
  "code_canceled",
  "code_already_used",
]);

/**
 * Keeps checkout in step with payments, inside the payment's transaction: a session completes
 * when its payment succeeds; a failed code counts towards the lock of the session (or of the
 * hosted payment); a session past its expiry expires once its last attempt has failed.
 */
export const checkoutPaymentHook: PaymentTransitionHook = async (
  trx,
  services,
  payment,
  to,
  now,
) => {
  if (to !== "SUCCEEDED" && to !== "FAILED") return;
  const session = await findCheckoutSessionByPaymentId(trx, payment.id);
  if (to === "SUCCEEDED") {
    if (session && !await transitionSession(trx, services, session, "COMPLETED", now)) {
      // NOTE: money was taken for a session that is no longer open; the payment still records it.
      services.log.warn("payment succeeded for a session that is not open", {
        sessionId: session.public_id,
        paymentId: payment.public_id,
        status: session.status,
      });
    }
    return;
  }
  // A bank's or card's refusal on the provider's page is no wrong code typed here.
  const typed = payment.payment_method === null ||
    flowOf(payment.payment_method as PaymentMethod) === "code";
  if (typed && WRONG_CODE_FAILURES.has(payment.failure_code as FailureCode)) {
    await recordWrongCode(trx, session?.public_id ?? payment.public_id, now);
  }
  if (session && session.status === "OPEN" && session.expires_at <= now) {
    await transitionSession(trx, services, session, "EXPIRED", now);
  }
};
