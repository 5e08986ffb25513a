/**
 * Creating an order (`POST /api/v2_1/orders`): 201 for a BLIK code, decided later by PayU's
 * sandbox codes; 302 with `redirectUri` for a method chosen in the shop or PayU's pay wall.
 */
import { type FakeContext, payuError, type Reply, validationError } from "./context.ts";
import { settleOrder } from "./order_status.ts";
import { outcomeOf } from "./outcomes.ts";
import { unavailability } from "./paymethods.ts";
import { type FakeOrder, newOrderId, type OrderFlow } from "./state.ts";
import {
  BLIK_RESULT_CODES,
  INVALID_AUTH_FOR_THIS_ORDER,
  INVALID_BLIK_CODE,
  OrderCreateRequest,
  type PayMethod,
} from "./wire.ts";

/** PayU's default `validityTime` (OpenAPI: "Default value 86400"). */
const DEFAULT_VALIDITY_SECONDS = "86400";
/** setTimeout's longest delay; a longer validity is cut to it (about 24 days). */
const MAX_TIMER_MS = 2_147_483_647;
/** The transaction currencies PayU settles 1:1 ("Integration References"). */
const CURRENCIES = new Set([
  "PLN",
  "EUR",
  "CZK",
  "USD",
  "GBP",
  "HUF",
  "RON",
  "CHF",
  "DKK",
  "NOK",
  "SEK",
]);

/** What the order's payMethods asks for. */
type Intent =
  | { flow: "blik"; code: string; type: string }
  | { flow: "redirect"; value: string }
  | { flow: "paywall" };

/** Answers POST /api/v2_1/orders. The order is stored before any (slow) answer leaves. */
export function createOrder(ctx: FakeContext, raw: unknown): Reply {
  const parsed = OrderCreateRequest.safeParse(raw);
  if (!parsed.success) return validationError(parsed.error, raw);
  const request = parsed.data;
  if (request.merchantPosId !== ctx.credentials.posId) {
    return payuError("ERROR_VALUE_INVALID", "Invalid merchantPosId for this authorization", {
      httpStatus: 403,
      codeLiteral: INVALID_AUTH_FOR_THIS_ORDER,
    });
  }
  const intent = intentOf(request.payMethods?.payMethod);
  if ("status" in intent) return intent;
  if (intent.flow === "blik" && !/^\d{6}$/.test(intent.code)) {
    return payuError("ERROR_VALUE_INVALID", INVALID_BLIK_CODE);
  }
  if (!CURRENCIES.has(request.currencyCode)) {
    return payuError("ERROR_VALUE_INVALID", "Invalid value of field: currencyCode");
  }
  if (/^0+$/.test(request.totalAmount)) {
    return payuError("ERROR_VALUE_INVALID", "Invalid value of field: totalAmount");
  }
  if (intent.flow === "redirect") {
    const why = unavailability(ctx, intent.value, Number(request.totalAmount));
    if (why !== null) return unavailable(why);
  }
  // NOTE: an extOrderId is unique per POS: a repeated create is refused, never a second charge.
  if (
    request.extOrderId !== undefined &&
    ctx.state.ordersByExtId(request.merchantPosId, request.extOrderId).length > 0
  ) {
    return payuError("ERROR_ORDER_NOT_UNIQUE", "Order already exists");
  }
  const refusal = intent.flow === "blik" ? outcomeOf(intent.code) : null;
  if (refusal?.kind === "canceled" && ctx.switches().codeRefusals === "create") {
    return payuError("ERROR_VALUE_INVALID", "The BLIK authorization code was refused", {
      codeLiteral: refusal.resultCode,
    });
  }
  const order = newOrder(ctx, request, intent);
  ctx.state.orders.set(order.orderId, order);
  scheduleExpiry(ctx, order);
  const ids = {
    orderId: order.orderId,
    ...(order.extOrderId === undefined ? {} : { extOrderId: order.extOrderId }),
  };
  if (intent.flow !== "blik") {
    // PayU: "The HTTP status code of the response is 302 and Location header is set to
    // redirectUri" (developers.payu.com, REST API, "Creating a new order").
    const redirectUri = `${ctx.baseUrl()}/pay/?orderId=${order.orderId}&token=${order.pageToken}`;
    return {
      status: 302,
      headers: { location: redirectUri },
      body: { status: { statusCode: "SUCCESS" }, redirectUri, ...ids },
    };
  }
  ctx.notifier.order(order);
  scheduleOutcome(ctx, order, intent.code);
  return { status: 201, body: { status: { statusCode: "SUCCESS" }, ...ids } };
}

/** Reads payMethods: a BLIK code in either documented shape, a PBL value, or the pay wall. */
function intentOf(method: PayMethod | undefined): Intent | Reply {
  if (method === undefined || method.type === "PAYMENT_WALL") return { flow: "paywall" };
  if (method.type === "BLIK_AUTHORIZATION_CODE") {
    if (method.value === undefined) return missing("payMethods.payMethod.value");
    return { flow: "blik", code: method.value, type: method.type };
  }
  if (method.type !== "PBL") {
    return payuError(
      "ERROR_VALUE_INVALID",
      `Invalid value of field: payMethods.payMethod.type (the fake has no ${method.type})`,
    );
  }
  if (method.value === undefined) return missing("payMethods.payMethod.value");
  if (method.value === "blik" && method.authorizationCode !== undefined) {
    return { flow: "blik", code: method.authorizationCode, type: "PBL" };
  }
  return { flow: "redirect", value: method.value };
}

function newOrder(ctx: FakeContext, request: OrderCreateRequest, intent: Intent): FakeOrder {
  const now = ctx.now();
  const flow: OrderFlow = intent.flow;
  return {
    orderId: newOrderId(now),
    ...(request.extOrderId === undefined ? {} : { extOrderId: request.extOrderId }),
    merchantPosId: request.merchantPosId,
    orderCreateDate: new Date(now).toISOString(),
    ...(request.notifyUrl === undefined ? {} : { notifyUrl: request.notifyUrl }),
    ...(request.continueUrl === undefined ? {} : { continueUrl: request.continueUrl }),
    customerIp: request.customerIp,
    description: request.description,
    currencyCode: request.currencyCode,
    totalAmount: request.totalAmount,
    validityTime: request.validityTime ?? DEFAULT_VALIDITY_SECONDS,
    ...(request.buyer === undefined ? {} : { buyer: request.buyer }),
    products: request.products,
    flow,
    payMethodType: intent.flow === "blik"
      ? intent.type
      : intent.flow === "redirect"
      ? "PBL"
      : "PAYMENT_WALL",
    payMethodValue: intent.flow === "blik"
      ? "blik"
      : intent.flow === "redirect"
      ? intent.value
      : null,
    authorizationCode: intent.flow === "blik" ? intent.code : null,
    pageToken: crypto.randomUUID(),
    bankOutcome: null,
    status: intent.flow === "blik" ? "PENDING" : "NEW",
    resultCode: null,
    paymentId: null,
    localReceiptDateTime: null,
  };
}

function missing(field: string): Reply {
  return payuError("ERROR_VALUE_MISSING", `Missing required field: ${field}`);
}

function unavailable(why: NonNullable<ReturnType<typeof unavailability>>): Reply {
  const desc = why === "unknown"
    ? "Invalid value of field: payMethods.payMethod.value"
    : why === "amount"
    ? "The amount is outside the pay method's limits"
    : `The pay method is ${why}`;
  return payuError("ERROR_VALUE_INVALID", desc);
}

function scheduleOutcome(ctx: FakeContext, order: FakeOrder, code: string): void {
  const outcome = outcomeOf(code);
  const { notifyDelayMs, confirmTimeoutMs } = ctx.switches();
  if (outcome.kind === "completed") {
    ctx.timers.after(notifyDelayMs, () => settleOrder(ctx, order.orderId, "COMPLETED", null));
  } else if (outcome.kind === "canceled") {
    ctx.timers.after(
      notifyDelayMs,
      () => settleOrder(ctx, order.orderId, "CANCELED", outcome.resultCode),
    );
  } else if (confirmTimeoutMs !== null) {
    ctx.timers.after(
      confirmTimeoutMs,
      () => settleOrder(ctx, order.orderId, "CANCELED", BLIK_RESULT_CODES.timeout),
    );
  }
}

/** An order still undecided when its validityTime ends is cancelled, as PayU does. */
function scheduleExpiry(ctx: FakeContext, order: FakeOrder): void {
  const ms = Math.min(Number(order.validityTime) * 1000, MAX_TIMER_MS);
  ctx.timers.after(ms, () => settleOrder(ctx, order.orderId, "CANCELED", null), {
    background: true,
  });
}
