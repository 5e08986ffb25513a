import { type Kysely, sql } from "kysely";

/**
 * Records for the accountant: the reconciliations of PayU's statements with what Paystead sold,
 * and the indexes that let exports read refunds by creation time and reconciliation find the
 * payments that succeeded in a statement's period.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("reconciliations")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    // The statement's first and last day, `YYYY-MM-DD` in the organisation's time zone.
    .addColumn("period_from", "text", (col) => col.notNull())
    .addColumn("period_to", "text", (col) => col.notNull())
    .addColumn("operations", "integer", (col) => col.notNull())
    .addColumn("matched", "integer", (col) => col.notNull())
    // JSON arrays of `{amount, currency}` totals and of the problems found.
    .addColumn("fees", "text", (col) => col.notNull())
    .addColumn("payouts", "text", (col) => col.notNull())
    .addColumn("problems", "text", (col) => col.notNull())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("reconciliations_org").on("reconciliations")
    .columns(["org_id", "id"]).execute();
  await db.schema.createIndex("refunds_org_created").on("refunds")
    .columns(["org_id", "created_at"]).execute();
  await db.schema.createIndex("payments_org_succeeded").on("payments")
    .columns(["org_id", "succeeded_at"]).where(sql.ref("succeeded_at"), "is not", null).execute();
}
