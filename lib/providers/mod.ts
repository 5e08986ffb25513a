/** Why a payment failed; the contract's `failureCode` values. */
export const FAILURE_CODES = [
  "declined",
  "code_expired",
  "code_canceled",
  "code_already_used",
  "timeout",
  "invalid_code",
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** What the payment method answered to an authorisation. */
export type AuthorizationResult =
  | { status: "SUCCEEDED" }
  | { status: "FAILED"; failureCode: FailureCode }
  /** No answer yet: unless one arrives within `timeoutMs`, the payment fails with `timeout`. */
  | { status: "PROCESSING"; timeoutMs: number };

/** A request to take a payment with the customer's 6-digit instant-payment code. */
export interface AuthorizationRequest {
  paymentId: string;
  amount: number;
  currency: string;
  code: string;
}

/** Why the payment method refused a refund; a refund's `failureCode` values. */
export const REFUND_FAILURE_CODES = ["declined"] as const;
export type RefundFailureCode = (typeof REFUND_FAILURE_CODES)[number];

/** A request to give back (part of) a captured payment. */
export interface RefundRequest {
  /** The refund's id: a repeated call with the same key must never refund twice. */
  idempotencyKey: string;
  paymentId: string;
  amount: number;
  currency: string;
  reason: string | null;
}

/** What the payment method answered to a refund. */
export type RefundResult =
  | { status: "SUCCEEDED" }
  | { status: "FAILED"; failureCode: RefundFailureCode };

/** A merchant-initiated charge renewing a subscription, without the customer present. */
export interface RecurringChargeRequest {
  /** The renewal attempt's id: a repeated call with the same key must never charge twice. */
  idempotencyKey: string;
  paymentId: string;
  subscriptionId: string;
  amount: number;
  currency: string;
  /** The offer's metadata at the time of the charge. */
  metadata: Record<string, string>;
}

/** What the payment method answered to a recurring charge. */
export type RecurringChargeResult =
  | { status: "SUCCEEDED" }
  | { status: "FAILED"; failureCode: FailureCode };

/**
 * The payment method behind Paystead; the sandbox simulator is the first implementation.
 * A method that throws left the outcome unknown: the caller retries with the same key.
 */
export interface PaymentProvider {
  readonly name: string;
  /** Asks the payment method to authorise a payment with the customer's code. */
  authorize(request: AuthorizationRequest): Promise<AuthorizationResult>;
  /** Asks the payment method to refund part or all of a succeeded payment. */
  refund(request: RefundRequest): Promise<RefundResult>;
  /** Charges a subscription's renewal to the payment method the customer first paid with. */
  chargeRecurring(request: RecurringChargeRequest): Promise<RecurringChargeResult>;
}
