import { SUBSCRIPTION_RENEWALS_JOB } from "../jobs.ts";
import type { Kysely } from "kysely";
import { findPayment } from "../../db/payments.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import {
  countFailedRenewals,
  findRenewalWork,
  insertRenewal,
  nextRenewalLeaseEnd,
  reclaimStaleRenewals,
  type RenewalWork,
  transitionRenewal,
} from "../../db/subscription_renewals.ts";
import {
  type DueSubscription,
  findDueSubscriptions,
  findSubscriptionById,
  nextSubscriptionChargeAt,
} from "../../db/subscriptions.ts";
import type { Services } from "../context.ts";
import { withDeadline } from "../deadline.ts";
import { newId } from "../ids.ts";
import { errorFields } from "../log.ts";
import { insertPendingPayment, transition } from "../payments/mod.ts";
import type { RecurringChargeResult, RecurringCharges } from "../providers/mod.ts";
import type { ScheduledJob } from "../scheduler.ts";
import { runLinkRenewals } from "./links.ts";
import { changeSubscription, cycleOf, endSubscription, renewalPaymentFields } from "./mod.ts";
import { period } from "./periods.ts";
import { MAX_RENEWAL_ATTEMPTS, RENEWAL_RETRY_DELAYS_MS } from "./status.ts";

/** How long a claim keeps other processes off a charge; longer than a provider call may take. */
const LEASE_MS = 60_000;
/** How long the provider may take to answer before the outcome counts as unknown. */
const PROVIDER_TIMEOUT_MS = 20_000;
/** Charges claimed, and sent to the provider concurrently, at a time. */
const BATCH_SIZE = 25;
/** Batches per run before the job yields to the others (it is run again at once). */
const MAX_ROUNDS = 50;

/**
 * Creates the renewal payment (PENDING, then PROCESSING, with their events) and the renewal
 * attempt holding the lease, for a subscription whose period ended. Returns the attempt's id.
 */
async function startRenewal(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  subscription: DueSubscription,
  now: number,
  leaseUntil: number,
): Promise<number> {
  const periodIndex = subscription.period_index + 1;
  const attempt = 1 + await countFailedRenewals(trx, subscription.id, periodIndex);
  const offer = {
    id: subscription.offer_id,
    org_id: subscription.org_id,
    public_id: subscription.qr_id,
    currency: subscription.currency,
  };
  // Charged at once: there is no payment page to expire.
  const payment = await insertPendingPayment(
    trx,
    services,
    offer,
    renewalPaymentFields(subscription, now, now),
  );
  // NOTE: PROCESSING without a deadline: only this renewal's recorded answer may end it, so
  // no expiry or timeout can mark a payment failed that the provider may have charged.
  await transition(trx, services, payment, "PROCESSING", now, { processing_deadline_at: null });
  const renewal = await insertRenewal(trx, {
    public_id: newId("subscriptionRenewal"),
    org_id: subscription.org_id,
    subscription_id: subscription.id,
    payment_id: payment.id,
    period_index: periodIndex,
    attempt,
    status: "PENDING",
    locked_until: leaseUntil,
    created_at: now,
    succeeded_at: null,
    failed_at: null,
  });
  return renewal.id;
}

/**
 * Claims work in one write: renewals whose lease ran out (a process died mid-charge), then
 * due subscriptions, each getting a renewal attempt, or ending if canceled at period end.
 */
async function claimRenewals(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  now: number,
): Promise<RenewalWork[]> {
  const leaseUntil = now + LEASE_MS;
  const ids = await reclaimStaleRenewals(trx, now, leaseUntil, BATCH_SIZE);
  const due = ids.length < BATCH_SIZE
    ? await findDueSubscriptions(trx, now, BATCH_SIZE - ids.length, "no-open-renewal")
    : [];
  for (const subscription of due) {
    // The run's `now` decides what is due; records get the time they are written at.
    const orgNow = services.clock.now() + subscription.clock_offset;
    if (subscription.cancel_at_period_end === 1) {
      await endSubscription(
        trx,
        services,
        subscription,
        "requested",
        subscription.current_period_end,
        orgNow,
      );
    } else {
      ids.push(await startRenewal(trx, services, subscription, orgNow, leaseUntil));
    }
  }
  return await findRenewalWork(trx, ids);
}

/**
 * Records a charge's answer: the attempt, the payment (with its events) and the subscription,
 * which moves to the next period (`subscription.renewed`), becomes PAST_DUE
 * (`subscription.past_due`, retried 1 and 3 days after the period end) or, after the last
 * attempt, CANCELED (`subscription.canceled`). Does nothing if another process recorded it.
 */
async function recordRenewalResult(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  work: RenewalWork,
  result: RecurringChargeResult,
): Promise<void> {
  const now = services.clock.now() + work.clock_offset;
  const succeeded = result.status === "SUCCEEDED";
  const attempt = await transitionRenewal(trx, work.id, "PENDING", result.status, {
    [succeeded ? "succeeded_at" : "failed_at"]: now,
  });
  if (!attempt) return;
  const payment = await findPayment(trx, work.org_id, work.payment_public_id);
  const paid = payment && await transition(trx, services, payment, result.status, now, {
    failure_code: result.status === "FAILED" ? result.failureCode : null,
  });
  const subscription = await findSubscriptionById(trx, work.subscription_id);
  if (!paid || subscription?.period_index !== work.period_index - 1) {
    throw new Error(`Renewal ${work.public_id} no longer matches its payment or subscription.`);
  }
  const changes = { latest_payment_id: paid.id };
  let changed;
  if (succeeded) {
    const next = period(subscription.anchor_at, cycleOf(subscription), work.period_index);
    changed = await changeSubscription(trx, services, subscription, "ACTIVE", now, {
      ...changes,
      period_index: work.period_index,
      current_period_start: next.start,
      current_period_end: next.end,
      next_charge_at: next.end,
    }, "subscription.renewed");
  } else if (subscription.cancel_at_period_end === 1) {
    // Canceled at the period end while this charge was in flight: no retries.
    changed = await endSubscription(trx, services, subscription, "requested", now, now, changes);
  } else if (work.attempt >= MAX_RENEWAL_ATTEMPTS) {
    const reason = "renewal_failed";
    changed = await endSubscription(trx, services, subscription, reason, now, now, changes);
  } else {
    changed = await changeSubscription(trx, services, subscription, "PAST_DUE", now, {
      ...changes,
      next_charge_at: subscription.current_period_end + RENEWAL_RETRY_DELAYS_MS[work.attempt - 1],
    }, subscription.status === "PAST_DUE" ? undefined : "subscription.past_due");
  }
  // NOTE: a charged payment never commits without its subscription moving with it.
  if (!changed) throw new Error(`Renewal ${work.public_id} could not update its subscription.`);
}

async function chargeRenewal(
  services: Services,
  renewals: RecurringCharges,
  work: RenewalWork,
): Promise<void> {
  let result: RecurringChargeResult;
  try {
    result = await withDeadline(
      renewals.chargeRecurring({
        idempotencyKey: work.public_id,
        paymentId: work.payment_public_id,
        subscriptionId: work.subscription_public_id,
        amount: work.amount,
        currency: work.currency,
        metadata: JSON.parse(work.offer_metadata),
      }),
      PROVIDER_TIMEOUT_MS,
      `The provider's charge ${work.public_id}`,
    );
  } catch (error) {
    // NOTE: an unknown outcome is never recorded as a failure: the customer may have been
    // charged. The attempt keeps its lease; when it runs out the charge is sent again under the
    // same idempotency key, so the provider answers without charging twice.
    services.log.warn("renewal charge outcome unknown; retrying after the lease", {
      renewalId: work.public_id,
      ...errorFields(error),
    });
    return;
  }
  await services.store.write((trx) => recordRenewalResult(trx, services, work, result));
}

/**
 * Charges subscription renewals when their period ends (in each organisation's time), resumes
 * charges whose process died, and ends subscriptions canceled at period end. With a provider
 * that cannot charge a stored method, sends renewal links instead (links.ts). Claims are leased
 * in the database, so two processes over one database never charge a period twice.
 */
export function subscriptionRenewalsJob(services: Services): ScheduledJob {
  const db = services.store.db;
  return {
    name: SUBSCRIPTION_RENEWALS_JOB,
    async run(now) {
      // A provider that cannot charge a stored method: the customer pays each renewal's link.
      const renewals = services.provider.renewals;
      if (renewals === null) return await runLinkRenewals(services, now);
      for (let round = 0; round < MAX_ROUNDS; round++) {
        // A read first, so an idle run costs no write transaction.
        const times = [
          await nextSubscriptionChargeAt(db, "no-open-renewal"),
          await nextRenewalLeaseEnd(db),
        ]
          .filter((at): at is number => at !== null);
        const next = times.length === 0 ? null : Math.min(...times);
        if (next === null || next > now) return next;
        const claimed = await services.store.write((trx) => claimRenewals(trx, services, now));
        const charged = await Promise.allSettled(
          claimed.map((work) => chargeRenewal(services, renewals, work)),
        );
        const failure = charged.find((outcome) => outcome.status === "rejected");
        if (failure) throw failure.reason;
      }
      return now;
    },
  };
}
