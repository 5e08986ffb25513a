import { PAYMENT_DEADLINES_JOB, SUBSCRIPTION_RENEWALS_JOB } from "../jobs.ts";
import type { Kysely } from "kysely";
import { findOffersByIds } from "../../db/offers.ts";
import { findOpenAttempt } from "../../db/payment_attempts.ts";
import { findPaymentByPublicId, type PaymentRecord } from "../../db/payments.ts";
import type { EnvironmentSchema, SubscriptionRow } from "../../db/schema.ts";
import {
  countFailedRenewals,
  findOpenRenewal,
  findRenewalOfPayment,
  insertRenewal,
  type OpenRenewal,
  transitionRenewal,
} from "../../db/subscription_renewals.ts";
import {
  type DueSubscription,
  findDueSubscriptions,
  findSubscriptionById,
  nextSubscriptionChargeAt,
} from "../../db/subscriptions.ts";
import { afterCommit } from "../after_commit.ts";
import type { Services } from "../context.ts";
import { queueRenewalEmail } from "../emails/outbox.ts";
import { newId } from "../ids.ts";
import type { PaymentTransitionHook } from "../payments/hooks.ts";
import { insertPendingPayment, transition } from "../payments/mod.ts";
import { changeSubscription, cycleOf, endSubscription, renewalPaymentFields } from "./mod.ts";
import { period } from "./periods.ts";
import { linkSchedule, nextRenewalAt, stepAfter } from "./link_schedule.ts";
import type { SubscriptionStatus } from "./status.ts";

/** How long the end of a renewal waits for a payment the customer is confirming right then. */
const CONFIRMATION_WAIT_MS = 60_000;
/** Subscriptions taken one step on per write transaction. */
const BATCH_SIZE = 25;
/** Batches per run before the job yields to the others (it is run again at once). */
const MAX_ROUNDS = 50;

/**
 * Creates the PENDING renewal payment of period `periodIndex` (its hosted page is the link),
 * expiring with the renewal, and its LINK renewal attempt.
 */
async function openRenewalPayment(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  subscription: SubscriptionRow,
  periodIndex: number,
  expiresAt: number,
  now: number,
): Promise<PaymentRecord> {
  const [offer] = await findOffersByIds(trx, [subscription.offer_id]);
  const payment = await insertPendingPayment(
    trx,
    services,
    offer,
    renewalPaymentFields(subscription, expiresAt, now),
  );
  await insertRenewal(trx, {
    public_id: newId("subscriptionRenewal"),
    org_id: subscription.org_id,
    subscription_id: subscription.id,
    payment_id: payment.id,
    period_index: periodIndex,
    attempt: 1 + await countFailedRenewals(trx, subscription.id, periodIndex),
    status: "PENDING",
    method: "LINK",
    // No lease: nothing is sent to the provider until the customer enters a code.
    locked_until: 0,
    created_at: now,
    succeeded_at: null,
    failed_at: null,
  });
  const dueAt = services.clock.now() + (expiresAt - now);
  afterCommit(trx, () => services.scheduler.wake(PAYMENT_DEADLINES_JOB, dueAt));
  return payment;
}

/** Whether the customer is paying the open renewal right now (an attempt with the provider). */
export async function isBeingPaid(
  trx: Kysely<EnvironmentSchema>,
  open: OpenRenewal,
): Promise<boolean> {
  return open.payment_status === "PROCESSING" ||
    (open.payment_status === "PENDING" &&
      await findOpenAttempt(trx, open.payment_id) !== undefined);
}

/** Moves an open renewal's unpaid payment to CANCELED or EXPIRED (the hook closes the renewal). */
export async function closeRenewalPayment(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  open: OpenRenewal,
  to: "CANCELED" | "EXPIRED",
  now: number,
): Promise<void> {
  const payment = (await findPaymentByPublicId(trx, open.payment_public_id))!;
  if (!await transition(trx, services, payment, to, now)) {
    throw new Error(`The renewal payment ${open.payment_public_id} changed in this transaction.`);
  }
}

/**
 * Takes a subscription renewing by link to its step at the organisation's time `now`: the notice
 * (a renewal payment and its e-mail), a reminder (PAST_DUE from the period end on, with
 * `subscription.past_due`), or the end (the payment expires, `subscription.canceled`). One step
 * per run, however late: a process that was down sends the latest reminder, not every missed one.
 * The payment, its e-mail and the next step's time commit together, so a crash repeats the step
 * whole or not at all.
 */
async function takeLinkStep(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  subscription: DueSubscription,
  now: number,
): Promise<void> {
  const { current_period_start: start, current_period_end: end } = subscription;
  // Scheduling the cancellation canceled the open link (cancelSubscription): nothing to remind.
  if (subscription.cancel_at_period_end === 1) {
    if (now < end) {
      await changeSubscription(trx, services, subscription, "ACTIVE", now, { next_charge_at: end });
    } else {
      await endSubscription(trx, services, subscription, "requested", end, now);
    }
    return;
  }
  const schedule = linkSchedule(services.config, { start, end });
  const status = subscription.status as SubscriptionStatus;
  const open = await findOpenRenewal(trx, subscription.id);
  if (open && await isBeingPaid(trx, open)) {
    // NOTE: the customer may be confirming in their banking app right now; its answer decides,
    // and ending the subscription under it could take money for a canceled subscription.
    const wait = { next_charge_at: now + CONFIRMATION_WAIT_MS };
    await changeSubscription(trx, services, subscription, status, now, wait);
    return;
  }
  if (now >= schedule.expiresAt) {
    if (open) await closeRenewalPayment(trx, services, open, "EXPIRED", now);
    await endSubscription(trx, services, subscription, "renewal_failed", now, now);
    return;
  }
  const due = now >= end;
  const recipient = subscription.customer_email;
  const paymentId = open?.payment_id ??
    (await openRenewalPayment(
      trx,
      services,
      subscription,
      subscription.period_index + 1,
      schedule.expiresAt,
      now,
    )).id;
  if (recipient !== null && (due || !open)) {
    await queueRenewalEmail(trx, services, {
      orgId: subscription.org_id,
      paymentId,
      kind: due ? "RENEWAL_REMINDER" : "RENEWAL_NOTICE",
      recipient,
      now,
    });
  }
  const moved = await changeSubscription(
    trx,
    services,
    subscription,
    due ? "PAST_DUE" : status,
    now,
    { next_charge_at: stepAfter(schedule, now) },
    due && status === "ACTIVE" ? "subscription.past_due" : undefined,
  );
  if (!moved) {
    throw new Error(`Subscription ${subscription.public_id} changed in this transaction.`);
  }
}

/**
 * The renewal job of a process that renews by link: takes every due subscription one step on,
 * a batch per transaction. Returns when it is next due (system time), like every job.
 */
export async function runLinkRenewals(services: Services, now: number): Promise<number | null> {
  const db = services.store.db;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // A read first, so an idle run costs no write transaction.
    const next = await nextSubscriptionChargeAt(db, "no-charge-in-flight");
    if (next === null || next > now) return next;
    await services.store.write(async (trx) => {
      const due = await findDueSubscriptions(trx, now, BATCH_SIZE, "no-charge-in-flight");
      for (const subscription of due) {
        // The run's `now` decides what is due; records get the time they are written at.
        const orgNow = services.clock.now() + subscription.clock_offset;
        await takeLinkStep(trx, services, subscription, orgNow);
      }
    });
  }
  return now;
}

/**
 * The payment hook of renewals by link, in the payment's own transaction. A paid link renews the
 * subscription from the end of its period, anchored as before (`subscription.renewed`), however
 * late it was paid; a failed one is replaced by a new payment for the same period, which the next
 * reminder links to; an expired or canceled one just closes its renewal.
 */
export const renewalOnLinkPayment: PaymentTransitionHook = async (
  trx,
  services,
  payment,
  to,
  now,
) => {
  if (to === "PROCESSING") return;
  const renewal = await findRenewalOfPayment(trx, payment.id);
  if (!renewal || renewal.method !== "LINK" || renewal.status !== "PENDING") return;
  const paid = to === "SUCCEEDED";
  await transitionRenewal(trx, renewal.id, "PENDING", paid ? "SUCCEEDED" : "FAILED", {
    [paid ? "succeeded_at" : "failed_at"]: now,
  });
  const subscription = (await findSubscriptionById(trx, renewal.subscription_id))!;
  const renews = subscription.status !== "CANCELED" &&
    subscription.period_index + 1 === renewal.period_index;
  if (paid && !renews) {
    // NOTE: code entry refuses a renewal of a canceled subscription before the provider is
    // called; only a person can give back money that reached one anyway.
    services.log.error("a renewal link was paid for a subscription that no longer renews", {
      paymentId: payment.public_id,
      subscriptionId: subscription.public_id,
    });
    return;
  }
  if (!renews) return;
  if (paid) {
    const next = period(subscription.anchor_at, cycleOf(subscription), renewal.period_index);
    const nextAt = nextRenewalAt(services, next);
    const renewed = await changeSubscription(trx, services, subscription, "ACTIVE", now, {
      latest_payment_id: payment.id,
      period_index: renewal.period_index,
      current_period_start: next.start,
      current_period_end: next.end,
      next_charge_at: nextAt,
    }, "subscription.renewed");
    if (!renewed) throw new Error(`Subscription ${subscription.public_id} could not renew.`);
    const dueAt = services.clock.now() + (nextAt - now);
    afterCommit(trx, () => services.scheduler.wake(SUBSCRIPTION_RENEWALS_JOB, dueAt));
    return;
  }
  const schedule = linkSchedule(services.config, {
    start: subscription.current_period_start,
    end: subscription.current_period_end,
  });
  if (to === "FAILED" && now < schedule.expiresAt) {
    await openRenewalPayment(
      trx,
      services,
      subscription,
      renewal.period_index,
      schedule.expiresAt,
      now,
    );
  }
};
