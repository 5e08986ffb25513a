import { type Kysely, sql } from "kysely";
import type { EnvironmentSchema, EventRow } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

const DAY_MS = 86_400_000;

/** One UTC day's payments of one currency: how many succeeded (and for how much) or failed. */
interface DailyPaymentTotals {
  /** Days since the Unix epoch (UTC). */
  day: number;
  currency: string;
  succeeded: number;
  succeeded_amount: number;
  failed: number;
}

/** Daily totals of an organisation's payments created in [from, to), by UTC day and currency. */
export async function dailyPaymentTotals(
  db: Db,
  orgId: number,
  from: number,
  to: number,
): Promise<DailyPaymentTotals[]> {
  // An integer literal: a bound JavaScript number may arrive as REAL and divide exactly.
  const day = sql<number>`payments.created_at / ${sql.lit(DAY_MS)}`;
  const rows = await db.selectFrom("payments")
    .select([
      day.as("day"),
      "currency",
      sql<number>`sum(status = 'SUCCEEDED')`.as("succeeded"),
      sql<number>`coalesce(sum(case when status = 'SUCCEEDED' then amount end), 0)`
        .as("succeeded_amount"),
      sql<number>`sum(status = 'FAILED')`.as("failed"),
    ])
    .where("org_id", "=", orgId).where("created_at", ">=", from).where("created_at", "<", to)
    .groupBy([day, "currency"]).execute();
  return rows.map((row) => ({
    day: Number(row.day),
    currency: row.currency,
    succeeded: Number(row.succeeded),
    succeeded_amount: Number(row.succeeded_amount),
    failed: Number(row.failed),
  }));
}

/** The events that name a payment in `data.paymentId` (its own, its refunds', its session's). */
export function listPaymentEvents(
  db: Db,
  orgId: number,
  paymentPublicId: string,
  limit: number,
): Promise<EventRow[]> {
  return db.selectFrom("events").selectAll().where("org_id", "=", orgId)
    .where(sql`json_extract(payload, '$.data.paymentId')`, "=", paymentPublicId)
    .orderBy("id", "desc").limit(limit).execute();
}

/** The subscription a payment started or renewed, if any. */
export async function findSubscriptionIdOfPayment(
  db: Db,
  orgId: number,
  paymentId: number,
): Promise<string | undefined> {
  const started = await db.selectFrom("subscriptions").select("public_id")
    .where("org_id", "=", orgId).where("first_payment_id", "=", paymentId).executeTakeFirst();
  if (started) return started.public_id;
  const renewed = await db.selectFrom("subscription_renewals")
    .innerJoin("subscriptions", "subscriptions.id", "subscription_renewals.subscription_id")
    .select("subscriptions.public_id")
    .where("subscription_renewals.org_id", "=", orgId)
    .where("subscription_renewals.payment_id", "=", paymentId).executeTakeFirst();
  return renewed?.public_id;
}
