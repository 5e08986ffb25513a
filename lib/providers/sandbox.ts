import type {
  AttemptReference,
  AuthorizationAnswer,
  AuthorizationRequest,
  DoctorProblem,
  FailureCode,
  OfferedMethod,
  PaymentProvider,
  ProviderDescription,
  ProviderOutcome,
  RecurringChargeRequest,
  RecurringChargeResult,
  RecurringCharges,
  RefundAnswer,
  RefundOutcome,
  RefundRequest,
} from "./mod.ts";
import { ProviderHealth } from "./health.ts";
import { PAYU_STATEMENT } from "./payu/statement.ts";

/** The simulator's name: PAYMENT_PROVIDER's value and each of its attempts' provider. */
export const SIMULATOR_NAME = "sandbox";

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

/**
 * The simulator's banks for transfers: two that take payments and one shown as temporarily
 * unavailable, as a real bank under maintenance is.
 */
export const SANDBOX_BANKS = [
  { bank: "test_bank_a", name: "Test Bank A", status: "ENABLED" },
  { bank: "test_bank_b", name: "Test Bank B", status: "ENABLED" },
  { bank: "test_bank_c", name: "Test Bank C", status: "TEMPORARY_DISABLED" },
] as const;

/** Where the simulator sends a customer who chose a redirect method: its own "bank" page. */
export function sandboxRedirectPath(attemptId: string): string {
  return `/sandbox/redirect/${attemptId}`;
}

/** The offer metadata key that makes the sandbox decline a subscription's renewals. */
export const SANDBOX_RENEWAL_KEY = "sandboxRenewal";

/**
 * Simulates BLIK with PayU's and Adyen's test-code conventions, and transfers, cards, Google Pay
 * and Apple Pay through a page of its own (three test banks). Refunds of
 * amounts ending in 99 minor units are declined, others succeed; renewals succeed unless the
 * offer's metadata says `sandboxRenewal: "fail"`. Every answer depends only on the request, and
 * the reference it returns carries the answer, so `lookup` repeats it from any process and a
 * call repeated with the same id gets the same answer. No money moves. It posts no
 * notifications, has nothing for `doctor` or the go-live step to check, and reconciles statements
 * as PayU, production's first provider, writes them.
 */
export class SandboxProvider implements PaymentProvider {
  readonly name = SIMULATOR_NAME;
  readonly health = new ProviderHealth();
  readonly orderValidityMs: number;
  readonly renewals: RecurringCharges = {
    chargeRecurring({ metadata }: RecurringChargeRequest): Promise<RecurringChargeResult> {
      return Promise.resolve(
        metadata[SANDBOX_RENEWAL_KEY] === "fail"
          ? { status: "FAILED", failureCode: "declined" }
          : { status: "SUCCEEDED" },
      );
    },
  };

  readonly notifications = null;
  readonly statements = PAYU_STATEMENT;
  readonly status: ProviderDescription = {
    displayName: "Paystead's simulator",
    account: null,
    notifyUrl: null,
    testPayments: null,
  };
  readonly connectionTest = null;

  constructor(options: { timeoutMs?: number } = {}) {
    this.orderValidityMs = options.timeoutMs ?? SANDBOX_TIMEOUT_MS;
  }

  doctorChecks(): Promise<DoctorProblem[]> {
    return Promise.resolve([]);
  }

  paymentMethods(): Promise<OfferedMethod[]> {
    return Promise.resolve([
      { method: "blik", status: "ENABLED" },
      {
        method: "transfer",
        status: "ENABLED",
        banks: SANDBOX_BANKS.map((bank) => ({ ...bank, logoUrl: `/static/bank_${bank.bank}.svg` })),
      },
      { method: "card", status: "ENABLED" },
      { method: "google_pay", status: "ENABLED" },
      { method: "apple_pay", status: "ENABLED" },
    ]);
  }

  /**
   * A code is decided at once; any other method is an order the customer pays on the sandbox's
   * redirect page, undecided (PENDING) until they choose there (lib/payments/sandbox_redirect.ts).
   */
  authorize({ attemptId, method }: AuthorizationRequest): Promise<AuthorizationAnswer> {
    if (method.method !== "blik") {
      return Promise.resolve({
        reference: `${REFERENCE_PREFIX}PENDING:${attemptId}`,
        redirectUrl: sandboxRedirectPath(attemptId),
      });
    }
    const outcome = decide(method.code);
    return Promise.resolve({
      reference: `${REFERENCE_PREFIX}${encodeOutcome(outcome)}:${attemptId}`,
      outcome,
    });
  }

  lookup({ reference }: AttemptReference) {
    const outcome = reference ? decodeOutcome(reference) : null;
    return Promise.resolve(outcome && reference ? { reference, outcome } : null);
  }

  cancel(): Promise<void> {
    return Promise.resolve();
  }

  refund({ idempotencyKey, amount }: RefundRequest): Promise<RefundAnswer> {
    const outcome: RefundOutcome = amount % 100 === 99
      ? { status: "FAILED", failureCode: "declined" }
      : { status: "SUCCEEDED" };
    return Promise.resolve({ reference: `${REFERENCE_PREFIX}${idempotencyKey}`, outcome });
  }

  /** The simulator keeps no record: a refund it never answered does not exist. */
  lookupRefund(request: RefundRequest & { reference: string | null }) {
    return request.reference ? this.refund(request) : Promise.resolve(null);
  }
}

const REFERENCE_PREFIX = "sandbox:";

function encodeOutcome(outcome: ProviderOutcome): string {
  return outcome.status === "FAILED" ? `FAILED/${outcome.failureCode}` : outcome.status;
}

function decodeOutcome(reference: string): ProviderOutcome | null {
  if (!reference.startsWith(REFERENCE_PREFIX)) return null;
  const [status, failureCode] = reference.slice(REFERENCE_PREFIX.length).split(":")[0].split("/");
  if (status === "PENDING" || status === "SUCCEEDED") return { status };
  if (status === "FAILED") return { status, failureCode: failureCode as FailureCode };
  return null;
}

function decide(code: string): ProviderOutcome {
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
      return { status: "PENDING" };
    default:
      return { status: "FAILED", failureCode: "invalid_code" };
  }
}
