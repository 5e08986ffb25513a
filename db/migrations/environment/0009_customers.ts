import { type Kysely, sql } from "kysely";

/**
 * Customers in their language: the language a payment or checkout session was asked for
 * (`pl`, `en`, or null for `auto`), and the invoice a customer asked for with a payment.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("payments")
    .addColumn("locale", "text", (col) => col.check(sql`locale IN ('pl', 'en')`))
    .execute();
  await db.schema.alterTable("payments").addColumn("invoice_company_name", "text").execute();
  await db.schema.alterTable("payments").addColumn("invoice_tax_id", "text").execute();
  await db.schema.alterTable("checkout_sessions")
    .addColumn("locale", "text", (col) => col.check(sql`locale IN ('pl', 'en')`))
    .execute();
}
