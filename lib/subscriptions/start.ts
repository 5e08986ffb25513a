import { SUBSCRIPTION_RENEWALS_JOB } from "../jobs.ts";
import { findOffersByIds } from "../../db/offers.ts";
import { isRenewalPayment } from "../../db/subscription_renewals.ts";
import { insertSubscription, type SubscriptionRecord } from "../../db/subscriptions.ts";
import { afterCommit } from "../after_commit.ts";
import type { PaymentTransitionHook } from "../payments/hooks.ts";
import { recordEvent } from "../events.ts";
import { newId } from "../ids.ts";
import type { RecurringInterval } from "../offers.ts";
import { nextRenewalAt } from "./link_schedule.ts";
import { toSubscription } from "./mod.ts";
import { period } from "./periods.ts";

/**
 * The payment hook that starts a subscription (`subscription.created`) when a customer's
 * payment for a recurring offer succeeds, in the payment's own transaction. The first period
 * starts at that moment; renewal charges are not customer payments and start nothing.
 */
export const startSubscriptionOnPayment: PaymentTransitionHook = async (
  trx,
  services,
  payment,
  to,
  now,
) => {
  if (to !== "SUCCEEDED") return;
  const [offer] = await findOffersByIds(trx, [payment.offer_id]);
  if (!offer?.recurring_interval) return;
  if (await isRenewalPayment(trx, payment.id)) return;
  const cycle = {
    interval: offer.recurring_interval as RecurringInterval,
    count: offer.recurring_interval_count ?? 1,
  };
  const first = period(now, cycle, 0);
  const nextAt = nextRenewalAt(services, first);
  const row = await insertSubscription(trx, {
    public_id: newId("subscription"),
    org_id: payment.org_id,
    offer_id: offer.id,
    first_payment_id: payment.id,
    latest_payment_id: payment.id,
    status: "ACTIVE",
    amount: payment.amount,
    currency: payment.currency,
    quantity: payment.quantity,
    recurring_interval: cycle.interval,
    recurring_interval_count: cycle.count,
    customer_email: payment.customer_email,
    customer_name: payment.customer_name,
    metadata: payment.metadata,
    anchor_at: now,
    period_index: 0,
    current_period_start: first.start,
    current_period_end: first.end,
    cancel_at_period_end: 0,
    next_charge_at: nextAt,
    cancellation_reason: null,
    created_at: now,
    updated_at: now,
    past_due_at: null,
    canceled_at: null,
  });
  const record: SubscriptionRecord = {
    ...row,
    qr_id: payment.qr_id,
    first_payment_public_id: payment.public_id,
    latest_payment_public_id: payment.public_id,
    renewal_payment_public_id: null,
  };
  await recordEvent(trx, {
    orgId: payment.org_id,
    type: "subscription.created",
    environment: services.environment,
    createdAt: now,
    data: toSubscription(record),
  });
  // `now` is the organisation's time; the scheduler runs on the system clock.
  const dueAt = services.clock.now() + (nextAt - now);
  afterCommit(trx, () => services.scheduler.wake(SUBSCRIPTION_RENEWALS_JOB, dueAt));
};
