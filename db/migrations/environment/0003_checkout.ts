import { type Kysely, sql } from "kysely";

/**
 * Checkout sessions, each organisation's frame-ancestors allowlist, and the wrong-code counters
 * that lock code entry on the public pages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("checkout_sessions")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn("offer_id", "integer", (col) => col.notNull().references("offers.id"))
    .addColumn(
      "status",
      "text",
      (col) => col.notNull().check(sql`status IN ('OPEN', 'COMPLETED', 'EXPIRED')`),
    )
    .addColumn("amount", "integer", (col) => col.notNull().check(sql`amount >= 1`))
    .addColumn("currency", "text", (col) => col.notNull())
    .addColumn("embed_link", "text", (col) => col.notNull())
    // The origin of embed_link, fixed at creation: the page's frame-ancestors and the only
    // targetOrigin its messages are posted to.
    .addColumn("embed_origin", "text", (col) => col.notNull())
    .addColumn("success_url", "text")
    .addColumn("cancel_url", "text")
    .addColumn("line_items", "text")
    .addColumn("metadata", "text", (col) => col.notNull().defaultTo("{}"))
    // The latest payment attempt; earlier attempts are final (FAILED) before a new one starts.
    .addColumn("payment_id", "integer", (col) => col.references("payments.id"))
    .addColumn("expires_at", "integer", (col) => col.notNull())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .addColumn("completed_at", "integer")
    .addColumn("expired_at", "integer")
    .addCheckConstraint(
      "checkout_sessions_completed_has_payment",
      sql`status <> 'COMPLETED' OR payment_id IS NOT NULL`,
    )
    .execute();
  await db.schema.createIndex("checkout_sessions_org").on("checkout_sessions")
    .columns(["org_id", "id"]).execute();
  await db.schema.createIndex("checkout_sessions_payment").on("checkout_sessions")
    .column("payment_id").unique().where(sql.ref("payment_id"), "is not", null).execute();
  await db.schema.createIndex("checkout_sessions_open_expiry").on("checkout_sessions")
    .column("expires_at").where(sql.ref("status"), "=", "OPEN").execute();

  await db.schema.createTable("checkout_settings")
    .addColumn("org_id", "integer", (col) => col.primaryKey())
    .addColumn("allowed_origins", "text", (col) => col.notNull().defaultTo("[]"))
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .execute();

  await db.schema.createTable("checkout_code_guards")
    // The public id of what the customer is paying: a hosted payment or a checkout session.
    .addColumn("subject", "text", (col) => col.primaryKey())
    .addColumn("wrong_codes", "integer", (col) => col.notNull().check(sql`wrong_codes >= 0`))
    .addColumn("locked_until", "integer")
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("checkout_code_guards_updated").on("checkout_code_guards")
    .column("updated_at").execute();
}
