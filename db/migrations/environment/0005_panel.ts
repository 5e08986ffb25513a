import { type Kysely, sql } from "kysely";

/**
 * What the merchant panel reads and the Quick Start's webhook inbox: indexes for an endpoint's
 * delivery log, a payment's timeline and subscription, and the 30-day chart, and the sandbox inbox tables.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("webhook_deliveries_endpoint").on("webhook_deliveries")
    .columns(["endpoint_id", "id"]).execute();
  // Every event about a payment (its own, its refunds', its session's) names it in data.paymentId.
  await db.schema.createIndex("events_org_payment").on("events")
    .expression(sql`org_id, json_extract(payload, '$.data.paymentId'), id`).execute();
  await db.schema.createIndex("payments_org_created").on("payments")
    .columns(["org_id", "created_at"]).execute();
  await db.schema.createIndex("subscriptions_first_payment").on("subscriptions")
    .column("first_payment_id").execute();

  // The sandbox's built-in webhook receiver: one inbox per organisation, its last requests.
  await db.schema.createTable("sandbox_inboxes")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull().unique())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createTable("sandbox_inbox_requests")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn(
      "inbox_id",
      "integer",
      (col) => col.notNull().references("sandbox_inboxes.id").onDelete("cascade"),
    )
    .addColumn("received_at", "integer", (col) => col.notNull())
    .addColumn("webhook_id", "text")
    .addColumn("event_type", "text")
    .addColumn("verified", "integer", (col) => col.notNull())
    .addColumn("verification", "text", (col) => col.notNull())
    .addColumn("headers", "text", (col) => col.notNull())
    .addColumn("body", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("sandbox_inbox_requests_inbox").on("sandbox_inbox_requests")
    .columns(["inbox_id", "id"]).execute();
}
