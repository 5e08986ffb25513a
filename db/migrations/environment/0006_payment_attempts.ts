import { type Kysely, sql } from "kysely";

/**
 * Payment attempts: one row per code sent to the payment provider, committed before the provider
 * is called, so a crash between the call and its answer leaves a row to reconcile. Refunds learn
 * the provider's reference of the refund.
 *
 * `check_at` and `deadline_at` are system time (reconciliation leases and the provider's order
 * validity); `created_at`, `updated_at` and `finished_at` too, since attempts are the provider's
 * business, not an organisation's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable("payment_attempts")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("public_id", "text", (col) => col.notNull().unique())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn("payment_id", "integer", (col) => col.notNull().references("payments.id"))
    .addColumn("provider", "text", (col) => col.notNull())
    .addColumn("provider_ref", "text")
    .addColumn(
      "status",
      "text",
      (col) => col.notNull().check(sql`status IN ('OPEN', 'SUCCEEDED', 'FAILED')`),
    )
    .addColumn("failure_code", "text")
    .addColumn("deadline_at", "integer")
    .addColumn("check_at", "integer", (col) => col.notNull())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .addColumn("finished_at", "integer")
    .execute();
  // NOTE: at most one open attempt per payment, so two codes can never both be charged.
  await db.schema.createIndex("payment_attempts_one_open").on("payment_attempts")
    .column("payment_id").unique().where(sql.ref("status"), "=", "OPEN").execute();
  await db.schema.createIndex("payment_attempts_due").on("payment_attempts").column("check_at")
    .where(sql.ref("status"), "=", "OPEN").execute();
  await db.schema.createIndex("payment_attempts_payment").on("payment_attempts")
    .columns(["payment_id", "id"]).execute();
  await db.schema.alterTable("refunds").addColumn("provider_ref", "text").execute();
  // A refund notification may name only the provider's refund id.
  await db.schema.createIndex("refunds_provider_ref").on("refunds").column("provider_ref")
    .execute();
}
