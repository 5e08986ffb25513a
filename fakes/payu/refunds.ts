/**
 * Refunds: create (idempotent on extRefundId), retrieve one or all, and the delayed
 * FINALIZED/CANCELED outcome with its notification.
 */
import { REFUND_ERROR_LITERALS, RefundCreateRequest } from "./wire.ts";
import { type FakeContext, notFound, payuError, type Reply, validationError } from "./context.ts";
import { type FakeRefund, newNumericId, toWireRefund } from "./state.ts";

/** Answers POST /api/v2_1/orders/{orderId}/refunds. */
export function createRefund(ctx: FakeContext, orderId: string, raw: unknown): Reply {
  if (typeof raw !== "object" || raw === null || !("refund" in raw)) {
    return payuError("ERROR_VALUE_MISSING", "Missing required field", {
      code: "8300",
      codeLiteral: REFUND_ERROR_LITERALS.missingSection,
    });
  }
  const parsed = RefundCreateRequest.safeParse(raw);
  if (!parsed.success) return validationError(parsed.error, raw);
  const request = parsed.data.refund;
  const order = ctx.state.orders.get(orderId);
  if (!order) return notFound(`order ${orderId}`);
  const requested = JSON.stringify(request);
  // NOTE: extRefundId makes a repeated call answer the first refund: never a second refund.
  if (request.extRefundId !== undefined) {
    const earlier = ctx.state.refundsOf(orderId).find((refund) =>
      refund.extRefundId === request.extRefundId
    );
    if (earlier && earlier.requested === requested) return created(earlier);
    if (earlier) {
      return payuError("ERROR_VALUE_INVALID", "Refund with this extRefundId has other data", {
        codeLiteral: REFUND_ERROR_LITERALS.idempotencyMismatch,
      });
    }
  }
  if (order.status !== "COMPLETED") {
    return refused(REFUND_ERROR_LITERALS.notEnded, "Transaction is not completed");
  }
  if (request.currencyCode !== undefined && request.currencyCode !== order.currencyCode) {
    return payuError("ERROR_VALUE_INVALID", "Invalid value of field: refund.currencyCode");
  }
  const refunded = ctx.state.refundsOf(orderId)
    .filter((refund) => refund.status !== "CANCELED")
    .reduce((sum, refund) => sum + BigInt(refund.amount), 0n);
  const left = BigInt(order.totalAmount) - refunded;
  const amount = request.amount === undefined ? left : BigInt(request.amount);
  if (left === 0n) return refused(REFUND_ERROR_LITERALS.noBalance, "No balance left to refund");
  if (amount === 0n) return refused(REFUND_ERROR_LITERALS.amountTooSmall, "Amount too small");
  if (amount > left) return refused(REFUND_ERROR_LITERALS.amountTooBig, "Amount too big");
  const now = new Date(ctx.now()).toISOString();
  const refund: FakeRefund = {
    orderId,
    refundId: newNumericId(),
    ...(request.extRefundId === undefined ? {} : { extRefundId: request.extRefundId }),
    amount: String(amount),
    currencyCode: order.currencyCode,
    description: request.description,
    creationDateTime: now,
    status: "PENDING",
    statusDatetime: now,
    requested,
  };
  ctx.state.refunds.set(refund.refundId, refund);
  const { notifyDelayMs, refundOutcome } = ctx.switches();
  ctx.timers.after(notifyDelayMs, () => settleRefund(ctx, refund.refundId, refundOutcome));
  return created(refund);
}

/** Answers GET /api/v2_1/orders/{orderId}/refunds/{refundId}. */
export function retrieveRefund(ctx: FakeContext, orderId: string, refundId: string): Reply {
  const refund = ctx.state.refunds.get(refundId);
  if (!refund || refund.orderId !== orderId) return notFound(`refund ${refundId}`);
  return { status: 200, body: toWireRefund(refund) };
}

/** Answers GET /api/v2_1/orders/{orderId}/refunds. */
export function listRefunds(ctx: FakeContext, orderId: string): Reply {
  if (!ctx.state.orders.has(orderId)) return notFound(`order ${orderId}`);
  return { status: 200, body: { refunds: ctx.state.refundsOf(orderId).map(toWireRefund) } };
}

/** Moves a PENDING refund to its outcome and notifies it; false when already decided. */
export function settleRefund(
  ctx: FakeContext,
  refundId: string,
  status: "FINALIZED" | "CANCELED",
): boolean {
  const refund = ctx.state.refunds.get(refundId);
  const order = refund && ctx.state.orders.get(refund.orderId);
  if (!refund || !order || refund.status !== "PENDING") return false;
  refund.status = status;
  refund.statusDatetime = new Date(ctx.now()).toISOString();
  ctx.notifier.refund(refund, order);
  return true;
}

function created(refund: FakeRefund): Reply {
  return {
    status: 200,
    body: {
      orderId: refund.orderId,
      refund: toWireRefund(refund),
      status: { statusCode: "SUCCESS", statusDesc: "Refund queued for processing" },
    },
  };
}

function refused(codeLiteral: string, statusDesc: string): Reply {
  return payuError("ERROR_VALUE_INVALID", statusDesc, { codeLiteral });
}
