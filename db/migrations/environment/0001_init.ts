import { type Kysely, sql } from "kysely";

/** API keys, offers, payments, the events outbox and idempotency keys of one environment. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("api_keys")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("secret_hash", "text", (col) => col.notNull().unique())
    .addColumn("last_four", "text", (col) => col.notNull())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("last_used_at", "integer")
    .addColumn("expires_at", "integer")
    .addColumn("revoked_at", "integer")
    .execute();
  await db.schema.createIndex("api_keys_org").on("api_keys").columns(["org_id", "id"]).execute();

  await db.schema.createTable("offers")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("description", "text")
    .addColumn("amount", "integer", (col) => col.notNull().check(sql`amount >= 0`))
    .addColumn("currency", "text", (col) => col.notNull())
    .addColumn(
      "recurring_interval",
      "text",
      (col) => col.check(sql`recurring_interval IN ('DAY', 'WEEK', 'MONTH', 'YEAR')`),
    )
    .addColumn("recurring_interval_count", "integer")
    .addColumn("active", "integer", (col) => col.notNull().defaultTo(1))
    .addColumn("metadata", "text", (col) => col.notNull().defaultTo("{}"))
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("offers_org").on("offers").columns(["org_id", "id"]).execute();

  await db.schema.createTable("payments")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn("offer_id", "integer", (col) => col.notNull().references("offers.id"))
    .addColumn(
      "status",
      "text",
      (col) =>
        col.notNull().check(
          sql`status IN ('PENDING', 'PROCESSING', 'SUCCEEDED', 'FAILED', 'CANCELED', 'EXPIRED')`,
        ),
    )
    .addColumn("amount", "integer", (col) => col.notNull().check(sql`amount >= 0`))
    .addColumn("currency", "text", (col) => col.notNull())
    .addColumn("quantity", "integer", (col) => col.notNull().check(sql`quantity >= 1`))
    .addColumn("amount_refunded", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("customer_email", "text")
    .addColumn("customer_name", "text")
    .addColumn("success_url", "text")
    .addColumn("cancel_url", "text")
    .addColumn("failure_code", "text")
    .addColumn("metadata", "text", (col) => col.notNull().defaultTo("{}"))
    .addColumn("expires_at", "integer", (col) => col.notNull())
    .addColumn("processing_deadline_at", "integer")
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .addColumn("processing_at", "integer")
    .addColumn("succeeded_at", "integer")
    .addColumn("failed_at", "integer")
    .addColumn("canceled_at", "integer")
    .addColumn("expired_at", "integer")
    .addCheckConstraint(
      "payments_refund_within_amount",
      sql`amount_refunded >= 0 AND amount_refunded <= amount`,
    )
    .execute();
  await db.schema.createIndex("payments_org").on("payments").columns(["org_id", "id"]).execute();
  await db.schema.createIndex("payments_org_status").on("payments")
    .columns(["org_id", "status", "id"]).execute();
  await db.schema.createIndex("payments_org_offer").on("payments")
    .columns(["org_id", "offer_id", "id"]).execute();
  await db.schema.createIndex("payments_pending_expiry").on("payments").column("expires_at")
    .where(sql.ref("status"), "=", "PENDING").execute();
  await db.schema.createIndex("payments_processing_deadline").on("payments")
    .column("processing_deadline_at").where(sql.ref("status"), "=", "PROCESSING").execute();

  await db.schema.createTable("events")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("payload", "text", (col) => col.notNull())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("events_org").on("events").columns(["org_id", "id"]).execute();
  await db.schema.createIndex("events_org_type").on("events").columns(["org_id", "type", "id"])
    .execute();

  await db.schema.createTable("idempotency_keys")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn("key", "text", (col) => col.notNull())
    .addColumn("fingerprint", "text", (col) => col.notNull())
    .addColumn(
      "status",
      "text",
      (col) => col.notNull().check(sql`status IN ('IN_FLIGHT', 'COMPLETED')`),
    )
    .addColumn("locked_until", "integer", (col) => col.notNull())
    .addColumn("response_status", "integer")
    .addColumn("response_content_type", "text")
    .addColumn("response_body", "text")
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addUniqueConstraint("idempotency_keys_org_key", ["org_id", "key"])
    .execute();
  await db.schema.createIndex("idempotency_keys_created").on("idempotency_keys")
    .column("created_at").execute();
}
