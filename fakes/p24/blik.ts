/**
 * BLIK by code: `POST /api/v1/paymentMethod/blik/chargeByCode` on a registered token, decided
 * by BLIK after a delay, told by the BLIK result notification (`bliknotification`: `result.error`
 * "0 for success") and, on success, by the transaction notification to urlStatus.
 *
 * P24's sandbox: "use the 6-digit BLIK code in the format 777XXX for a successful transaction ...
 * To simulate a failed transaction, use any 6 digits." P24 documents no code per failure, nor any
 * `result.error` value but "0": the fake's own codes below tell a merchant's cases apart.
 */
import { invalid, type P24Context, type Reply } from "./context.ts";
import { BLIK_METHOD_ID } from "./methods.ts";
import type { Message } from "./notifier.ts";
import { blikSign } from "./sign.ts";
import type { FakeTransaction } from "./state.ts";
import { pay } from "./transactions.ts";
import { type BlikResult, ChargeByCodeRequest } from "./wire.ts";
import { issueOf } from "./transactions.ts";

/** What BLIK answers, by the fake's sandbox code. */
export const BLIK_OUTCOMES = {
  success: { error: "0", message: "success", status: "AUTHORIZED" },
  declined: { error: "25", message: "Transaction declined by the customer", status: "REJECTED" },
  expired: { error: "31", message: "BLIK code expired", status: "REJECTED" },
  canceled: { error: "32", message: "BLIK code canceled", status: "REJECTED" },
  used: { error: "33", message: "BLIK code already used", status: "REJECTED" },
  timeout: {
    error: "36",
    message: "No confirmation in the banking app in time",
    status: "TIMEOUT",
  },
} as const;
type Outcome = keyof typeof BLIK_OUTCOMES;

/** The sandbox code's outcome; "wait" for the customer who never confirms (600600). */
export function outcomeOf(code: string): Outcome | "wait" {
  if (/^777\d{3}$/.test(code)) return "success";
  switch (code) {
    case "600600":
      return "wait";
    case "700701":
      return "expired";
    case "700702":
      return "canceled";
    case "700703":
      return "used";
    default:
      return "declined";
  }
}

/** Answers chargeByCode: 201 `{data: {orderId, message}, responseCode: 0}`; BLIK decides later. */
export function chargeByCode(ctx: P24Context, raw: unknown): Reply {
  const path = "/api/v1/paymentMethod/blik/chargeByCode";
  const parsed = ChargeByCodeRequest.safeParse(raw);
  if (!parsed.success) return invalid(ctx, path, issueOf(parsed.error.issues[0]));
  const { token, blikCode } = parsed.data;
  const t = ctx.state.transactions.get(token);
  if (!t) return invalid(ctx, path, "no transaction with this token");
  if (!/^\d{6}$/.test(blikCode)) return invalid(ctx, path, "blikCode: not 6 digits");
  // "Object required when using methods blikChargeByCode" (register's additional.PSU).
  if (!t.request.additional?.PSU) return invalid(ctx, path, "register sent no additional.PSU");
  if (t.paidAt !== null) return invalid(ctx, path, "the transaction is paid");
  if (t.blik !== null && t.blik.result === null) {
    return invalid(ctx, path, "a BLIK charge of this transaction is under way");
  }
  t.blik = { code: blikCode, trxRef: trxRef(), result: null };
  const outcome = outcomeOf(blikCode);
  const { blikDecisionDelayMs, blikConfirmTimeoutMs } = ctx.switches();
  if (outcome === "wait") {
    if (blikConfirmTimeoutMs !== null) {
      ctx.timers.after(blikConfirmTimeoutMs, () => decideBlik(ctx, t, "timeout"));
    }
  } else {
    ctx.timers.after(blikDecisionDelayMs, () => decideBlik(ctx, t, outcome));
  }
  return {
    status: 201,
    body: { data: { orderId: t.orderId, message: "success" }, responseCode: 0 },
  };
}

/**
 * Decides the transaction's BLIK charge and sends its notifications; false when there is none
 * under way (decided already).
 */
export function decideBlik(ctx: P24Context, t: FakeTransaction, outcome: Outcome): boolean {
  if (t.blik === null || t.blik.result !== null || t.paidAt !== null) return false;
  const result: BlikResult = { ...BLIK_OUTCOMES[outcome], trxRef: t.blik.trxRef };
  t.blik.result = result;
  const messages: Message[] = [];
  const blikUrl = t.request.urlCardPaymentNotification ?? ctx.switches().blikNotifyUrl;
  if (blikUrl !== null) messages.push(blikMessage(ctx, t, blikUrl, result));
  if (outcome === "success") messages.push(...pay(ctx, t, BLIK_METHOD_ID)!);
  ctx.notifier.send(messages);
  return true;
}

/** The BLIK result notification: `{data: {orderId, sessionId, method, result, sign}}`. */
function blikMessage(
  ctx: P24Context,
  t: FakeTransaction,
  url: string,
  result: BlikResult,
): Message {
  const fields = {
    orderId: t.orderId,
    sessionId: t.request.sessionId,
    method: BLIK_METHOD_ID,
    result,
  };
  return {
    url,
    kind: "blik",
    sessionId: t.request.sessionId,
    body: JSON.stringify({ data: { ...fields, sign: blikSign(fields, ctx.credentials.crc) } }),
    again: (answer) => answer === null || answer < 200 || answer >= 300,
  };
}

function trxRef(): string {
  return Array.from({ length: 12 }, () => Math.floor(Math.random() * 10)).join("");
}
