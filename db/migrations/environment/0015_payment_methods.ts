import { type Kysely, sql } from "kysely";

/**
 * Every way a Pole pays (issue 41) and a second acquirer (issue 42): an attempt has a method
 * (`blik` with its code, or a redirect method with its bank), the page the provider sent the
 * customer to, the provider it went to and why, and may be CANCELED (a new attempt gave it up;
 * the provider may still report money taken, which `watch_until` keeps asking about). A payment
 * records the attempt that decided it, its method, bank and provider, the allowlist of methods it
 * may be paid with, and the language its page was shown in when the customer paid. Offers and
 * checkout sessions take an allowlist too; a refund may give back another attempt's money (a
 * payment paid twice).
 *
 * SQLite cannot alter a CHECK constraint, so `payment_attempts` is rebuilt with every row and
 * id kept; nothing references it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE payment_attempts RENAME TO payment_attempts_before_0015`.execute(db);
  for (
    const index of ["payment_attempts_one_open", "payment_attempts_due", "payment_attempts_payment"]
  ) {
    await sql`DROP INDEX ${sql.id(index)}`.execute(db);
  }
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
      (col) => col.notNull().check(sql`status IN ('OPEN', 'SUCCEEDED', 'FAILED', 'CANCELED')`),
    )
    .addColumn("failure_code", "text")
    .addColumn("deadline_at", "integer")
    .addColumn("check_at", "integer", (col) => col.notNull())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addColumn("updated_at", "integer", (col) => col.notNull())
    .addColumn("finished_at", "integer")
    .addColumn(
      "method",
      "text",
      (col) =>
        col.notNull().defaultTo("blik").check(
          sql`method IN ('blik', 'transfer', 'card', 'google_pay', 'apple_pay')`,
        ),
    )
    .addColumn("bank", "text")
    // Where the provider sends the customer to pay (redirect methods), once it answered.
    .addColumn("redirect_url", "text")
    // Why the attempt went to its provider (the first healthy one, a failover...).
    .addColumn("provider_reason", "text")
    // A CANCELED attempt the provider has not confirmed given up: asked about until then.
    .addColumn("watch_until", "integer")
    .execute();
  await sql`INSERT INTO payment_attempts (id, public_id, org_id, payment_id, provider,
      provider_ref, status, failure_code, deadline_at, check_at, created_at, updated_at,
      finished_at)
    SELECT id, public_id, org_id, payment_id, provider, provider_ref, status, failure_code,
      deadline_at, check_at, created_at, updated_at, finished_at
    FROM payment_attempts_before_0015`.execute(db);
  await sql`DROP TABLE payment_attempts_before_0015`.execute(db);
  // NOTE: at most one open attempt per payment, so two attempts are never both with a provider.
  await db.schema.createIndex("payment_attempts_one_open").on("payment_attempts")
    .column("payment_id").unique().where(sql.ref("status"), "=", "OPEN").execute();
  await sql`CREATE INDEX payment_attempts_due ON payment_attempts (check_at)
    WHERE status = 'OPEN' OR watch_until IS NOT NULL`.execute(db);
  await db.schema.createIndex("payment_attempts_payment").on("payment_attempts")
    .columns(["payment_id", "id"]).execute();

  await db.schema.alterTable("payments").addColumn("attempt_id", "integer").execute();
  await db.schema.alterTable("payments").addColumn("payment_method", "text").execute();
  await db.schema.alterTable("payments").addColumn("bank", "text").execute();
  await db.schema.alterTable("payments").addColumn("provider", "text").execute();
  // JSON array of the methods the payment may be paid with; null: every one offered.
  await db.schema.alterTable("payments").addColumn("payment_methods", "text").execute();
  await db.schema.alterTable("payments").addColumn("customer_language", "text").execute();
  await db.schema.alterTable("offers").addColumn("payment_methods", "text").execute();
  await db.schema.alterTable("checkout_sessions").addColumn("payment_methods", "text").execute();
  // The attempt whose money a refund gives back; null: the one that decided the payment.
  await db.schema.alterTable("refunds").addColumn("attempt_id", "integer").execute();

  // What decided each payment before attempts had methods: its succeeded or failed attempt.
  await sql`UPDATE payments SET
    attempt_id = (SELECT a.id FROM payment_attempts AS a WHERE a.payment_id = payments.id
      AND a.status IN ('SUCCEEDED', 'FAILED') ORDER BY a.status = 'SUCCEEDED' DESC, a.id DESC
      LIMIT 1),
    payment_method = 'blik',
    provider = (SELECT a.provider FROM payment_attempts AS a WHERE a.payment_id = payments.id
      AND a.status IN ('SUCCEEDED', 'FAILED') ORDER BY a.status = 'SUCCEEDED' DESC, a.id DESC
      LIMIT 1)
    WHERE status IN ('SUCCEEDED', 'FAILED') AND EXISTS (SELECT 1 FROM payment_attempts AS a
      WHERE a.payment_id = payments.id AND a.status IN ('SUCCEEDED', 'FAILED'))`.execute(db);
}
