import type { Kysely } from "kysely";
import type { PaymentRecord } from "../../db/payments.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import { checkoutPaymentHook } from "../checkout/hooks.ts";
import type { Services } from "../context.ts";
import { confirmationOnPayment } from "../emails/outbox.ts";
import { renewalOnLinkPayment } from "../subscriptions/links.ts";
import { startSubscriptionOnPayment } from "../subscriptions/start.ts";
import type { PaymentStatus } from "./status.ts";

/**
 * Runs inside the transaction that moved a payment to `to`, after the payment's own event is
 * written, so whatever it changes (a checkout session, a subscription) commits with it.
 */
export type PaymentTransitionHook = (
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  payment: PaymentRecord,
  to: PaymentStatus,
  now: number,
) => Promise<void>;

/**
 * What runs on every payment status change, in this order: checkout follows its payment (a
 * session completes, a wrong code counts), then a recurring offer's first payment starts its
 * subscription (or a paid renewal link renews one), then the customer's confirmation e-mail is
 * queued.
 */
export function paymentTransitionHooks(): PaymentTransitionHook[] {
  return [
    checkoutPaymentHook,
    startSubscriptionOnPayment,
    renewalOnLinkPayment,
    confirmationOnPayment,
  ];
}
