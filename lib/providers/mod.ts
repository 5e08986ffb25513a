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

/** The payment method behind Paystead; the sandbox simulator is the first implementation. */
export interface PaymentProvider {
  readonly name: string;
  /** Asks the payment method to authorise a payment with the customer's code. */
  authorize(request: AuthorizationRequest): Promise<AuthorizationResult>;
}
