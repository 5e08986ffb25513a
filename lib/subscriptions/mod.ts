import type { Kysely, Updateable } from "kysely";
import type { EnvironmentSchema, SubscriptionRow, SubscriptionsTable } from "../../db/schema.ts";
import {
  findSubscription,
  findSubscriptionById,
  listSubscriptions as listSubscriptionRows,
  type SubscriptionRecord,
  updateSubscription,
} from "../../db/subscriptions.ts";
import { toIso, toIsoOrNull } from "../clock.ts";
import type { OrgContext, Services } from "../context.ts";
import { ApiError, notFound } from "../errors.ts";
import { type EventType, recordEvent } from "../events.ts";
import { newId } from "../ids.ts";
import type { RecurringInterval } from "../offers.ts";
import { pageAfter } from "../pagination.ts";
import type { PendingPaymentFields } from "../payments/mod.ts";
import type { Page } from "../schemas.ts";
import { closeOpenRenewal } from "./link_rules.ts";
import { renewsByLink } from "./link_schedule.ts";
import type { BillingCycle } from "./periods.ts";
import type { CancelSubscriptionRequest, ListSubscriptionsQuery, Subscription } from "./schemas.ts";
import {
  type CancellationReason,
  canTransition,
  MILESTONE_COLUMN,
  type SubscriptionStatus,
} from "./status.ts";

export type { SubscriptionRecord };

/** The API form of a subscription. */
export function toSubscription(row: SubscriptionRecord): Subscription {
  const canceled = row.status === "CANCELED";
  return {
    subscriptionId: row.public_id,
    qrId: row.qr_id,
    paymentId: row.first_payment_public_id,
    latestPaymentId: row.latest_payment_public_id,
    status: row.status as SubscriptionStatus,
    amount: row.amount,
    currency: row.currency,
    quantity: row.quantity,
    recurring: {
      interval: row.recurring_interval as RecurringInterval,
      intervalCount: row.recurring_interval_count,
    },
    currentPeriodStart: toIso(row.current_period_start),
    currentPeriodEnd: toIso(row.current_period_end),
    cancelAtPeriodEnd: row.cancel_at_period_end === 1,
    nextChargeAt: canceled || row.cancel_at_period_end === 1
      ? null
      : toIsoOrNull(row.next_charge_at),
    renewalPaymentId: row.renewal_payment_public_id,
    canceledAt: toIsoOrNull(row.canceled_at),
    cancellationReason: row.cancellation_reason as CancellationReason | null,
    customer: { email: row.customer_email, name: row.customer_name },
    metadata: JSON.parse(row.metadata),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    version: row.version,
  };
}

/** A subscription's billing rhythm. */
export function cycleOf(row: SubscriptionRow): BillingCycle {
  return {
    interval: row.recurring_interval as RecurringInterval,
    count: row.recurring_interval_count,
  };
}

/**
 * Moves a subscription to `to` with `changes` if it is still in the status and period it was
 * read in (compare-and-set), and writes `event` if given. Returns undefined if it changed.
 */
export async function changeSubscription(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  subscription: SubscriptionRow,
  to: SubscriptionStatus,
  now: number,
  changes: Updateable<SubscriptionsTable>,
  event?: EventType,
): Promise<SubscriptionRecord | undefined> {
  const from = subscription.status as SubscriptionStatus;
  if (!canTransition(from, to)) return undefined;
  const milestone = to !== from && to !== "ACTIVE" ? { [MILESTONE_COLUMN[to]]: now } : {};
  const updated = await updateSubscription(
    trx,
    subscription.id,
    { status: from, periodIndex: subscription.period_index },
    { ...milestone, ...changes, status: to, updated_at: now },
  );
  if (!updated) return undefined;
  const record = (await findSubscriptionById(trx, subscription.id))!;
  if (event) {
    await recordEvent(trx, {
      orgId: record.org_id,
      type: event,
      environment: services.environment,
      createdAt: now,
      data: toSubscription(record),
    });
  }
  return record;
}

/** Ends a subscription for `reason`, effective `at`; writes `subscription.canceled`. */
export async function endSubscription(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  subscription: SubscriptionRow,
  reason: CancellationReason,
  at: number,
  now: number,
  changes: Updateable<SubscriptionsTable> = {},
): Promise<SubscriptionRecord | undefined> {
  return await changeSubscription(trx, services, subscription, "CANCELED", now, {
    ...changes,
    next_charge_at: null,
    canceled_at: at,
    cancellation_reason: reason,
  }, "subscription.canceled");
}

/** Gets one of the organisation's subscriptions or throws 404. */
export async function getSubscription(
  ctx: OrgContext,
  subscriptionId: string,
): Promise<SubscriptionRecord> {
  const row = await findSubscription(ctx.db, ctx.orgId, subscriptionId);
  if (!row) throw notFound("subscription", subscriptionId, "subscriptionId");
  return row;
}

/** Lists the organisation's subscriptions newest first, by status and offer. */
export function listSubscriptions(
  ctx: OrgContext,
  query: ListSubscriptionsQuery,
): Promise<Page<SubscriptionRecord>> {
  return pageAfter(
    query,
    (subscriptionId) => findSubscription(ctx.db, ctx.orgId, subscriptionId),
    (beforeId, limit) =>
      listSubscriptionRows(ctx.db, ctx.orgId, {
        status: query.status,
        qrId: query.qrId,
        beforeId,
        limit,
      }),
  );
}

/**
 * Cancels a subscription now (`subscription.canceled`), or schedules the cancellation for the
 * end of the paid period (no event until it happens: the contract has no update event). Either
 * way an unpaid renewal link is canceled (link_rules.ts).
 */
export function cancelSubscription(
  ctx: OrgContext,
  subscriptionId: string,
  input: CancelSubscriptionRequest,
): Promise<SubscriptionRecord> {
  return ctx.write(async (trx) => {
    const subscription = await findSubscription(trx, ctx.orgId, subscriptionId);
    if (!subscription) throw notFound("subscription", subscriptionId, "subscriptionId");
    const status = subscription.status as SubscriptionStatus;
    if (status === "CANCELED") {
      throw new ApiError(
        "subscription_canceled",
        `The subscription '${subscriptionId}' is already CANCELED.`,
      );
    }
    const now = ctx.now();
    if (input.atPeriodEnd) {
      if (status === "PAST_DUE") {
        throw new ApiError(
          "subscription_past_due",
          `The subscription '${subscriptionId}' is PAST_DUE: its period already ended unpaid. ` +
            "Cancel it now with atPeriodEnd: false.",
          { param: "atPeriodEnd" },
        );
      }
      if (subscription.cancel_at_period_end === 1) return subscription;
      const byLink = renewsByLink(ctx.services);
      // Renewing by link, the customer is not asked to pay for a period that will not come.
      if (byLink) await closeOpenRenewal(trx, ctx.services, subscription, now);
      const scheduled = await changeSubscription(trx, ctx.services, subscription, status, now, {
        cancel_at_period_end: 1,
        ...(byLink && { next_charge_at: subscription.current_period_end }),
      });
      if (!scheduled) throw new Error("A subscription read in this transaction changed.");
      return scheduled;
    }
    // NOTE: a charge in flight may already have taken the customer's money; canceling under it
    // would leave a paid renewal on a canceled subscription. An unpaid link is canceled with it.
    await closeOpenRenewal(trx, ctx.services, subscription, now);
    const canceled = await endSubscription(trx, ctx.services, subscription, "requested", now, now);
    if (!canceled) throw new Error("A subscription read in this transaction changed.");
    return canceled;
  });
}

/**
 * What a renewal payment of `subscription` is made of: its amount, quantity, customer and
 * metadata (with the subscription's id), no redirects and no invoice; it expires at `expiresAt`.
 */
export function renewalPaymentFields(
  subscription: Pick<
    SubscriptionRow,
    "public_id" | "amount" | "quantity" | "customer_email" | "customer_name" | "metadata"
  >,
  expiresAt: number,
  now: number,
): PendingPaymentFields {
  return {
    publicId: newId("payment"),
    amount: subscription.amount,
    quantity: subscription.quantity,
    customerEmail: subscription.customer_email,
    customerName: subscription.customer_name,
    successUrl: null,
    cancelUrl: null,
    metadata: { ...JSON.parse(subscription.metadata), subscriptionId: subscription.public_id },
    invoice: null,
    expiresAt,
    now,
  };
}
