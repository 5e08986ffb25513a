import { type Kysely, sql } from "kysely";

/**
 * The customer e-mail outbox: one row per e-mail to a customer (a payment confirmation, a refund
 * notice), written in the transaction of the event that causes it and sent by the e-mail job.
 * A sent row keeps what was sent; in the sandbox without SMTP those rows are the sandbox mailbox.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("customer_emails")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn("payment_id", "integer", (col) => col.notNull().references("payments.id"))
    .addColumn("refund_id", "integer", (col) => col.references("refunds.id"))
    .addColumn(
      "kind",
      "text",
      (col) => col.notNull().check(sql`kind IN ('PAYMENT_CONFIRMATION', 'REFUND_NOTICE')`),
    )
    .addColumn("recipient", "text", (col) => col.notNull())
    .addColumn("message_id", "text", (col) => col.notNull())
    .addColumn(
      "status",
      "text",
      (col) => col.notNull().check(sql`status IN ('PENDING', 'SENT', 'FAILED', 'SKIPPED')`),
    )
    .addColumn("transport", "text", (col) => col.check(sql`transport IN ('SMTP', 'MAILBOX')`))
    .addColumn("attempt_count", "integer", (col) => col.notNull().defaultTo(0))
    // While PENDING: when the next attempt is due, or (in flight) when the lease runs out.
    .addColumn("next_attempt_at", "integer")
    .addColumn("in_flight", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("language", "text", (col) => col.check(sql`language IN ('pl', 'en')`))
    .addColumn("subject", "text")
    .addColumn("text_body", "text")
    .addColumn("html_body", "text")
    .addColumn("resend_of", "integer", (col) => col.references("customer_emails.id"))
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .addColumn("sent_at", "integer")
    .execute();
  await db.schema.createIndex("customer_emails_due").on("customer_emails")
    .column("next_attempt_at").where(sql.ref("status"), "=", "PENDING").execute();
  await db.schema.createIndex("customer_emails_payment").on("customer_emails")
    .columns(["payment_id", "id"]).execute();
  await db.schema.createIndex("customer_emails_mailbox").on("customer_emails")
    .columns(["org_id", "id"]).where(sql.ref("transport"), "=", "MAILBOX").execute();
}
