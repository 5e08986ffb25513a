import type { Environment } from "../../config_parts.ts";
import { ProviderHealth } from "../health.ts";
import {
  type AttemptReference,
  type AuthorizationAnswer,
  type AuthorizationRequest,
  type ConnectionTest,
  type DoctorProblem,
  type FailureCode,
  type OfferedMethod,
  type PaymentProvider,
  type ProviderDescription,
  type ProviderOutcome,
  type ProviderTimeouts,
  ProviderUnavailableError,
  type RefundAnswer,
  type RefundOutcome,
  type RefundRequest,
} from "../mod.ts";
import type { PayuConfig } from "./config.ts";
import { payuDoctorChecks } from "./doctor.ts";
import { type Fetch, type PayuAnswer, send } from "./http.ts";
import { payuNotifications } from "./notifications.ts";
import { methodsOf, payByLinkValue } from "./methods.ts";
import { PayuTokens } from "./oauth.ts";
import { PAYU_STATEMENT } from "./statement.ts";
import { payuTestReason } from "./test_setup.ts";
import {
  BLIK_RESULT_CODES,
  ErrorResponse,
  type OrderCreateRequest,
  OrderCreateResponse,
  OrderRetrieveResponse,
  type OrderStatus,
  PayMethodsResponse,
  Refund,
  RefundCreateResponse,
  type RefundStatus,
  type Status,
  TransactionsResponse,
} from "./wire.ts";

/** How long a BLIK order may stay undecided before it is cancelled (BLIK gives ~60 s). */
const PAYU_ORDER_VALIDITY_MS = 5 * 60_000;

/** Timeouts of the calls to PayU; tests shorten them. */
export type PayuTimeouts = ProviderTimeouts;

const DEFAULT_TIMEOUTS: PayuTimeouts = { orderMs: 8_000, callMs: 10_000 };

/** Why a BLIK order ended CANCELED, from its transaction's `resultCode`. */
const RESULT_CODE_FAILURES: Record<string, FailureCode> = {
  [BLIK_RESULT_CODES.expired]: "code_expired",
  [BLIK_RESULT_CODES.canceled]: "code_canceled",
  [BLIK_RESULT_CODES.used]: "code_already_used",
  [BLIK_RESULT_CODES.declined]: "declined",
  [BLIK_RESULT_CODES.timeout]: "timeout",
};

/** Thrown for an answer of PayU that leaves the outcome unknown (5xx, 408, a garbled body). */
class PayuAnswerError extends Error {
  constructor(what: string, answer: PayuAnswer) {
    const status = ErrorResponse.safeParse(answer.body);
    super(
      `PayU answered ${what} with HTTP ${answer.status}` +
        (status.success ? ` ${status.data.status.statusCode}` : ""),
    );
    this.name = "PayuAnswerError";
  }
}

/**
 * PayU REST API v2.1 with BLIK authorisation codes ("transparent BLIK") and pay-by-link
 * methods (banks, card, Google Pay, Apple Pay) on PayU's pages: one order per attempt,
 * `extOrderId` = the attempt id, `extRefundId` = the refund id. Its decisions arrive by
 * notification (lib/providers/payu/notifications.ts) or by `lookup`. PayU holds no token to
 * charge renewals with, so it has no `renewals`. Merchants reconcile its statements
 * (lib/providers/payu/statement.ts).
 */
export class PayuProvider implements PaymentProvider {
  readonly name = "payu";
  readonly health = new ProviderHealth();
  readonly orderValidityMs = PAYU_ORDER_VALIDITY_MS;
  readonly renewals = null;
  readonly notifications = payuNotifications(this);
  readonly statements = PAYU_STATEMENT;
  readonly status: ProviderDescription;
  readonly connectionTest = () => this.#testConnection();
  readonly config: PayuConfig;
  readonly #notifyUrl: string;
  readonly #fetch: Fetch;
  readonly #now: () => number;
  readonly #timeouts: PayuTimeouts;
  readonly #tokens: PayuTokens;

  constructor(options: {
    config: PayuConfig;
    /** Where PayU posts notifications: `{PUBLIC_URL}/providers/payu/notify`. */
    notifyUrl: string;
    fetch?: Fetch;
    now: () => number;
    timeouts?: Partial<PayuTimeouts>;
  }) {
    this.config = options.config;
    this.#notifyUrl = options.notifyUrl;
    this.#fetch = options.fetch ?? ((request) => fetch(request));
    this.#now = options.now;
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#tokens = new PayuTokens(this.config, this.#fetch, this.#now, this.#timeouts.callMs);
    this.status = {
      displayName: "PayU",
      account: { posId: this.config.posId, apiUrl: this.config.apiUrl },
      notifyUrl: this.#notifyUrl,
      testPayments: payuTestReason(this.config),
    };
  }

  doctorChecks(environment: Environment): Promise<DoctorProblem[]> {
    return payuDoctorChecks(this.config, this.#fetch, environment);
  }

  async paymentMethods(_currency: string, language: "pl" | "en"): Promise<OfferedMethod[]> {
    // PayU's POS has one currency: its methods are what it offers, whatever was asked.
    const answer = await this.#call("GET", `/api/v2_1/paymethods?lang=${language}`);
    const parsed = PayMethodsResponse.safeParse(answer.body);
    if (answer.status !== 200 || !parsed.success) {
      throw new PayuAnswerError("the payment methods", answer);
    }
    return methodsOf(parsed.data.payByLinks);
  }

  /**
   * One order per attempt. A BLIK code goes with the order (transparent BLIK) and PayU decides;
   * any other method is an order whose `redirectUri` (read from the answer, never followed) is
   * the page the customer pays on, with `continueUrl` to come back.
   */
  async authorize(request: AuthorizationRequest): Promise<AuthorizationAnswer> {
    const { method } = request;
    const order: OrderCreateRequest = {
      notifyUrl: this.#notifyUrl,
      customerIp: request.customerIp,
      merchantPosId: this.config.posId,
      description: request.description,
      currencyCode: request.currency,
      totalAmount: String(request.amount),
      extOrderId: request.attemptId,
      ...((request.buyerEmail !== null || method.method !== "blik") && {
        buyer: {
          ...(request.buyerEmail !== null && { email: request.buyerEmail }),
          // PayU's pages speak the customer's language; a BLIK code never shows one.
          ...(method.method !== "blik" && { language: request.language }),
        },
      }),
      products: request.products.map((line) => ({
        name: line.name,
        unitPrice: String(line.unitPrice),
        quantity: String(line.quantity),
      })),
      payMethods: {
        payMethod: method.method === "blik"
          ? { type: "PBL", value: "blik", authorizationCode: method.code }
          : { type: "PBL", value: payByLinkValue(method) },
      },
      ...(method.method !== "blik" && {
        continueUrl: request.returnUrl,
        validityTime: String(request.validForSeconds),
      }),
    };
    const answer = await this.#call("POST", "/api/v2_1/orders", order, this.#timeouts.orderMs);
    if (answer.status === 201 || answer.status === 200 || answer.status === 302) {
      const created = OrderCreateResponse.safeParse(answer.body);
      if (!created.success) throw new PayuAnswerError("the order", answer);
      if (method.method !== "blik") {
        if (created.data.redirectUri === undefined) throw new PayuAnswerError("the order", answer);
        return { reference: created.data.orderId, redirectUrl: created.data.redirectUri };
      }
      // A POS without transparent BLIK answers 302 towards PayU's page: the order exists, and is
      // cancelled at its validity like any undecided order.
      return { reference: created.data.orderId, outcome: { status: "PENDING" } };
    }
    const failure = orderRefusal(answer);
    if (failure === null) throw new PayuAnswerError("the order", answer);
    return { reference: null, outcome: { status: "FAILED", failureCode: failure } };
  }

  async lookup(attempt: AttemptReference) {
    const path = attempt.reference === null
      ? `/api/v2_1/orders/ext/${encodeURIComponent(attempt.attemptId)}`
      : `/api/v2_1/orders/${encodeURIComponent(attempt.reference)}`;
    const answer = await this.#call("GET", path);
    if (answer.status === 404) return null;
    const parsed = OrderRetrieveResponse.safeParse(answer.body);
    if (answer.status !== 200 || !parsed.success) throw new PayuAnswerError("the order", answer);
    // By extOrderId PayU lists every order with it; Paystead never makes more than one.
    const order = parsed.data.orders.at(-1);
    if (!order) return null;
    return {
      reference: order.orderId,
      outcome: await this.outcomeOf(order.orderId, order.status),
    };
  }

  async cancel(attempt: AttemptReference): Promise<void> {
    const orderId = attempt.reference ?? (await this.lookup(attempt))?.reference;
    if (!orderId) return;
    const answer = await this.#call("DELETE", `/api/v2_1/orders/${encodeURIComponent(orderId)}`);
    if (answer.status !== 200) throw new PayuAnswerError("the cancellation", answer);
  }

  async refund(request: RefundRequest): Promise<RefundAnswer> {
    if (request.paymentReference === null) {
      throw new Error(`The payment ${request.paymentId} has no PayU order to refund.`);
    }
    const answer = await this.#call(
      "POST",
      `/api/v2_1/orders/${encodeURIComponent(request.paymentReference)}/refunds`,
      {
        refund: {
          description: request.reason ?? `Refund of ${request.paymentId}`,
          amount: String(request.amount),
          extRefundId: request.idempotencyKey,
        },
      },
    );
    if (answer.status === 200) {
      const created = RefundCreateResponse.safeParse(answer.body);
      if (!created.success) throw new PayuAnswerError("the refund", answer);
      return {
        reference: created.data.refund.refundId,
        outcome: refundOutcome(created.data.refund.status),
      };
    }
    // PayU refused it (nothing left to refund, amount too big, order not completed): final.
    if (answer.status === 400 || answer.status === 403 || answer.status === 404) {
      return { reference: null, outcome: { status: "FAILED", failureCode: "declined" } };
    }
    throw new PayuAnswerError("the refund", answer);
  }

  async lookupRefund(request: RefundRequest & { reference: string | null }) {
    if (request.paymentReference === null || request.reference === null) return null;
    const answer = await this.#call(
      "GET",
      `/api/v2_1/orders/${encodeURIComponent(request.paymentReference)}/refunds/${
        encodeURIComponent(request.reference)
      }`,
    );
    if (answer.status === 404) return null;
    const refund = Refund.safeParse(answer.body);
    if (answer.status !== 200 || !refund.success) throw new PayuAnswerError("the refund", answer);
    return { reference: refund.data.refundId, outcome: refundOutcome(refund.data.status) };
  }

  /**
   * Our outcome of an order in `status`. A CANCELED order's reason is its BLIK transaction's
   * `resultCode`; an order cancelled without one (its validity ran out) timed out.
   */
  async outcomeOf(orderId: string, status: OrderStatus): Promise<ProviderOutcome> {
    if (status === "COMPLETED") return { status: "SUCCEEDED" };
    if (status !== "CANCELED") return { status: "PENDING" };
    const answer = await this.#call(
      "GET",
      `/api/v2_1/orders/${encodeURIComponent(orderId)}/transactions`,
    );
    const parsed = TransactionsResponse.safeParse(answer.body);
    if (answer.status !== 200 || !parsed.success) {
      return { status: "FAILED", failureCode: "declined" };
    }
    const resultCode = parsed.data.transactions.find((t) => t.resultCode)?.resultCode;
    if (resultCode === undefined) return { status: "FAILED", failureCode: "timeout" };
    return { status: "FAILED", failureCode: RESULT_CODE_FAILURES[resultCode] ?? "declined" };
  }

  /**
   * A real OAuth token request to PAYU_API_URL through this adapter, the go-live step's
   * connection test, so the answer is exactly what a payment would meet: PAYU_API_URL reachable,
   * the POS's credentials accepted. The token's lifetime, or what PayU answered instead.
   */
  async #testConnection(): Promise<ConnectionTest> {
    const apiUrl = this.config.apiUrl;
    try {
      const expiresInSeconds = await this.#tokens.renew();
      this.health.recordSuccess(this.#now());
      return { ok: true, apiUrl, expiresInSeconds };
    } catch (error) {
      if (!(error instanceof ProviderUnavailableError)) throw error;
      return { ok: false, apiUrl, message: error.message };
    }
  }

  /** Calls PayU with a bearer token; on 401 fetches a new token once and calls again. */
  async #call(
    method: string,
    path: string,
    body?: unknown,
    timeoutMs = this.#timeouts.callMs,
  ): Promise<PayuAnswer> {
    for (let attempt = 0;; attempt++) {
      const token = await this.#tokens.get();
      const answer = await send(this.#fetch, {
        url: `${this.config.apiUrl}${path}`,
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }, timeoutMs);
      if (answer.status === 401) {
        this.#tokens.invalidate(token);
        // NOTE: PayU refuses a stale token before doing anything, so calling again is safe.
        if (attempt === 0) continue;
        throw new ProviderUnavailableError(
          "PayU refused a fresh token; check the POS's OAuth credentials.",
        );
      }
      if (answer.status < 500 && answer.status !== 408) this.health.recordSuccess(this.#now());
      return answer;
    }
  }
}

/**
 * Why PayU refused a BLIK code when the order was created, from the answer's `codeLiteral`,
 * `statusDesc` or `code`: PayU's docs show refused codes as orders cancelled with a transaction
 * `resultCode`, but an answer may name the same reasons at once. The exact result codes, or a
 * literal about the (authorization or BLIK) code that says expired, cancelled, used or invalid.
 */
export function codeRefusal(status: Status): FailureCode | null {
  for (const text of [status.codeLiteral, status.statusDesc, status.code]) {
    if (text === undefined) continue;
    const exact = RESULT_CODE_FAILURES[text];
    if (exact !== undefined) return exact;
    const words = text.toUpperCase().replace(/[^A-Z]+/g, "_");
    if (!/AUTH(ORIZATION)?_?CODE|BLIK/.test(words)) continue;
    if (/EXPIRED/.test(words)) return "code_expired";
    if (/CANCEL/.test(words)) return "code_canceled";
    if (/_USED|ALREADY/.test(words)) return "code_already_used";
    if (/INVALID|INCORRECT|WRONG|UNKNOWN/.test(words)) return "invalid_code";
  }
  return null;
}

/** The failure code of an order PayU refused outright (no order made); null if not a refusal. */
function orderRefusal(answer: PayuAnswer): FailureCode | null {
  const error = ErrorResponse.safeParse(answer.body);
  if (answer.status === 400 && error.success) {
    if (error.data.status.statusCode === "ERROR_ORDER_NOT_UNIQUE") return null;
    return codeRefusal(error.data.status) ?? "provider_rejected";
  }
  if (answer.status === 403 || answer.status === 404) return "provider_rejected";
  return null;
}

/** Our outcome of a PayU refund status: FINALIZED and CANCELED are final, the rest pending. */
export function refundOutcome(status: RefundStatus): RefundOutcome {
  if (status === "FINALIZED") return { status: "SUCCEEDED" };
  if (status === "CANCELED") return { status: "FAILED", failureCode: "declined" };
  return { status: "PENDING" };
}
