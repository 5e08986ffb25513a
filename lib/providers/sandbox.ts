import type {
  AuthorizationRequest,
  AuthorizationResult,
  PaymentProvider,
  RecurringChargeRequest,
  RecurringChargeResult,
  RefundRequest,
  RefundResult,
} from "./mod.ts";

/** How long the `600600` code leaves a payment processing before it times out. */
export const SANDBOX_TIMEOUT_MS = 10_000;

/** The sandbox's test codes, for the hosted page and the docs: code, result, failure code. */
export const SANDBOX_TEST_CODES = [
  { code: "777xxx", example: "777123", result: "SUCCEEDED", failureCode: null },
  { code: "500500", example: "500500", result: "FAILED", failureCode: "declined" },
  { code: "700701", example: "700701", result: "FAILED", failureCode: "code_expired" },
  { code: "700702", example: "700702", result: "FAILED", failureCode: "code_canceled" },
  { code: "700703", example: "700703", result: "FAILED", failureCode: "code_already_used" },
  { code: "600600", example: "600600", result: "PROCESSING, then FAILED", failureCode: "timeout" },
  { code: "other", example: "123456", result: "FAILED", failureCode: "invalid_code" },
] as const;

/** The offer metadata key that makes the sandbox decline a subscription's renewals. */
export const SANDBOX_RENEWAL_KEY = "sandboxRenewal";

/**
 * Simulates an instant-payment method with PayU's and Adyen's test-code conventions. Refunds of
 * amounts ending in 99 minor units are declined, others succeed; renewals succeed unless the
 * offer's metadata says `sandboxRenewal: "fail"`. Every answer depends only on the request, so
 * a call repeated with the same idempotency key gets the same answer, and no money moves.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = "sandbox";
  readonly #timeoutMs: number;

  constructor(options: { timeoutMs?: number } = {}) {
    this.#timeoutMs = options.timeoutMs ?? SANDBOX_TIMEOUT_MS;
  }

  authorize({ code }: AuthorizationRequest): Promise<AuthorizationResult> {
    return Promise.resolve(this.#decide(code));
  }

  refund({ amount }: RefundRequest): Promise<RefundResult> {
    return Promise.resolve(
      amount % 100 === 99 ? { status: "FAILED", failureCode: "declined" } : { status: "SUCCEEDED" },
    );
  }

  chargeRecurring({ metadata }: RecurringChargeRequest): Promise<RecurringChargeResult> {
    return Promise.resolve(
      metadata[SANDBOX_RENEWAL_KEY] === "fail"
        ? { status: "FAILED", failureCode: "declined" }
        : { status: "SUCCEEDED" },
    );
  }

  #decide(code: string): AuthorizationResult {
    if (/^777\d{3}$/.test(code)) return { status: "SUCCEEDED" };
    switch (code) {
      case "500500":
        return { status: "FAILED", failureCode: "declined" };
      case "700701":
        return { status: "FAILED", failureCode: "code_expired" };
      case "700702":
        return { status: "FAILED", failureCode: "code_canceled" };
      case "700703":
        return { status: "FAILED", failureCode: "code_already_used" };
      case "600600":
        return { status: "PROCESSING", timeoutMs: this.#timeoutMs };
      default:
        return { status: "FAILED", failureCode: "invalid_code" };
    }
  }
}
