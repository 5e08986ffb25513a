import { type Kysely, sql } from "kysely";

/**
 * Recoveries that re-send events already delivered: marked, with the real time they were asked
 * for (a sandbox clock can be moved forward), so they can be limited per endpoint. A window is
 * recovered once of each kind.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("webhook_recoveries")
    .addColumn("include_delivered", "integer", (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("webhook_recoveries").addColumn("requested_at", "integer").execute();
  await db.schema.dropIndex("webhook_recoveries_window_once").execute();
  // NOTE: one recovery per window and kind: asking again for the same one queues nothing twice.
  await db.schema.createIndex("webhook_recoveries_window_once_per_kind").on("webhook_recoveries")
    .columns(["endpoint_id", "since", "until", "include_delivered"]).unique().execute();
  await db.schema.createIndex("webhook_recoveries_redelivery").on("webhook_recoveries")
    .columns(["endpoint_id", "requested_at"]).where(sql.ref("include_delivered"), "=", 1)
    .execute();
}
