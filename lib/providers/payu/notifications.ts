import { withDeadline } from "../../deadline.ts";
import type { CallbackTranslation, ProviderNotifications, ProviderOutcome } from "../mod.ts";
import { type PayuProvider, refundOutcome } from "./provider.ts";
import { verifyNotificationSignature } from "./signature.ts";
import { Notification, type OrderNotification, SIGNATURE_HEADER } from "./wire.ts";

/** The largest notification body accepted; PayU's are a few KiB. */
export const MAX_NOTIFICATION_BYTES = 64 * 1024;
/** How long asking PayU why an order was cancelled may take inside a notification. */
const REASON_TIMEOUT_MS = 5_000;

/** PayU's notifications, as `POST /providers/payu/notify` takes them. */
export function payuNotifications(payu: PayuProvider): ProviderNotifications {
  return {
    maxBytes: MAX_NOTIFICATION_BYTES,
    signatureProblem: `The ${SIGNATURE_HEADER} header is missing or does not match the body.`,
    translate: (callback, now) =>
      translatePayuNotification(
        payu,
        callback.body,
        callback.headers.get(SIGNATURE_HEADER) ?? undefined,
        now,
      ),
  };
}

/**
 * Translates a notification PayU posted: "forged" when its `OpenPayu-Signature` does not hold.
 * One not understood, or about another POS, is "ignored" (accepted, since PayU repeats anything
 * it does not see accepted); the core checks the rest against the attempt.
 */
export async function translatePayuNotification(
  payu: PayuProvider,
  rawBody: string,
  signature: string | undefined,
  now: number,
): Promise<CallbackTranslation> {
  if (!await verifyNotificationSignature(rawBody, signature, payu.config.secondKey)) {
    return { kind: "forged" };
  }
  payu.health.recordNotification(now);
  let parsed;
  try {
    parsed = Notification.safeParse(JSON.parse(rawBody));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) return { kind: "ignored" };
  const notification = parsed.data;
  if (!("order" in notification)) {
    const { refund } = notification;
    return {
      kind: "refund",
      refundId: refund.extRefundId ?? null,
      reference: refund.refundId,
      outcome: refundOutcome(refund.status),
    };
  }
  return translateOrder(payu, notification);
}

function translateOrder(payu: PayuProvider, { order }: OrderNotification): CallbackTranslation {
  if (order.extOrderId === undefined) return { kind: "ignored" };
  if (order.merchantPosId !== payu.config.posId) {
    // NOTE: a leaked second key or a confused POS must not decide a payment.
    return {
      kind: "rejected",
      field: "merchant",
      attemptId: order.extOrderId,
      reference: order.orderId,
    };
  }
  const amount = Number(order.totalAmount);
  return {
    kind: "attempt",
    attemptId: order.extOrderId,
    reference: order.orderId,
    // A non-canonical amount ("0100") matches no payment.
    amount: String(amount) === order.totalAmount ? amount : Number.NaN,
    currency: order.currencyCode,
    outcome: async (): Promise<ProviderOutcome> => {
      try {
        return await withDeadline(
          payu.outcomeOf(order.orderId, order.status),
          REASON_TIMEOUT_MS,
          `PayU's reason for order ${order.orderId}`,
        );
      } catch {
        return { status: "FAILED", failureCode: "declined" };
      }
    },
  };
}
