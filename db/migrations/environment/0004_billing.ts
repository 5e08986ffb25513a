import { type Kysely, sql } from "kysely";

/**
 * Refunds, subscriptions with their renewal attempts, and each organisation's sandbox clock.
 *
 * Times named `locked_until` are system time (leases between processes); every other time is
 * the organisation's time, which in the sandbox may run ahead of the system clock by the
 * organisation's `sandbox_clocks.offset_ms`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("refunds")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn("payment_id", "integer", (col) => col.notNull().references("payments.id"))
    .addColumn("amount", "integer", (col) => col.notNull().check(sql`amount > 0`))
    .addColumn("currency", "text", (col) => col.notNull())
    .addColumn(
      "status",
      "text",
      (col) => col.notNull().check(sql`status IN ('PENDING', 'SUCCEEDED', 'FAILED')`),
    )
    .addColumn("reason", "text")
    .addColumn("failure_code", "text")
    .addColumn("locked_until", "integer", (col) => col.notNull())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .addColumn("succeeded_at", "integer")
    .addColumn("failed_at", "integer")
    .execute();
  await db.schema.createIndex("refunds_payment").on("refunds").columns(["payment_id", "id"])
    .execute();
  await db.schema.createIndex("refunds_pending").on("refunds").column("locked_until")
    .where(sql.ref("status"), "=", "PENDING").execute();

  await db.schema.createTable("subscriptions")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn("offer_id", "integer", (col) => col.notNull().references("offers.id"))
    .addColumn(
      "first_payment_id",
      "integer",
      (col) => col.notNull().unique().references("payments.id"),
    )
    .addColumn("latest_payment_id", "integer", (col) => col.notNull().references("payments.id"))
    .addColumn(
      "status",
      "text",
      (col) => col.notNull().check(sql`status IN ('ACTIVE', 'PAST_DUE', 'CANCELED')`),
    )
    .addColumn("amount", "integer", (col) => col.notNull().check(sql`amount >= 0`))
    .addColumn("currency", "text", (col) => col.notNull())
    .addColumn("quantity", "integer", (col) => col.notNull().check(sql`quantity >= 1`))
    .addColumn(
      "recurring_interval",
      "text",
      (col) => col.notNull().check(sql`recurring_interval IN ('DAY', 'WEEK', 'MONTH', 'YEAR')`),
    )
    .addColumn(
      "recurring_interval_count",
      "integer",
      (col) => col.notNull().check(sql`recurring_interval_count >= 1`),
    )
    .addColumn("customer_email", "text")
    .addColumn("customer_name", "text")
    .addColumn("metadata", "text", (col) => col.notNull().defaultTo("{}"))
    .addColumn("anchor_at", "integer", (col) => col.notNull())
    .addColumn("period_index", "integer", (col) => col.notNull().check(sql`period_index >= 0`))
    .addColumn("current_period_start", "integer", (col) => col.notNull())
    .addColumn("current_period_end", "integer", (col) => col.notNull())
    .addColumn(
      "cancel_at_period_end",
      "integer",
      (col) => col.notNull().defaultTo(0).check(sql`cancel_at_period_end IN (0, 1)`),
    )
    .addColumn("next_charge_at", "integer")
    .addColumn(
      "cancellation_reason",
      "text",
      (col) => col.check(sql`cancellation_reason IN ('requested', 'renewal_failed')`),
    )
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .addColumn("past_due_at", "integer")
    .addColumn("canceled_at", "integer")
    .addCheckConstraint(
      "subscriptions_live_have_next_charge",
      sql`(status = 'CANCELED') = (next_charge_at IS NULL)`,
    )
    .execute();
  await db.schema.createIndex("subscriptions_org").on("subscriptions").columns(["org_id", "id"])
    .execute();
  await db.schema.createIndex("subscriptions_org_status").on("subscriptions")
    .columns(["org_id", "status", "id"]).execute();
  await db.schema.createIndex("subscriptions_org_offer").on("subscriptions")
    .columns(["org_id", "offer_id", "id"]).execute();
  // next_charge_at is set exactly while a subscription is live (the CHECK above), so this index
  // holds the live ones, and a range condition on the column lets a query with bound
  // parameters use it.
  await db.schema.createIndex("subscriptions_next_charge").on("subscriptions")
    .column("next_charge_at").where(sql.ref("next_charge_at"), "is not", null).execute();

  // One row per charge attempt of a period; its public id is the provider's idempotency key.
  await db.schema.createTable("subscription_renewals")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn("subscription_id", "integer", (col) => col.notNull().references("subscriptions.id"))
    .addColumn("payment_id", "integer", (col) => col.notNull().unique().references("payments.id"))
    .addColumn("period_index", "integer", (col) => col.notNull().check(sql`period_index >= 1`))
    .addColumn("attempt", "integer", (col) => col.notNull().check(sql`attempt >= 1`))
    .addColumn(
      "status",
      "text",
      (col) => col.notNull().check(sql`status IN ('PENDING', 'SUCCEEDED', 'FAILED')`),
    )
    .addColumn("locked_until", "integer", (col) => col.notNull())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("succeeded_at", "integer")
    .addColumn("failed_at", "integer")
    .addUniqueConstraint("subscription_renewals_attempt", [
      "subscription_id",
      "period_index",
      "attempt",
    ])
    .execute();
  // NOTE: at most one charge in flight per subscription, whatever the processes do.
  await db.schema.createIndex("subscription_renewals_one_pending").on("subscription_renewals")
    .column("subscription_id").unique().where(sql.ref("status"), "=", "PENDING").execute();
  await db.schema.createIndex("subscription_renewals_pending").on("subscription_renewals")
    .column("locked_until").where(sql.ref("status"), "=", "PENDING").execute();

  await db.schema.createTable("sandbox_clocks")
    .addColumn("org_id", "integer", (col) => col.primaryKey())
    .addColumn("offset_ms", "integer", (col) => col.notNull().check(sql`offset_ms >= 0`))
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .execute();
}
