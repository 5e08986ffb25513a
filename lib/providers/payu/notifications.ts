import { findRefundForProvider } from "../../../db/refunds.ts";
import type { Services } from "../../context.ts";
import { withDeadline } from "../../deadline.ts";
import { errorFields } from "../../log.ts";
import { applyAttemptOutcome } from "../../payments/outcome.ts";
import { applyRefundAnswer } from "../../refunds/mod.ts";
import type { ProviderOutcome } from "../mod.ts";
import { type PayuProvider, refundOutcome } from "./provider.ts";
import { verifyNotificationSignature } from "./signature.ts";
import { Notification, type OrderNotification, type RefundNotification } from "./wire.ts";

/** The largest notification body accepted; PayU's are a few KiB. */
export const MAX_NOTIFICATION_BYTES = 64 * 1024;
/** How long asking PayU why an order was cancelled may take inside a notification. */
const REASON_TIMEOUT_MS = 5_000;

/**
 * Takes a notification PayU posted: false when its `OpenPayu-Signature` does not hold (nothing
 * changes). A signed one is applied through the same paths as polling, so repeats and late,
 * out-of-order ones change nothing; one about an order or refund we do not know is logged and
 * accepted, since PayU repeats anything it does not see accepted.
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

async function applyOrder(
  services: Services,
  payu: PayuProvider,
  { order }: OrderNotification,
): Promise<void> {
  if (order.extOrderId === undefined) {
    services.log.warn("PayU notification without extOrderId ignored", { orderId: order.orderId });
    return;
  }
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
  const attemptId = order.extOrderId;
  const payment = await services.store.write((trx) =>
    applyAttemptOutcome(
      trx,
      services,
      attemptId,
      { reference: order.orderId, outcome },
      services.clock.now(),
    )
  );
  if (!payment) {
    services.log.warn("PayU notification about an unknown order", {
      orderId: order.orderId,
      extOrderId: attemptId,
    });
  }
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
