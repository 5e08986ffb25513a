import { type Kysely, sql } from "kysely";

/**
 * Developer tools: a `version` on every object an event describes (it grows with each change,
 * so a receiver can drop an event older than what it holds), recoveries of an endpoint's events
 * over a window, and an index to find an organisation's events by time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ["payments", "refunds", "subscriptions", "checkout_sessions"]) {
    await db.schema.alterTable(table)
      .addColumn("version", "integer", (col) => col.notNull().defaultTo(1)).execute();
  }
  await db.schema.createIndex("events_org_created").on("events")
    .columns(["org_id", "created_at", "id"]).execute();

  await db.schema.createTable("webhook_recoveries")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn(
      "endpoint_id",
      "integer",
      (col) => col.notNull().references("webhook_endpoints.id"),
    )
    .addColumn("since", "integer", (col) => col.notNull())
    .addColumn("until", "integer", (col) => col.notNull())
    .addColumn("queued", "integer", (col) => col.notNull())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addCheckConstraint("webhook_recoveries_window", sql`since < until`)
    .execute();
  // NOTE: one recovery per window: asking again for the same window queues nothing twice.
  await db.schema.createIndex("webhook_recoveries_window_once").on("webhook_recoveries")
    .columns(["endpoint_id", "since", "until"]).unique().execute();
  await db.schema.alterTable("webhook_deliveries")
    .addColumn("recovery_id", "integer", (col) => col.references("webhook_recoveries.id"))
    .execute();
}
