/**
 * Orders: create (201 with a BLIK code, 302 without), retrieve by orderId or extOrderId, cancel,
 * transactions, and the delayed outcome PayU's sandbox codes decide.
 */
import {
  BLIK_RESULT_CODES,
  blikCodeOf,
  FINAL_ORDER_STATUSES,
  INVALID_AUTH_FOR_THIS_ORDER,
  INVALID_BLIK_CODE,
  OrderCreateRequest,
} from "../wire.ts";
import { type FakeContext, notFound, payuError, type Reply, validationError } from "./context.ts";
import { outcomeOf } from "./outcomes.ts";
import { type FakeOrder, newNumericId, newOrderId, propertiesOf, toWireOrder } from "./state.ts";

const DEFAULT_VALIDITY_SECONDS = "86400";
/** setTimeout's longest delay; a longer validity is cut to it (about 24 days). */
const MAX_TIMER_MS = 2_147_483_647;
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
  const code = blikCodeOf(request);
  if (code !== null && !/^\d{6}$/.test(code)) {
    return payuError("ERROR_VALUE_INVALID", INVALID_BLIK_CODE);
  }
  if (!CURRENCIES.has(request.currencyCode)) {
    return payuError("ERROR_VALUE_INVALID", "Invalid value of field: currencyCode");
  }
  if (request.totalAmount === "0" || /^0+$/.test(request.totalAmount)) {
    return payuError("ERROR_VALUE_INVALID", "Invalid value of field: totalAmount");
  }
  // NOTE: an extOrderId is unique per POS: a repeated create is refused, never a second charge.
  if (
    request.extOrderId !== undefined &&
    ctx.state.ordersByExtId(request.merchantPosId, request.extOrderId).length > 0
  ) {
    return payuError("ERROR_ORDER_NOT_UNIQUE", "Order already exists");
  }
  const refusal = code === null ? null : outcomeOf(code);
  if (refusal?.kind === "canceled" && ctx.switches().codeRefusals === "create") {
    return payuError("ERROR_VALUE_INVALID", "The BLIK authorization code was refused", {
      codeLiteral: refusal.resultCode,
    });
  }
  const now = ctx.now();
  const order: FakeOrder = {
    orderId: newOrderId(now),
    ...(request.extOrderId === undefined ? {} : { extOrderId: request.extOrderId }),
    merchantPosId: request.merchantPosId,
    orderCreateDate: new Date(now).toISOString(),
    ...(request.notifyUrl === undefined ? {} : { notifyUrl: request.notifyUrl }),
    customerIp: request.customerIp,
    description: request.description,
    currencyCode: request.currencyCode,
    totalAmount: request.totalAmount,
    validityTime: request.validityTime ?? DEFAULT_VALIDITY_SECONDS,
    ...(request.buyer === undefined ? {} : { buyer: request.buyer }),
    products: request.products,
    payMethodType: request.payMethods?.payMethod.type ?? "PBL",
    authorizationCode: code,
    status: code === null ? "NEW" : "PENDING",
    resultCode: null,
    paymentId: null,
    localReceiptDateTime: null,
  };
  ctx.state.orders.set(order.orderId, order);
  scheduleExpiry(ctx, order);
  const ids = {
    orderId: order.orderId,
    ...(order.extOrderId === undefined ? {} : { extOrderId: order.extOrderId }),
  };
  if (code === null) {
    const redirectUri = `${ctx.baseUrl()}/pl/standard/co/summary?orderId=${order.orderId}`;
    return {
      status: 302,
      headers: { location: redirectUri },
      body: { status: { statusCode: "SUCCESS" }, redirectUri, ...ids },
    };
  }
  ctx.notifier.order(order);
  scheduleOutcome(ctx, order, code);
  return { status: 201, body: { status: { statusCode: "SUCCESS" }, ...ids } };
}

/** Answers GET /api/v2_1/orders/{orderId}. */
export function retrieveOrder(ctx: FakeContext, orderId: string): Reply {
  const order = ctx.state.orders.get(orderId);
  if (!order) return notFound(`order ${orderId}`);
  return retrieved([order]);
}

/** Answers GET /api/v2_1/orders/ext/{extOrderId}: every order of the POS with that id. */
export function retrieveByExtOrderId(ctx: FakeContext, extOrderId: string): Reply {
  const orders = ctx.state.ordersByExtId(ctx.credentials.posId, extOrderId);
  if (orders.length === 0) return notFound(`order with extOrderId ${extOrderId}`);
  return retrieved(orders);
}

/** Answers DELETE /api/v2_1/orders/{orderId}: an undecided order becomes CANCELED. */
export function cancelOrder(ctx: FakeContext, orderId: string): Reply {
  const order = ctx.state.orders.get(orderId);
  if (!order) return notFound(`order ${orderId}`);
  if (order.status === "COMPLETED") {
    return payuError("ERROR_VALUE_INVALID", "Order status does not allow cancellation");
  }
  settleOrder(ctx, orderId, "CANCELED", null);
  return {
    status: 200,
    body: {
      orderId: order.orderId,
      ...(order.extOrderId === undefined ? {} : { extOrderId: order.extOrderId }),
      status: { statusCode: "SUCCESS" },
    },
  };
}

/** Answers GET /api/v2_1/orders/{orderId}/transactions; resultCode once BLIK has answered. */
export function orderTransactions(ctx: FakeContext, orderId: string): Reply {
  const order = ctx.state.orders.get(orderId);
  if (!order) return notFound(`order ${orderId}`);
  if (order.authorizationCode === null) return { status: 200, body: { transactions: [] } };
  return {
    status: 200,
    body: {
      transactions: [{
        payMethod: { value: "blik" },
        paymentFlow: "BLIK_AUTHORIZATION_CODE",
        ...(order.resultCode === null ? {} : { resultCode: order.resultCode }),
      }],
    },
  };
}

/**
 * Moves an undecided order to its final status and notifies it; false when it was final
 * already (compare-and-set: a late timer never changes a decided order).
 */
export function settleOrder(
  ctx: FakeContext,
  orderId: string,
  status: "COMPLETED" | "CANCELED",
  resultCode: string | null,
): boolean {
  const order = ctx.state.orders.get(orderId);
  if (!order || FINAL_ORDER_STATUSES.includes(order.status)) return false;
  order.status = status;
  order.resultCode = resultCode;
  if (status === "COMPLETED") {
    order.paymentId = newNumericId();
    order.localReceiptDateTime = new Date(ctx.now()).toISOString();
  }
  ctx.notifier.order(order);
  return true;
}

function retrieved(orders: FakeOrder[]): Reply {
  const properties = propertiesOf(orders[orders.length - 1]);
  return {
    status: 200,
    body: {
      orders: orders.map(toWireOrder),
      status: { statusCode: "SUCCESS", statusDesc: "Request processing successful" },
      ...(properties === undefined ? {} : { properties }),
    },
  };
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
