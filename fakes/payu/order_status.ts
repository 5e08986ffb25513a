/**
 * An order after its creation: retrieve by orderId or extOrderId, cancel (DELETE), its
 * transactions, and the one move to a final status every path goes through.
 */
import { type FakeContext, notFound, payuError, type Reply } from "./context.ts";
import { paymentFlowOf } from "./paymethods.ts";
import { type FakeOrder, newNumericId, propertiesOf, toWireOrder } from "./state.ts";
import { FINAL_ORDER_STATUSES } from "./wire.ts";

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

/**
 * Answers DELETE /api/v2_1/orders/{orderId}: an undecided order becomes CANCELED (and is
 * notified); a COMPLETED one cannot be cancelled, only refunded.
 */
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

/**
 * Answers GET /api/v2_1/orders/{orderId}/transactions (OpenAPI schemas `blik`, `pbl`, `card`):
 * a BLIK code's transaction with its resultCode once BLIK answered; a redirect order's once the
 * customer acted at the bank.
 */
export function orderTransactions(ctx: FakeContext, orderId: string): Reply {
  const order = ctx.state.orders.get(orderId);
  if (!order) return notFound(`order ${orderId}`);
  if (order.flow === "blik") {
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
  if (order.bankOutcome === null || order.payMethodValue === null) {
    return { status: 200, body: { transactions: [] } };
  }
  return {
    status: 200,
    body: {
      transactions: [{
        payMethod: { value: order.payMethodValue },
        paymentFlow: paymentFlowOf(order.payMethodValue),
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

/** The order is still waiting for the customer (or BLIK). */
export function undecided(order: FakeOrder): boolean {
  return !FINAL_ORDER_STATUSES.includes(order.status);
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
