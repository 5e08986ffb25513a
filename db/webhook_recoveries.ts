import type { Kysely } from "kysely";
import type { EnvironmentSchema, WebhookRecoveryRow } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** The recovery of exactly this window for an endpoint, if one was made. */
export function findWebhookRecovery(
  db: Db,
  endpointId: number,
  since: number,
  until: number,
): Promise<WebhookRecoveryRow | undefined> {
  return db.selectFrom("webhook_recoveries").selectAll().where("endpoint_id", "=", endpointId)
    .where("since", "=", since).where("until", "=", until).executeTakeFirst();
}

/** Inserts a recovery and returns its row. */
export function insertWebhookRecovery(
  db: Db,
  values: Omit<WebhookRecoveryRow, "id">,
): Promise<WebhookRecoveryRow> {
  return db.insertInto("webhook_recoveries").values(values).returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Ids of an organisation's events of `types` created in `[since, until)`, oldest first, at most
 * `limit` of them.
 */
export async function listEventIdsInWindow(
  db: Db,
  orgId: number,
  window: { since: number; until: number; types: readonly string[]; limit: number },
): Promise<number[]> {
  if (window.types.length === 0) return [];
  const rows = await db.selectFrom("events").select("id").where("org_id", "=", orgId)
    .where("created_at", ">=", window.since).where("created_at", "<", window.until)
    .where("type", "in", window.types).orderBy("id").limit(window.limit).execute();
  return rows.map((row) => row.id);
}

/** Ids of the events an endpoint still has a pending delivery of. */
export async function listPendingEventIds(db: Db, endpointId: number): Promise<Set<number>> {
  const rows = await db.selectFrom("webhook_deliveries").select("event_id")
    .where("endpoint_id", "=", endpointId).where("status", "=", "PENDING").execute();
  return new Set(rows.map((row) => row.event_id));
}
