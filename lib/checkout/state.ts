import type { FailureCode } from "../providers/mod.ts";

/** What a checkout page can show; the code-entry island renders one of these. */
type CheckoutPhase =
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
  /**
   * After a failure: whether another code may be tried, on the session's next payment or, on a
   * hosted page, on a new payment for the same purchase.
   */
  canRetry: boolean;
  /** While locked: seconds until codes are accepted again. */
  retryAfterSeconds: number | null;
  /**
   * While processing: about how many seconds the customer has left to confirm in the banking
   * app (BLIK gives about a minute); 0 once that is over and the bank's answer is late.
   */
  confirmSecondsLeft: number | null;
}

/** How long BLIK gives a customer to confirm a payment in the banking app, about. */
export const BANK_CONFIRM_SECONDS = 60;

/** How often a page without JavaScript reloads itself while the bank decides. */
export const NO_SCRIPT_REFRESH_SECONDS = 3;

const READY: CheckoutState = {
  phase: "ready",
  paymentId: null,
  failureCode: null,
  canRetry: true,
  retryAfterSeconds: null,
  confirmSecondsLeft: null,
};

/** The processing state, with the time left to confirm counted from when processing began. */
function processing(paymentId: string | null, processingAt: number | null, now: number) {
  const since = processingAt === null ? 0 : Math.max(0, now - processingAt);
  const left = Math.max(0, BANK_CONFIRM_SECONDS - Math.floor(since / 1000));
  return { ...READY, phase: "processing" as const, paymentId, confirmSecondsLeft: left };
}

/** The state of a checkout session's page at `now`. */
export function sessionState(
  session: {
    status: string;
    expires_at: number;
    payment_public_id: string | null;
    payment_status: string | null;
    payment_failure_code: string | null;
    payment_processing_at: number | null;
  },
  lockedSeconds: number,
  now: number,
): CheckoutState {
  const paymentId = session.payment_public_id;
  const failureCode = session.payment_failure_code as FailureCode | null;
  if (session.status === "COMPLETED") return { ...READY, phase: "succeeded", paymentId };
  if (session.payment_status === "PROCESSING") {
    return processing(paymentId, session.payment_processing_at, now);
  }
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
      confirmSecondsLeft: null,
    };
  }
  if (lastFailed) return { ...READY, phase: "failed", paymentId, failureCode };
  return READY;
}

/**
 * The state of a hosted payment's page at `now`. A failed payment is final, so `canRetry` there
 * means the page may start a new payment for the same purchase (see startPaymentAgain).
 */
export function hostedPaymentState(
  payment: {
    public_id: string;
    status: string;
    expires_at: number;
    failure_code: string | null;
    processing_at: number | null;
  },
  lockedSeconds: number,
  now: number,
): CheckoutState {
  const paymentId = payment.public_id;
  switch (payment.status) {
    case "SUCCEEDED":
      return { ...READY, phase: "succeeded", paymentId };
    case "PROCESSING":
      return processing(paymentId, payment.processing_at, now);
    case "FAILED": {
      const failureCode = payment.failure_code as FailureCode | null;
      if (lockedSeconds > 0) {
        return {
          ...READY,
          phase: "locked",
          paymentId,
          failureCode,
          canRetry: false,
          retryAfterSeconds: lockedSeconds,
        };
      }
      // A FAILED payment is final; until it would have expired, its page starts a new one.
      return {
        ...READY,
        phase: "failed",
        paymentId,
        failureCode,
        canRetry: payment.expires_at > now,
      };
    }
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
