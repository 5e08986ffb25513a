import {
  dailyPaymentTotals,
  findSubscriptionIdOfPayment,
  listPaymentEvents,
} from "../../db/payment_insights.ts";
import { findOffersByIds } from "../../db/offers.ts";
import { listRefundsOfPayment } from "../../db/refunds.ts";
import type { EventRow } from "../../db/schema.ts";
import { findSubscription } from "../../db/subscriptions.ts";
import type { OrgContext } from "../context.ts";
import { getPayment, type PaymentRecord } from "../payments/mod.ts";
import type { RefundRecord } from "../refunds/mod.ts";
import type { SubscriptionRecord } from "../subscriptions/mod.ts";

const DAY_MS = 86_400_000;

/** One day of the chart. */
export interface ChartDay {
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  /** What succeeded that day, in minor units of the chart's currency. */
  volume: number;
  succeeded: number;
  failed: number;
  /** succeeded / (succeeded + failed), or null on a day without a decided payment. */
  successRate: number | null;
}

/** The last days of payments in one currency, for the home page. */
export interface PaymentOverview {
  currency: string | null;
  /** Every currency with payments in the period, the busiest first. */
  currencies: string[];
  days: ChartDay[];
  totals: { volume: number; succeeded: number; failed: number; successRate: number | null };
}

function rate(succeeded: number, failed: number): number | null {
  return succeeded + failed === 0 ? null : succeeded / (succeeded + failed);
}

/**
 * Payment volume and success rate per UTC day over the last `days` days (today included) on the
 * organisation's clock, in `currency` or else the currency with the most payments. The success
 * rate counts payments that were decided: those that succeeded or failed, not the ones that
 * expired or were canceled before a code was entered.
 */
export async function paymentOverview(
  ctx: OrgContext,
  options: { days: number; currency?: string },
): Promise<PaymentOverview> {
  const today = Math.floor(ctx.now() / DAY_MS);
  const firstDay = today - options.days + 1;
  const rows = await dailyPaymentTotals(ctx.db, ctx.orgId, firstDay * DAY_MS, (today + 1) * DAY_MS);
  const activity = new Map<string, number>();
  for (const row of rows) {
    activity.set(row.currency, (activity.get(row.currency) ?? 0) + row.succeeded + row.failed);
  }
  const currencies = [...activity.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([code]) => code);
  const currency = options.currency && currencies.includes(options.currency)
    ? options.currency
    : currencies[0] ?? null;
  const byDay = new Map(
    rows.filter((row) => row.currency === currency).map((row) => [row.day, row]),
  );
  const days: ChartDay[] = [];
  for (let day = firstDay; day <= today; day++) {
    const row = byDay.get(day);
    const succeeded = row?.succeeded ?? 0;
    const failed = row?.failed ?? 0;
    days.push({
      date: new Date(day * DAY_MS).toISOString().slice(0, 10),
      volume: row?.succeeded_amount ?? 0,
      succeeded,
      failed,
      successRate: rate(succeeded, failed),
    });
  }
  const succeeded = days.reduce((sum, day) => sum + day.succeeded, 0);
  const failed = days.reduce((sum, day) => sum + day.failed, 0);
  return {
    currency,
    currencies,
    days,
    totals: {
      volume: days.reduce((sum, day) => sum + day.volume, 0),
      succeeded,
      failed,
      successRate: rate(succeeded, failed),
    },
  };
}

/** Everything a payment's page shows: the payment, its refunds, events and subscription. */
export interface PaymentDetail {
  payment: PaymentRecord;
  refunds: RefundRecord[];
  events: EventRow[];
  subscription: SubscriptionRecord | null;
}

/** Loads a payment with its refunds, its timeline of events and its subscription, if any. */
export async function paymentDetail(ctx: OrgContext, paymentId: string): Promise<PaymentDetail> {
  const payment = await getPayment(ctx, paymentId);
  const [refunds, events, subscriptionId] = await Promise.all([
    listRefundsOfPayment(ctx.db, payment.id, { limit: 100 }),
    listPaymentEvents(ctx.db, ctx.orgId, payment.public_id, 100),
    findSubscriptionIdOfPayment(ctx.db, ctx.orgId, payment.id),
  ]);
  const subscription = subscriptionId === undefined
    ? null
    : await findSubscription(ctx.db, ctx.orgId, subscriptionId) ?? null;
  return { payment, refunds, events, subscription };
}

/** The names of the offers some payments are for, by the offer's row id. */
export async function offerNamesOf(
  ctx: OrgContext,
  payments: readonly PaymentRecord[],
): Promise<Map<number, string>> {
  const ids = [...new Set(payments.map((payment) => payment.offer_id))];
  const offers = await findOffersByIds(ctx.db, ids);
  return new Map(
    offers.filter((offer) => offer.org_id === ctx.orgId).map((offer) => [offer.id, offer.name]),
  );
}
