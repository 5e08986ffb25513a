import { type Kysely, sql } from "kysely";

/**
 * The language a user chose for the panel (Account -> Language); null follows the browser's
 * Accept-Language, then English.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("users")
    .addColumn("language", "text", (col) => col.check(sql`language IN ('pl', 'en')`))
    .execute();
}
