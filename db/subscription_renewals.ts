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

/** Tells whether a subscription has a charge in flight. */
export async function hasPendingRenewal(db: Db, subscriptionId: number): Promise<boolean> {
  const row = await db.selectFrom("subscription_renewals").select("id")
    .where("subscription_id", "=", subscriptionId).where("status", "=", "PENDING")
    .executeTakeFirst();
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
    .where("status", "=", "PENDING").where("locked_until", "<=", now)
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
    .select((eb) => eb.fn.min<number>("locked_until").as("at")).executeTakeFirst();
  return typeof row?.at === "number" ? row.at : null;
}
