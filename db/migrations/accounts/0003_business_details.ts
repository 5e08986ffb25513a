import { type Kysely, sql } from "kysely";

/**
 * Who a customer pays (Polish consumer law, art. 12 of the consumer rights act): one row per
 * organisation, shared by both environments, as the organisation itself is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("business_details")
    .addColumn(
      "org_id",
      "integer",
      (col) => col.primaryKey().references("organisations.id").onDelete("cascade"),
    )
    .addColumn("legal_name", "text", (col) => col.notNull())
    .addColumn("address_line1", "text", (col) => col.notNull())
    .addColumn("address_line2", "text")
    .addColumn("postal_code", "text", (col) => col.notNull())
    .addColumn("city", "text", (col) => col.notNull())
    .addColumn("country", "text", (col) => col.notNull())
    .addColumn("tax_id", "text")
    .addColumn("contact_email", "text", (col) => col.notNull())
    .addColumn("contact_phone", "text")
    .addColumn(
      "default_language",
      "text",
      (col) => col.notNull().check(sql`default_language IN ('pl', 'en')`),
    )
    .addColumn("invoice_requests", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .execute();
}
