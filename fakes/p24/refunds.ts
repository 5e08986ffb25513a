/**
 * Refunds: `POST /api/v1/transaction/refund` (a batch of items, `requestId` once), their outcome
 * and notification (`TransactionRefundResult`), and `GET /api/v1/refund/by/orderId/{orderId}`.
 */
import { invalid, type P24Context, p24Error, type Reply } from "./context.ts";
import type { Message } from "./notifier.ts";
import { refundSign } from "./sign.ts";
import { type FakeRefund, p24Date, refundable } from "./state.ts";
import { issueOf } from "./transactions.ts";
import { REFUND_ERRORS, REFUND_ITEM_ERRORS, RefundRequest } from "./wire.ts";

/**
 * Answers POST /api/v1/transaction/refund: 201 with every item, or 409 with the items that
 * cannot be refunded (then nothing is refunded).
 */
export function createRefunds(ctx: P24Context, raw: unknown): Reply {
  const path = "/api/v1/transaction/refund";
  const parsed = RefundRequest.safeParse(raw);
  if (!parsed.success) {
    invalid(ctx, path, issueOf(parsed.error.issues[0]));
    return p24Error(400, REFUND_ERRORS.invalid);
  }
  const request = parsed.data;
  // NOTE: a requestId is used once: a repeated request is refused, never a second refund.
  if (ctx.state.refunds.some((refund) => refund.requestId === request.requestId)) {
    invalid(ctx, path, "requestId already used");
    return p24Error(400, REFUND_ERRORS.exists);
  }
  const left = new Map<number, number>();
  const refused = request.refunds.flatMap((item) => {
    const t = ctx.state.byOrderId(item.orderId);
    const message = !t || t.request.sessionId !== item.sessionId
      ? REFUND_ITEM_ERRORS.notFound
      : t.verifiedAt === null
      ? REFUND_ITEM_ERRORS.wrongStatus
      : item.amount > (left.get(item.orderId) ?? refundable(ctx.state, t))
      ? REFUND_ITEM_ERRORS.exceeds
      : null;
    if (t && message === null) {
      left.set(item.orderId, (left.get(item.orderId) ?? refundable(ctx.state, t)) - item.amount);
      return [];
    }
    return [{ ...itemOf(item), status: false, message }];
  });
  if (refused.length > 0) return p24Error(409, refused);
  const batchId = ctx.state.newRefundId();
  for (const item of request.refunds) {
    const t = ctx.state.byOrderId(item.orderId)!;
    const refund: FakeRefund = {
      refundId: ctx.state.newRefundId(),
      batchId,
      requestId: request.requestId,
      refundsUuid: request.refundsUuid,
      orderId: item.orderId,
      sessionId: item.sessionId,
      amount: item.amount,
      currency: t.request.currency,
      description: item.description ?? "",
      urlStatus: request.urlStatus ?? null,
      status: 3,
      createdAt: ctx.now(),
      decidedAt: null,
    };
    ctx.state.refunds.push(refund);
    const { notifyDelayMs, refundOutcome } = ctx.switches();
    ctx.timers.after(notifyDelayMs, () => decideRefund(ctx, refund, refundOutcome));
  }
  return {
    status: 201,
    body: {
      data: request.refunds.map((item) => ({ ...itemOf(item), status: true, message: "success" })),
      responseCode: 0,
    },
  };
}

/** Completes or rejects a refund awaiting P24 and notifies it; false when decided already. */
export function decideRefund(
  ctx: P24Context,
  refund: FakeRefund,
  outcome: "completed" | "rejected",
): boolean {
  if (refund.status !== 3 && refund.status !== 2) return false;
  refund.status = outcome === "completed" ? 1 : 4;
  refund.decidedAt = ctx.now();
  const url = refund.urlStatus ?? ctx.switches().refundNotifyUrl;
  if (url !== null) ctx.notifier.send([refundMessage(ctx, refund, url)], 0);
  return true;
}

/** The refund notification; its `status` is 0 completed, 1 rejected. */
function refundMessage(ctx: P24Context, refund: FakeRefund, url: string): Message {
  const fields = {
    orderId: refund.orderId,
    sessionId: refund.sessionId,
    refundsUuid: refund.refundsUuid,
    merchantId: ctx.credentials.merchantId,
    amount: refund.amount,
    currency: refund.currency,
    status: refund.status === 1 ? 0 : 1,
  };
  const body = {
    orderId: fields.orderId,
    sessionId: fields.sessionId,
    merchantId: fields.merchantId,
    requestId: refund.requestId,
    refundsUuid: fields.refundsUuid,
    amount: fields.amount,
    currency: fields.currency,
    timestamp: Math.floor(ctx.now() / 1000),
    status: fields.status,
    sign: refundSign(fields, ctx.credentials.crc),
  };
  return {
    url,
    kind: "refund",
    sessionId: refund.sessionId,
    body: JSON.stringify(body),
    again: (answer) => answer === null || answer < 200 || answer >= 300,
  };
}

/** Answers GET /api/v1/refund/by/orderId/{orderId} (`TransactionRefundsInfoResponse`). */
export function refundsByOrderId(ctx: P24Context, orderId: string): Reply {
  const t = /^\d{1,19}$/.test(orderId) ? ctx.state.byOrderId(Number(orderId)) : undefined;
  const refunds = t ? ctx.state.refundsOf(t.orderId) : [];
  if (!t || refunds.length === 0) {
    return { status: 404, body: { error: "Transaction not found", responseCode: 0 } };
  }
  return {
    status: 200,
    body: {
      data: {
        orderId: t.orderId,
        sessionId: t.request.sessionId,
        amount: t.request.amount,
        currency: t.request.currency,
        refunds: refunds.map((refund) => ({
          batchId: refund.batchId,
          requestId: refund.requestId,
          date: p24Date(refund.createdAt),
          login: "api",
          description: refund.description,
          status: refund.status,
          amount: refund.amount,
        })),
      },
      responseCode: 0,
    },
  };
}

function itemOf(item: RefundRequest["refunds"][number]) {
  return {
    orderId: item.orderId,
    sessionId: item.sessionId,
    amount: item.amount,
    description: item.description ?? "",
  };
}
