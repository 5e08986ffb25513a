import { type Kysely, sql } from "kysely";

/**
 * Webhook endpoints, one delivery per (event, endpoint) with its attempts, the records of
 * endpoints disabled automatically, and the fan-out cursor over the events outbox.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("webhook_endpoints")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn("url", "text", (col) => col.notNull())
    .addColumn("description", "text")
    .addColumn("event_types", "text", (col) => col.notNull())
    .addColumn("enabled", "integer", (col) => col.notNull().check(sql`enabled IN (0, 1)`))
    .addColumn(
      "disabled_reason",
      "text",
      (col) => col.check(sql`disabled_reason IN ('MANUAL', 'GONE', 'FAILING')`),
    )
    .addColumn("disabled_at", "integer")
    .addColumn("secret", "text", (col) => col.notNull())
    .addColumn("previous_secret", "text")
    .addColumn("previous_secret_expires_at", "integer")
    .addColumn("events_after_id", "integer", (col) => col.notNull())
    .addColumn("failing_since", "integer")
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .addColumn("deleted_at", "integer")
    .addCheckConstraint(
      "webhook_endpoints_disabled_has_reason",
      sql`(enabled = 1) = (disabled_reason IS NULL)`,
    )
    .execute();
  await db.schema.createIndex("webhook_endpoints_org").on("webhook_endpoints")
    .columns(["org_id", "id"]).where(sql.ref("deleted_at"), "is", null).execute();

  await db.schema.createTable("webhook_deliveries")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn("event_id", "integer", (col) => col.notNull().references("events.id"))
    .addColumn(
      "endpoint_id",
      "integer",
      (col) => col.notNull().references("webhook_endpoints.id"),
    )
    .addColumn(
      "triggered_by",
      "text",
      (col) => col.notNull().check(sql`triggered_by IN ('EVENT', 'RESEND', 'TEST')`),
    )
    .addColumn(
      "status",
      "text",
      (col) => col.notNull().check(sql`status IN ('PENDING', 'SUCCEEDED', 'FAILED', 'CANCELED')`),
    )
    .addColumn("attempt_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("in_flight", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "integer")
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .addColumn("completed_at", "integer")
    // A pending delivery is always due at some time (its retry, or its lease's end while an
    // attempt is in flight); a finished one never is.
    .addCheckConstraint(
      "webhook_deliveries_pending_is_due",
      sql`(status = 'PENDING') = (next_attempt_at IS NOT NULL)`,
    )
    .execute();
  await db.schema.createIndex("webhook_deliveries_due").on("webhook_deliveries")
    .columns(["endpoint_id", "next_attempt_at"]).where(sql.ref("status"), "=", "PENDING")
    .execute();
  await db.schema.createIndex("webhook_deliveries_event").on("webhook_deliveries")
    .columns(["event_id", "id"]).execute();
  // NOTE: an event reaches an endpoint through fan-out at most once; resends and tests are
  // separate deliveries of their own.
  await db.schema.createIndex("webhook_deliveries_fanout_once").on("webhook_deliveries")
    .columns(["event_id", "endpoint_id"]).unique()
    .where(sql.ref("triggered_by"), "=", "EVENT").execute();

  await db.schema.createTable("webhook_attempts")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn(
      "delivery_id",
      "integer",
      (col) => col.notNull().references("webhook_deliveries.id"),
    )
    .addColumn("number", "integer", (col) => col.notNull().check(sql`number >= 1`))
    .addColumn("url", "text", (col) => col.notNull())
    .addColumn("started_at", "integer", (col) => col.notNull())
    .addColumn("duration_ms", "integer")
    .addColumn("succeeded", "integer", (col) => col.notNull().check(sql`succeeded IN (0, 1)`))
    .addColumn("response_status", "integer")
    .addColumn("response_body", "text")
    .addColumn("error_code", "text")
    .addColumn("error_message", "text")
    .addUniqueConstraint("webhook_attempts_number", ["delivery_id", "number"])
    .execute();

  await db.schema.createTable("webhook_endpoint_records")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn(
      "endpoint_id",
      "integer",
      (col) => col.notNull().references("webhook_endpoints.id"),
    )
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("reason", "text", (col) => col.notNull())
    .addColumn("message", "text", (col) => col.notNull())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("webhook_endpoint_records_endpoint")
    .on("webhook_endpoint_records").columns(["endpoint_id", "id"]).execute();

  await db.schema.createTable("webhook_fanout_cursor")
    .addColumn("id", "integer", (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn("last_event_id", "integer", (col) => col.notNull())
    .execute();
  // Events recorded before webhooks existed had no endpoint to go to.
  await sql`INSERT INTO webhook_fanout_cursor (id, last_event_id)
    SELECT 1, COALESCE(MAX(id), 0) FROM events`.execute(db);
}
