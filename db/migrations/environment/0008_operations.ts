import { type Kysely, sql } from "kysely";

/**
 * Operations: an index that lets retention find finished webhook deliveries oldest first, and
 * the mapping a configuration import keeps from the source environment's ids to the ones it made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("webhook_deliveries_finished").on("webhook_deliveries")
    .column("completed_at").where(sql.ref("status"), "<>", "PENDING").execute();

  await db.schema.createTable("config_import_mappings")
    .addColumn("id", "integer", (col) => col.primaryKey().autoIncrement())
    .addColumn("org_id", "integer", (col) => col.notNull())
    .addColumn(
      "kind",
      "text",
      (col) => col.notNull().check(sql`kind IN ('OFFER', 'WEBHOOK_ENDPOINT')`),
    )
    .addColumn("source_id", "text", (col) => col.notNull())
    .addColumn("target_id", "text", (col) => col.notNull())
    .addColumn("created_at", "integer", (col) => col.notNull())
    .addUniqueConstraint("config_import_mappings_source", ["org_id", "kind", "source_id"])
    .execute();
}
