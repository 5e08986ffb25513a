import { type Kysely, sql, type Updateable } from "kysely";
import { clockOffsetOf, maxClockOffset } from "./sandbox_clocks.ts";
import { nextVersion } from "./versions.ts";
import type {
  EnvironmentSchema,
  NewSubscription,
  SubscriptionRow,
  SubscriptionsTable,
} from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** A subscription row with the public ids of its offer and its first and latest payments. */
export type SubscriptionRecord = SubscriptionRow & {
  qr_id: string;
  first_payment_public_id: string;
  latest_payment_public_id: string;
  /** The renewal payment the customer was sent a link to and has not paid yet, if any. */
  renewal_payment_public_id: string | null;
};

/** A subscription due for a charge or a scheduled cancellation, with its clock offset. */
export type DueSubscription = SubscriptionRow & { qr_id: string; clock_offset: number };

function selectSubscriptions(db: Db) {
  return db.selectFrom("subscriptions")
    .innerJoin("offers", "offers.id", "subscriptions.offer_id")
    .innerJoin("payments as first_payment", "first_payment.id", "subscriptions.first_payment_id")
    .innerJoin(
      "payments as latest_payment",
      "latest_payment.id",
      "subscriptions.latest_payment_id",
    )
    .selectAll("subscriptions")
    .select([
      "offers.public_id as qr_id",
      "first_payment.public_id as first_payment_public_id",
      "latest_payment.public_id as latest_payment_public_id",
    ])
    .select((eb) =>
      eb.selectFrom("subscription_renewals")
        .innerJoin("payments", "payments.id", "subscription_renewals.payment_id")
        .select("payments.public_id")
        .whereRef("subscription_renewals.subscription_id", "=", "subscriptions.id")
        .where("subscription_renewals.status", "=", "PENDING")
        .where("subscription_renewals.method", "=", "LINK")
        .as("renewal_payment_public_id")
    );
}

/** Inserts a subscription. */
export function insertSubscription(db: Db, values: NewSubscription): Promise<SubscriptionRow> {
  return db.insertInto("subscriptions").values(values).returningAll().executeTakeFirstOrThrow();
}

/** Finds an organisation's subscription by its public id. */
export function findSubscription(
  db: Db,
  orgId: number,
  publicId: string,
): Promise<SubscriptionRecord | undefined> {
  return selectSubscriptions(db).where("subscriptions.org_id", "=", orgId)
    .where("subscriptions.public_id", "=", publicId).executeTakeFirst();
}

/** Finds a subscription by its row id. */
export function findSubscriptionById(
  db: Db,
  id: number,
): Promise<SubscriptionRecord | undefined> {
  return selectSubscriptions(db).where("subscriptions.id", "=", id).executeTakeFirst();
}

/** Lists an organisation's subscriptions newest first, with optional filters. */
export function listSubscriptions(
  db: Db,
  orgId: number,
  filter: { status?: string; qrId?: string; beforeId?: number; limit: number },
): Promise<SubscriptionRecord[]> {
  let query = selectSubscriptions(db).where("subscriptions.org_id", "=", orgId);
  if (filter.status !== undefined) query = query.where("subscriptions.status", "=", filter.status);
  if (filter.qrId !== undefined) query = query.where("offers.public_id", "=", filter.qrId);
  if (filter.beforeId !== undefined) query = query.where("subscriptions.id", "<", filter.beforeId);
  return query.orderBy("subscriptions.id", "desc").limit(filter.limit).execute();
}

/**
 * Changes a subscription only if it is still in `status` at period `periodIndex`
 * (compare-and-set). Returns the updated row, or undefined if it changed meanwhile.
 */
export function updateSubscription(
  db: Db,
  id: number,
  expected: { status: string; periodIndex: number },
  changes: Updateable<SubscriptionsTable>,
): Promise<SubscriptionRow | undefined> {
  return db.updateTable("subscriptions").set({ ...changes, version: nextVersion })
    .where("id", "=", id).where("status", "=", expected.status)
    .where("period_index", "=", expected.periodIndex)
    .returningAll().executeTakeFirst();
}

/**
 * Which open renewals keep a subscription from being due: any (charges, whose result is awaited),
 * or only charges (renewing by link, the job also sends an open link's reminders).
 */
export type DueFilter = "no-open-renewal" | "no-charge-in-flight";

function noPendingRenewal(filter: DueFilter, table = "subscriptions") {
  const method = filter === "no-charge-in-flight"
    ? sql`and subscription_renewals.method = 'CHARGE'`
    : sql``;
  return sql<boolean>`not exists (select 1 from subscription_renewals
  where subscription_renewals.subscription_id = ${sql.ref(`${table}.id`)}
  and subscription_renewals.status = 'PENDING' ${method})`;
}

const systemChargeAt = sql<number>`subscriptions.next_charge_at - ${
  clockOffsetOf("subscriptions.org_id")
}`;

// NOTE: `next_charge_at` is set exactly while a subscription is live (a CHECK constraint), so a
// range on it selects live subscriptions through the partial index `subscriptions_next_charge`.

/**
 * Live subscriptions whose next charge (or scheduled cancellation) is due at system time `now`
 * in their organisation's time, and that have no charge in flight; earliest first.
 */
export function findDueSubscriptions(
  db: Db,
  now: number,
  limit: number,
  filter: DueFilter,
): Promise<DueSubscription[]> {
  return db.selectFrom("subscriptions")
    .innerJoin("offers", "offers.id", "subscriptions.offer_id")
    .selectAll("subscriptions")
    .select("offers.public_id as qr_id")
    .select(clockOffsetOf("subscriptions.org_id").as("clock_offset"))
    .where("subscriptions.next_charge_at", "<=", sql<number>`${now} + ${maxClockOffset()}`)
    .where(systemChargeAt, "<=", now)
    .where(noPendingRenewal(filter))
    .orderBy(systemChargeAt).limit(limit).execute();
}

/**
 * The system time of the earliest charge of a live subscription with none in flight. Only
 * charges within the largest clock offset of the earliest one can come first, so the scan stays
 * that short.
 */
export async function nextSubscriptionChargeAt(
  db: Db,
  filter: DueFilter,
): Promise<number | null> {
  const earliest = sql<number>`(select first.next_charge_at from subscriptions as first
    where first.next_charge_at is not null and ${noPendingRenewal(filter, "first")}
    order by first.next_charge_at limit 1)`;
  const row = await db.selectFrom("subscriptions")
    .select((eb) => eb.fn.min<number>(systemChargeAt).as("at"))
    .where("subscriptions.next_charge_at", "<=", sql<number>`${earliest} + ${maxClockOffset()}`)
    .where(noPendingRenewal(filter))
    .executeTakeFirst();
  return typeof row?.at === "number" ? row.at : null;
}
