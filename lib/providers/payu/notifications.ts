import type { Kysely } from "kysely";
import { findAttemptByPublicId } from "../../../db/payment_attempts.ts";
import { findPaymentByPublicId } from "../../../db/payments.ts";
import { findRefundForProvider } from "../../../db/refunds.ts";
import type { EnvironmentSchema } from "../../../db/schema.ts";
import type { Services } from "../../context.ts";
import { withDeadline } from "../../deadline.ts";
import { errorFields } from "../../log.ts";
import { applyAttemptOutcome } from "../../payments/outcome.ts";
import { applyRefundAnswer } from "../../refunds/mod.ts";
import type { ProviderNotifications, ProviderOutcome } from "../mod.ts";
import { type PayuProvider, refundOutcome } from "./provider.ts";
import { verifyNotificationSignature } from "./signature.ts";
import {
  Notification,
  type Order,
  type OrderNotification,
  type RefundNotification,
  SIGNATURE_HEADER,
} from "./wire.ts";

/** The largest notification body accepted; PayU's are a few KiB. */
export const MAX_NOTIFICATION_BYTES = 64 * 1024;
/** How long asking PayU why an order was cancelled may take inside a notification. */
const REASON_TIMEOUT_MS = 5_000;

/** PayU's notifications, as `POST /providers/payu/notify` takes them. */
export function payuNotifications(payu: PayuProvider): ProviderNotifications {
  return {
    maxBytes: MAX_NOTIFICATION_BYTES,
    signatureProblem: `The ${SIGNATURE_HEADER} header is missing or does not match the body.`,
    receive: (services, callback) =>
      receivePayuNotification(
        services,
        payu,
        callback.body,
        callback.headers.get(SIGNATURE_HEADER) ?? undefined,
      ),
  };
}

/**
 * Takes a notification PayU posted: false when its `OpenPayu-Signature` does not hold (nothing
 * changes). A signed one is applied through the same paths as polling, so repeats and late,
 * out-of-order ones change nothing; one about an order or refund we do not know, or an order
 * whose id, amount, currency or POS differs from the one sent, is logged and accepted, since
 * PayU repeats anything it does not see accepted.
 */
export async function receivePayuNotification(
  services: Services,
  payu: PayuProvider,
  rawBody: string,
  signature: string | undefined,
): Promise<boolean> {
  if (!await verifyNotificationSignature(rawBody, signature, payu.config.secondKey)) return false;
  payu.health.recordNotification(services.clock.now());
  let parsed;
  try {
    parsed = Notification.safeParse(JSON.parse(rawBody));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) {
    services.log.warn("PayU notification not understood; accepted and ignored", {
      bytes: rawBody.length,
    });
    return true;
  }
  const notification = parsed.data;
  if ("order" in notification) await applyOrder(services, payu, notification);
  else await applyRefund(services, notification);
  return true;
}

/** What Paystead sent PayU for an attempt, and the order id PayU gave it (null until known). */
interface SentOrder {
  orderId: string | null;
  totalAmount: string;
  currencyCode: string;
  merchantPosId: string;
}

/** The order sent for attempt `attemptId`, or undefined for an attempt we do not know. */
async function sentOrder(
  db: Kysely<EnvironmentSchema>,
  posId: string,
  attemptId: string,
): Promise<SentOrder | undefined> {
  const attempt = await findAttemptByPublicId(db, attemptId);
  if (!attempt) return undefined;
  const payment = (await findPaymentByPublicId(db, attempt.payment_public_id))!;
  return {
    orderId: attempt.provider_ref,
    totalAmount: String(payment.amount),
    currencyCode: payment.currency,
    merchantPosId: posId,
  };
}

/** The first field in which a notified order differs from the one sent; null if none. */
function mismatchOf(order: Order, sent: SentOrder): keyof SentOrder | null {
  if (sent.orderId !== null && order.orderId !== sent.orderId) return "orderId";
  const fields = ["totalAmount", "currencyCode", "merchantPosId"] as const;
  return fields.find((field) => order[field] !== sent[field]) ?? null;
}

/**
 * Logs and counts a signed notification that does not match the order sent. NOTE: it changes
 * nothing, not even the stored order id (a refund would go to that order): a leaked second key
 * or a confused POS must not decide a payment; the attempt's polling asks PayU for the truth.
 */
function reject(services: Services, payu: PayuProvider, order: Order, field: string): void {
  payu.health.recordRejectedNotification(field);
  services.log.error(
    "security: a signed PayU notification does not match the order sent; ignored",
    {
      field,
      orderId: order.orderId,
      extOrderId: order.extOrderId,
    },
  );
}

async function applyOrder(
  services: Services,
  payu: PayuProvider,
  { order }: OrderNotification,
): Promise<void> {
  if (order.extOrderId === undefined) {
    services.log.warn("PayU notification without extOrderId ignored", { orderId: order.orderId });
    return;
  }
  const attemptId = order.extOrderId;
  const sent = await sentOrder(services.store.db, payu.config.posId, attemptId);
  if (!sent) {
    services.log.warn("PayU notification about an unknown order", {
      orderId: order.orderId,
      extOrderId: attemptId,
    });
    return;
  }
  const before = mismatchOf(order, sent);
  if (before !== null) return reject(services, payu, order, before);
  let outcome: ProviderOutcome;
  try {
    outcome = await withDeadline(
      payu.outcomeOf(order.orderId, order.status),
      REASON_TIMEOUT_MS,
      `PayU's reason for order ${order.orderId}`,
    );
  } catch (error) {
    services.log.warn("PayU's reason for a cancelled order unknown", errorFields(error));
    outcome = { status: "FAILED", failureCode: "declined" };
  }
  const mismatch = await services.store.write(async (trx) => {
    // The answer to the create call may have stored the order id since the check above.
    const now = (await sentOrder(trx, payu.config.posId, attemptId))!;
    const field = mismatchOf(order, now);
    if (field !== null) return field;
    await applyAttemptOutcome(
      trx,
      services,
      attemptId,
      { reference: order.orderId, outcome },
      services.clock.now(),
    );
    return null;
  });
  if (mismatch !== null) reject(services, payu, order, mismatch);
}

async function applyRefund(services: Services, notification: RefundNotification): Promise<void> {
  const { refund } = notification;
  const outcome = refundOutcome(refund.status);
  await services.store.write(async (trx) => {
    const found = (refund.extRefundId &&
      await findRefundForProvider(trx, { publicId: refund.extRefundId })) ||
      await findRefundForProvider(trx, { reference: refund.refundId });
    if (!found) {
      services.log.warn("PayU notification about an unknown refund", {
        orderId: notification.orderId,
        refundId: refund.refundId,
      });
      return;
    }
    await applyRefundAnswer(
      trx,
      services,
      found,
      { reference: refund.refundId, outcome },
      services.clock.now(),
    );
  });
}
