/**
 * Transactions: register (a token), the payment and its notification to urlStatus, verify (only
 * a verified transaction is money) and the lookup by sessionId.
 */
import { invalid, type P24Context, type Reply } from "./context.ts";
import { BLIK_METHOD_ID, methodsFor } from "./methods.ts";
import type { Message } from "./notifier.ts";
import { feeOf } from "./report.ts";
import { registerSign, statusSign, verifySign } from "./sign.ts";
import { type FakeTransaction, lookupStatus, p24Date } from "./state.ts";
import { RegisterRequest, TRANSACTION_NOT_FOUND, VerifyRequest } from "./wire.ts";

/** Answers POST /api/v1/transaction/register: `{data: {token}, responseCode: 0}`. */
export function register(ctx: P24Context, raw: unknown): Reply {
  const path = "/api/v1/transaction/register";
  const parsed = RegisterRequest.safeParse(raw);
  if (!parsed.success) return invalid(ctx, path, issueOf(parsed.error.issues[0]));
  const request = parsed.data;
  const { merchantId, posId, crc } = ctx.credentials;
  if (request.merchantId !== merchantId || request.posId !== posId) {
    return invalid(ctx, path, "merchantId or posId is not this account's");
  }
  if (request.sign !== registerSign(request, crc)) return invalid(ctx, path, "sign");
  // NOTE: a session id names one transaction: a repeated register is refused, never a second one.
  if (ctx.state.bySessionId(request.sessionId)) {
    return invalid(ctx, path, "sessionId already registered");
  }
  if (
    request.method !== undefined &&
    !methodsFor(ctx, "pl", request).some((method) => method.id === request.method && method.status)
  ) {
    return invalid(ctx, path, `method ${request.method} is not available for this transaction`);
  }
  const orderId = ctx.state.newOrderId();
  const token = crypto.randomUUID().toUpperCase();
  ctx.state.transactions.set(token, {
    token,
    orderId,
    request,
    registeredAt: ctx.now(),
    paidAt: null,
    methodId: null,
    statement: `p24-${String(orderId).slice(-9, -6)}-${String(orderId).slice(-6, -3)}-${
      String(orderId).slice(-3)
    }`,
    verifiedAt: null,
    blik: null,
    bankOutcome: null,
  });
  return { status: 200, body: { data: { token }, responseCode: 0 } };
}

/**
 * Marks a transaction paid with `methodId` and returns the notification to urlStatus (none
 * without one); null when it was paid already.
 */
export function pay(ctx: P24Context, t: FakeTransaction, methodId: number): Message[] | null {
  if (t.paidAt !== null) return null;
  t.paidAt = ctx.now();
  t.methodId = methodId;
  return t.request.urlStatus === undefined ? [] : [statusMessage(ctx, t)];
}

/** The transaction notification (`TransactionResult`), sent again while unverified. */
export function statusMessage(ctx: P24Context, t: FakeTransaction): Message {
  const fields = {
    merchantId: t.request.merchantId,
    posId: t.request.posId,
    sessionId: t.request.sessionId,
    amount: t.request.amount,
    originAmount: t.request.amount,
    currency: t.request.currency,
    orderId: t.orderId,
    methodId: t.methodId ?? BLIK_METHOD_ID,
    statement: t.statement,
  };
  return {
    url: t.request.urlStatus!,
    kind: "status",
    sessionId: t.request.sessionId,
    body: JSON.stringify({ ...fields, sign: statusSign(fields, ctx.credentials.crc) }),
    again: () => t.verifiedAt === null,
  };
}

/** Answers PUT /api/v1/transaction/verify: `{data: {status: "success"}, responseCode: 0}`. */
export function verify(ctx: P24Context, raw: unknown): Reply {
  const path = "/api/v1/transaction/verify";
  const at = new Date(ctx.now()).toISOString();
  const refuse = (sessionId: string | null, refusal: string): Reply => {
    ctx.state.verifications.push({ at, sessionId, ok: false, refusal });
    return invalid(ctx, path, refusal);
  };
  const parsed = VerifyRequest.safeParse(raw);
  if (!parsed.success) return refuse(null, issueOf(parsed.error.issues[0]));
  const request = parsed.data;
  const { merchantId, posId, crc } = ctx.credentials;
  if (request.merchantId !== merchantId || request.posId !== posId) {
    return refuse(request.sessionId, "merchantId or posId is not this account's");
  }
  if (request.sign !== verifySign(request, crc)) return refuse(request.sessionId, "sign");
  const t = ctx.state.bySessionId(request.sessionId);
  if (!t) return refuse(request.sessionId, "no transaction with this sessionId");
  if (t.orderId !== request.orderId) return refuse(request.sessionId, "orderId differs");
  if (t.request.amount !== request.amount || t.request.currency !== request.currency) {
    return refuse(request.sessionId, "amount or currency differs");
  }
  if (t.paidAt === null) return refuse(request.sessionId, "not paid");
  // NOTE: verifying again answers success and changes nothing: the money was confirmed once.
  t.verifiedAt ??= ctx.now();
  ctx.state.verifications.push({ at, sessionId: request.sessionId, ok: true, refusal: null });
  return { status: 200, body: { data: { status: "success" }, responseCode: 0 } };
}

/** Answers GET /api/v1/transaction/by/sessionId/{sessionId} (`TransactionBySessionIdResponse`). */
export function bySessionId(ctx: P24Context, sessionId: string): Reply {
  const t = ctx.state.bySessionId(sessionId);
  if (!t) return { status: 404, body: { error: TRANSACTION_NOT_FOUND, responseCode: 0 } };
  const r = t.request;
  return {
    status: 200,
    body: {
      data: {
        statement: t.statement,
        orderId: t.orderId,
        sessionId: r.sessionId,
        status: lookupStatus(ctx.state, t),
        amount: r.amount,
        currency: r.currency,
        date: p24Date(t.registeredAt),
        dateOfTransaction: p24Date(t.paidAt),
        clientEmail: r.email,
        accountMD5: "",
        paymentMethod: t.methodId ?? 0,
        description: r.description,
        clientName: r.client ?? "",
        clientAddress: r.address ?? "",
        clientCity: r.city ?? "",
        clientPostcode: r.zip ?? "",
        batchId: 0,
        fee: String(t.paidAt === null ? 0 : feeOf(ctx, r.amount)),
      },
      responseCode: 0,
    },
  };
}

/** A zod issue as a short reason: the field and what is wrong. */
export function issueOf(issue: { path: PropertyKey[]; message: string } | undefined): string {
  if (!issue) return "body";
  return `${issue.path.map(String).join(".") || "body"}: ${issue.message}`;
}
