import { type Kysely, type Updateable } from "kysely";
import { clockOffsetOf } from "./sandbox_clocks.ts";
import type {
  EnvironmentSchema,
  NewSubscriptionRenewal,
  SubscriptionRenewalRow,
  SubscriptionRenewalsTable,
} from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** A claimed renewal with what charging it needs. */
export type RenewalWork = SubscriptionRenewalRow & {
  payment_public_id: string;
  subscription_public_id: string;
  amount: number;
  currency: string;
  offer_metadata: string;
  clock_offset: number;
};

/** Inserts a renewal attempt. */
export function insertRenewal(
  db: Db,
  values: NewSubscriptionRenewal,
): Promise<SubscriptionRenewalRow> {
  return db.insertInto("subscription_renewals").values(values).returningAll()
    .executeTakeFirstOrThrow();
}

/** Tells whether a payment was charged by a renewal (rather than paid by the customer). */
export async function isRenewalPayment(db: Db, paymentId: number): Promise<boolean> {
  const row = await db.selectFrom("subscription_renewals").select("id")
    .where("payment_id", "=", paymentId).executeTakeFirst();
  return row !== undefined;
}

/** How many charges of a subscription's period already failed. */
export async function countFailedRenewals(
  db: Db,
  subscriptionId: number,
  periodIndex: number,
): Promise<number> {
  const row = await db.selectFrom("subscription_renewals")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("subscription_id", "=", subscriptionId).where("period_index", "=", periodIndex)
    .where("status", "=", "FAILED").executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Takes over up to `limit` pending renewals whose lease ran out (their process died or lost
 * the provider's answer) until `leaseUntil`; returns their ids. Run inside a write transaction.
 */
export async function reclaimStaleRenewals(
  db: Db,
  now: number,
  leaseUntil: number,
  limit: number,
): Promise<number[]> {
  const stale = await db.selectFrom("subscription_renewals").select("id")
    .where("status", "=", "PENDING").where("method", "=", "CHARGE").where("locked_until", "<=", now)
    .orderBy("locked_until").limit(limit).execute();
  if (stale.length === 0) return [];
  const taken = await db.updateTable("subscription_renewals").set({ locked_until: leaseUntil })
    .where("id", "in", stale.map((row) => row.id))
    .where("status", "=", "PENDING").where("locked_until", "<=", now)
    .returning("id").execute();
  return taken.map((row) => row.id);
}

/** The renewals with these ids, with what charging them needs. */
export function findRenewalWork(db: Db, ids: number[]): Promise<RenewalWork[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("subscription_renewals")
    .innerJoin("subscriptions", "subscriptions.id", "subscription_renewals.subscription_id")
    .innerJoin("payments", "payments.id", "subscription_renewals.payment_id")
    .innerJoin("offers", "offers.id", "subscriptions.offer_id")
    .selectAll("subscription_renewals")
    .select([
      "payments.public_id as payment_public_id",
      "subscriptions.public_id as subscription_public_id",
      "payments.amount as amount",
      "payments.currency as currency",
      "offers.metadata as offer_metadata",
    ])
    .select(clockOffsetOf("subscription_renewals.org_id").as("clock_offset"))
    .where("subscription_renewals.id", "in", ids)
    .orderBy("subscription_renewals.id").execute();
}

/**
 * Moves a renewal from `from` to `to` only if it is still in `from` (compare-and-set).
 * Returns the updated row, or undefined if another process recorded it first.
 */
export function transitionRenewal(
  db: Db,
  id: number,
  from: string,
  to: string,
  changes: Updateable<SubscriptionRenewalsTable>,
): Promise<SubscriptionRenewalRow | undefined> {
  return db.updateTable("subscription_renewals").set({ ...changes, status: to })
    .where("id", "=", id).where("status", "=", from)
    .returningAll().executeTakeFirst();
}

/** When the earliest lease of a charge in flight runs out (system time), or null. */
export async function nextRenewalLeaseEnd(db: Db): Promise<number | null> {
  const row = await db.selectFrom("subscription_renewals").where("status", "=", "PENDING")
    .where("method", "=", "CHARGE")
    .select((eb) => eb.fn.min<number>("locked_until").as("at")).executeTakeFirst();
  return typeof row?.at === "number" ? row.at : null;
}

/** A subscription's open renewal with its payment: a charge in flight, or a link not yet paid. */
export type OpenRenewal = SubscriptionRenewalRow & {
  payment_public_id: string;
  payment_status: string;
  payment_expires_at: number;
};

function selectRenewalsWithPayment(db: Db) {
  return db.selectFrom("subscription_renewals")
    .innerJoin("payments", "payments.id", "subscription_renewals.payment_id")
    .selectAll("subscription_renewals")
    .select([
      "payments.public_id as payment_public_id",
      "payments.status as payment_status",
      "payments.expires_at as payment_expires_at",
    ]);
}

/** The subscription's renewal still PENDING (at most one: a unique index), if any. */
export function findOpenRenewal(db: Db, subscriptionId: number): Promise<OpenRenewal | undefined> {
  return selectRenewalsWithPayment(db)
    .where("subscription_renewals.subscription_id", "=", subscriptionId)
    .where("subscription_renewals.status", "=", "PENDING").executeTakeFirst();
}

/** The renewal a payment belongs to, if it is a renewal payment. */
export function findRenewalOfPayment(
  db: Db,
  paymentId: number,
): Promise<SubscriptionRenewalRow | undefined> {
  return db.selectFrom("subscription_renewals").selectAll()
    .where("payment_id", "=", paymentId).executeTakeFirst();
}

/** A subscription's renewals paid by link, newest first. */
export function listLinkRenewals(
  db: Db,
  subscriptionId: number,
  limit: number,
): Promise<OpenRenewal[]> {
  return selectRenewalsWithPayment(db)
    .where("subscription_renewals.subscription_id", "=", subscriptionId)
    .where("subscription_renewals.method", "=", "LINK")
    .orderBy("subscription_renewals.id", "desc").limit(limit).execute();
}

/** What a renewal e-mail says about its subscription, found by the renewal payment. */
export interface RenewalEmailSubject {
  period_index: number;
  anchor_at: number;
  recurring_interval: string;
  recurring_interval_count: number;
  /** The language of the payment that started the subscription. */
  first_locale: string | null;
  expires_at: number;
}

/** The subscription side of a renewal payment's e-mail, or undefined for another payment. */
export function findRenewalEmailSubject(
  db: Db,
  paymentId: number,
): Promise<RenewalEmailSubject | undefined> {
  return db.selectFrom("subscription_renewals")
    .innerJoin("subscriptions", "subscriptions.id", "subscription_renewals.subscription_id")
    .innerJoin("payments as first", "first.id", "subscriptions.first_payment_id")
    .innerJoin("payments as renewal", "renewal.id", "subscription_renewals.payment_id")
    .select([
      "subscription_renewals.period_index",
      "subscriptions.anchor_at",
      "subscriptions.recurring_interval",
      "subscriptions.recurring_interval_count",
      "first.locale as first_locale",
      "renewal.expires_at",
    ])
    .where("subscription_renewals.payment_id", "=", paymentId).executeTakeFirst();
}
