import { type Kysely, sql } from "kysely";

/** The e-mails a renewal by pay link sends: its notice and its reminders. */
const RENEWAL_EMAIL_KINDS = ["RENEWAL_NOTICE", "RENEWAL_REMINDER"];

/**
 * Renewals by pay link, for a provider that cannot charge a stored method: a renewal attempt is
 * either a charge (`CHARGE`, the sandbox simulator's) or a payment the customer is sent a link
 * to (`LINK`); and the customer e-mail outbox takes the renewal notice and reminders.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("subscription_renewals")
    .addColumn(
      "method",
      "text",
      (col) => col.notNull().defaultTo("CHARGE").check(sql`method IN ('CHARGE', 'LINK')`),
    )
    .execute();
  await widenEmailKinds(db);
}

/**
 * SQLite cannot alter a CHECK constraint, so `customer_emails` is rebuilt: its own CREATE
 * statement with the kinds added, every row copied (ids kept, so `resend_of` still points right),
 * the old table dropped and its indexes made again from their own statements.
 */
async function widenEmailKinds(db: Kysely<unknown>): Promise<void> {
  const schema = await sql<{ type: string; name: string; sql: string | null }>`
    SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'customer_emails'`.execute(db);
  const table = schema.rows.find((row) => row.type === "table");
  if (!table?.sql) throw new Error("The customer_emails table is missing.");
  const kinds = /kind IN \(([^)]*)\)/;
  const match = table.sql.match(kinds);
  if (!match) throw new Error("The customer_emails table has no CHECK on its kind.");
  const added = RENEWAL_EMAIL_KINDS.filter((kind) => !match[1].includes(`'${kind}'`))
    .map((kind) => `, '${kind}'`).join("");
  const create = table.sql.replace(kinds, `kind IN (${match[1]}${added})`);
  const indexes = schema.rows.filter((row) => row.type === "index" && row.sql !== null);
  // NOTE: renamed first, so the new table's self-reference (resend_of) names customer_emails
  // and no row of the new table ever points into the table being dropped.
  await sql`ALTER TABLE customer_emails RENAME TO customer_emails_before_0013`.execute(db);
  for (const index of indexes) await sql`DROP INDEX ${sql.id(index.name)}`.execute(db);
  await sql.raw(create).execute(db);
  await sql`INSERT INTO customer_emails SELECT * FROM customer_emails_before_0013`.execute(db);
  await sql`DROP TABLE customer_emails_before_0013`.execute(db);
  for (const index of indexes) await sql.raw(index.sql!).execute(db);
}
