import type { Environment } from "../config_parts.ts";
import type { StatementDialect } from "../reconciliations/statement.ts";
import type { ProviderHealth } from "./health.ts";

/** Why a payment failed; the contract's `failureCode` values. */
export const FAILURE_CODES = [
  "declined",
  "code_expired",
  "code_canceled",
  "code_already_used",
  "timeout",
  "invalid_code",
  /** The provider could not be reached; nothing was sent, and a new code may be tried. */
  "provider_unavailable",
  /** The provider refused the order itself (its configuration, the amount or currency). */
  "provider_rejected",
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** What the provider says about an attempt: still deciding, or its final answer. */
export type ProviderOutcome =
  | { status: "PENDING" }
  | { status: "SUCCEEDED" }
  | { status: "FAILED"; failureCode: FailureCode };

/** How a customer pays (`paymentMethod`): the BLIK code on Paystead's page, or at the provider. */
export const PAYMENT_METHODS = ["blik", "transfer", "card", "google_pay", "apple_pay"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** The methods paid on the provider's (or the bank's) page. */
export type RedirectMethod = Exclude<PaymentMethod, "blik">;

/** Whether a method is paid with a code on Paystead's page or on a page the customer is sent to. */
export function flowOf(method: PaymentMethod): "code" | "redirect" {
  return method === "blik" ? "code" : "redirect";
}

/** What the customer chose for an attempt: a BLIK code, a bank to transfer from, or a method. */
export type MethodChoice =
  | { method: "blik"; code: string }
  | { method: "transfer"; bank: string }
  | { method: Exclude<RedirectMethod, "transfer"> };

/** The bank a choice names, null for any method but a transfer. */
export function bankOf(choice: MethodChoice): string | null {
  return choice.method === "transfer" ? choice.bank : null;
}

/** Whether a provider offers a method (or bank) now; a DISABLED one is never shown. */
export type OfferStatus = "ENABLED" | "TEMPORARY_DISABLED" | "DISABLED";

/** A bank of pay-by-link transfers, as the provider offers it. */
export interface OfferedBank {
  /** The provider's code of the bank, sent back in a choice. */
  bank: string;
  name: string;
  logoUrl: string | null;
  status: OfferStatus;
  /** Minor units; undefined: no bound. */
  minAmount?: number;
  maxAmount?: number;
}

/** A method the provider offers, with its banks for `transfer`. */
export interface OfferedMethod {
  method: PaymentMethod;
  status: OfferStatus;
  minAmount?: number;
  maxAmount?: number;
  banks?: OfferedBank[];
}

/** A line of what the customer pays for, as the provider shows it. */
interface ProductLine {
  name: string;
  unitPrice: number;
  quantity: number;
}

/** A request to take a payment by the method the customer chose. */
export interface AuthorizationRequest {
  /** This attempt's id: the provider's external order id, so a repeat is recognised. */
  attemptId: string;
  paymentId: string;
  amount: number;
  currency: string;
  method: MethodChoice;
  description: string;
  /** The customer's address, as the request reached us through trusted proxies. */
  customerIp: string;
  buyerEmail: string | null;
  products: ProductLine[];
  /** The language of the page the customer paid on; a provider's page speaks it too. */
  language: "pl" | "en";
  /** Where a redirect method sends the customer back: `/pay/{paymentId}/return`. */
  returnUrl: string;
  /** How long a redirect method's order may wait for the customer, in seconds. */
  validForSeconds: number;
}

/**
 * The provider's first answer to an authorisation: an outcome (a code's), or the page to send the
 * customer to (a redirect method's), the attempt undecided until the provider says.
 */
export type AuthorizationAnswer =
  | {
    /** The provider's id of the order, when it made one. */
    reference: string | null;
    outcome: ProviderOutcome;
  }
  | { reference: string | null; redirectUrl: string };

/** An attempt as the provider knows it: our id and, once answered, the provider's. */
export interface AttemptReference {
  attemptId: string;
  reference: string | null;
}

/** Thrown when the provider could not be reached before anything was sent: nothing happened. */
export class ProviderUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ProviderUnavailableError";
  }
}

/** Why the payment method refused a refund; a refund's `failureCode` values. */
export const REFUND_FAILURE_CODES = ["declined"] as const;
export type RefundFailureCode = (typeof REFUND_FAILURE_CODES)[number];

/** A request to give back (part of) a captured payment. */
export interface RefundRequest {
  /** The refund's id: the provider's external refund id, so it is never refunded twice. */
  idempotencyKey: string;
  paymentId: string;
  /** The attempt whose money is given back: the provider's external order id. */
  attemptId: string;
  /** The provider's id of the order that took the money (that attempt's). */
  paymentReference: string | null;
  amount: number;
  currency: string;
  reason: string | null;
}

/** What the provider says about a refund. */
export type RefundOutcome =
  | { status: "PENDING" }
  | { status: "SUCCEEDED" }
  | { status: "FAILED"; failureCode: RefundFailureCode };

/** The provider's answer about a refund, with its id of the refund. */
export interface RefundAnswer {
  reference: string | null;
  outcome: RefundOutcome;
}

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

/** The capability to charge renewals without the customer (tokens, mandates). */
export interface RecurringCharges {
  /** Charges a subscription's renewal to the payment method the customer first paid with. */
  chargeRecurring(request: RecurringChargeRequest): Promise<RecurringChargeResult>;
}

/** How an adapter reaches its provider over HTTP; tests pass a fake's `fetch`. */
export type Fetch = (request: Request) => Promise<Response>;

/** Timeouts of the calls to a provider; tests shorten them. */
export interface ProviderTimeouts {
  /** Creating an order: short, the customer waits ("confirm in your banking app"). */
  orderMs: number;
  /** Every other call (token, status, cancel, refunds). */
  callMs: number;
}

/** A callback as the provider posted it: the headers and the raw body its signature covers. */
export interface ProviderCallback {
  headers: Headers;
  body: string;
}

/**
 * What a verified callback says, as a provider translates it (it applies nothing itself): an
 * attempt's outcome with what the core must check against the attempt, a refund's outcome, or
 * nothing to apply (not understood or about nothing we sent; accepted so it is not repeated).
 */
export type CallbackTranslation =
  | { kind: "forged" }
  | { kind: "ignored" }
  /** Signed, but not for this merchant (`field` is "merchant"): counted, logged, never applied. */
  | { kind: "rejected"; field: string; attemptId: string; reference: string }
  | {
    kind: "attempt";
    attemptId: string;
    /** The provider's id of the order; it must equal the attempt's stored one, once known. */
    reference: string;
    /** The amount (minor units) and currency notified, checked against the payment. */
    amount: number;
    currency: string;
    /**
     * The outcome, asked only once the checks hold (it may call the provider, as a reason of a
     * cancellation or a mandatory confirmation of the money).
     */
    outcome(): Promise<ProviderOutcome>;
  }
  | { kind: "refund"; refundId: string | null; reference: string; outcome: RefundOutcome };

/** How a provider's callbacks (`POST /providers/{name}/notify`) are verified and translated. */
export interface ProviderNotifications {
  /** The largest body accepted; a larger one is refused before it is read. */
  readonly maxBytes: number;
  /** What the 401 says when a callback's signature does not hold. */
  readonly signatureProblem: string;
  /** Verifies a callback and says what it means; "forged" when its signature does not hold. */
  translate(callback: ProviderCallback, now: number): Promise<CallbackTranslation>;
}

/** Why a production configuration takes no real money: the variable and what it points at. */
export type TestPayments =
  | { kind: "host"; setting: string; host: string }
  | { kind: "pos"; setting: string; posId: string };

/** What the panel's provider status and go-live step show of a provider besides its health. */
export interface ProviderDescription {
  /** Its name as merchants know it ("PayU"), put into the panel's sentences. */
  displayName: string;
  /** The merchant's point of sale and the API it is reached at; null for the simulator. */
  account: { posId: string; apiUrl: string } | null;
  /** The URL to register for its notifications; null when it posts none. */
  notifyUrl: string | null;
  /** Why it takes no real money even in production; null when it may take real money. */
  testPayments: TestPayments | null;
}

/** What the go-live step's connection test found, against the API at `apiUrl`. */
export type ConnectionTest =
  | { ok: true; apiUrl: string; expiresInSeconds: number }
  | { ok: false; apiUrl: string; message: string };

/** One thing `doctor` found wrong, and how to fix it; a note is worth knowing but nothing to fix. */
export interface DoctorProblem {
  what: string;
  fix: string;
  note?: true;
}

/**
 * The payment method behind Paystead. Every real acquirer answers "pending" and decides later:
 * its decision reaches `applyAttemptOutcome` (lib/payments/outcome.ts) from a verified
 * notification or from `lookup`, whichever comes first. A method that throws anything but
 * `ProviderUnavailableError` left the outcome unknown: the caller asks again with `lookup`.
 * A second provider is a folder under lib/providers/ implementing this interface and named in
 * lib/config.ts's provider list (docs/providers.md).
 */
export interface PaymentProvider {
  /** PAYMENT_PROVIDER's value; its callbacks come to `/providers/{name}/notify`. */
  readonly name: string;
  /** When the provider last answered and last notified (shown in the panel). */
  readonly health: ProviderHealth;
  /** How long an order may stay undecided before it is cancelled and the payment times out. */
  readonly orderValidityMs: number;
  /** Renewals without the customer, or null when the provider cannot charge them. */
  readonly renewals: RecurringCharges | null;
  /** Its signed callbacks, or null when it posts none (the simulator decides at once). */
  readonly notifications: ProviderNotifications | null;
  /** How its operation statements read, for reconciliation; null when it has none. */
  readonly statements: StatementDialect | null;
  /** What the panel shows of it. */
  readonly status: ProviderDescription;
  /** The go-live step's live check of its credentials; null when there is nothing to check. */
  readonly connectionTest: (() => Promise<ConnectionTest>) | null;
  /** The checks `doctor` runs on it in `environment` (its credentials, a test setup). */
  doctorChecks(environment: Environment): Promise<DoctorProblem[]>;
  /** The methods it offers now in `currency`, bank names in `language` (cached by the caller). */
  paymentMethods(currency: string, language: "pl" | "en"): Promise<OfferedMethod[]>;
  /** Sends the customer's choice to the provider: a code to charge, or an order to pay at its page. */
  authorize(request: AuthorizationRequest): Promise<AuthorizationAnswer>;
  /** Asks what became of an attempt; null when the provider has no order for it. */
  lookup(
    attempt: AttemptReference,
  ): Promise<{ reference: string; outcome: ProviderOutcome } | null>;
  /**
   * Gives up an undecided order: past its validity, or a redirect method's the customer left
   * for another attempt. Throws when the provider refused (the order may be paid: ask `lookup`).
   */
  cancel(attempt: AttemptReference): Promise<void>;
  /** Asks the provider to refund part or all of a succeeded payment. */
  refund(request: RefundRequest): Promise<RefundAnswer>;
  /** Asks what became of a refund sent before; null when the provider has none with its id. */
  lookupRefund(request: RefundRequest & { reference: string | null }): Promise<RefundAnswer | null>;
}
