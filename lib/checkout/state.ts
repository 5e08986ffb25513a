import type { FailureCode } from "../providers/mod.ts";

/** What a checkout page can show; the code-entry island renders one of these. */
export type CheckoutPhase =
  | "ready"
  | "processing"
  | "succeeded"
  | "failed"
  | "locked"
  | "expired"
  | "canceled";

/**
 * The state of a checkout page as the browser sees it. It goes to the customer's browser, so it
 * carries only the ids the page already shows and nothing of the merchant's.
 */
export interface CheckoutState {
  phase: CheckoutPhase;
  /** The payment of the latest attempt, once there is one. */
  paymentId: string | null;
  failureCode: FailureCode | null;
  /** After a failure: whether another code may be tried (a session) or not (a hosted payment). */
  canRetry: boolean;
  /** While locked: seconds until codes are accepted again. */
  retryAfterSeconds: number | null;
}

const READY: CheckoutState = {
  phase: "ready",
  paymentId: null,
  failureCode: null,
  canRetry: true,
  retryAfterSeconds: null,
};

/** The state of a checkout session's page at `now`. */
export function sessionState(
  session: {
    status: string;
    expires_at: number;
    payment_public_id: string | null;
    payment_status: string | null;
    payment_failure_code: string | null;
  },
  lockedSeconds: number,
  now: number,
): CheckoutState {
  const paymentId = session.payment_public_id;
  const failureCode = session.payment_failure_code as FailureCode | null;
  if (session.status === "COMPLETED") return { ...READY, phase: "succeeded", paymentId };
  if (session.payment_status === "PROCESSING") return { ...READY, phase: "processing", paymentId };
  if (session.status === "EXPIRED" || session.expires_at <= now) {
    return { ...READY, phase: "expired", canRetry: false };
  }
  const lastFailed = session.payment_status === "FAILED";
  if (lockedSeconds > 0) {
    return {
      phase: "locked",
      paymentId: lastFailed ? paymentId : null,
      failureCode: lastFailed ? failureCode : null,
      canRetry: false,
      retryAfterSeconds: lockedSeconds,
    };
  }
  if (lastFailed) return { ...READY, phase: "failed", paymentId, failureCode };
  return READY;
}

/** The state of a hosted payment's page at `now`; a failed payment is final. */
export function hostedPaymentState(
  payment: { public_id: string; status: string; expires_at: number; failure_code: string | null },
  lockedSeconds: number,
  now: number,
): CheckoutState {
  const paymentId = payment.public_id;
  switch (payment.status) {
    case "SUCCEEDED":
      return { ...READY, phase: "succeeded", paymentId };
    case "PROCESSING":
      return { ...READY, phase: "processing", paymentId };
    case "FAILED":
      return {
        ...READY,
        phase: "failed",
        paymentId,
        failureCode: payment.failure_code as FailureCode | null,
        canRetry: false,
      };
    case "CANCELED":
      return { ...READY, phase: "canceled", paymentId, canRetry: false };
    case "EXPIRED":
      return { ...READY, phase: "expired", paymentId, canRetry: false };
  }
  if (payment.expires_at <= now) return { ...READY, phase: "expired", paymentId, canRetry: false };
  if (lockedSeconds > 0) {
    return {
      ...READY,
      phase: "locked",
      paymentId,
      canRetry: false,
      retryAfterSeconds: lockedSeconds,
    };
  }
  return { ...READY, paymentId };
}
