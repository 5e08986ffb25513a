import type { Kysely } from "kysely";
import type { EnvironmentSchema, WebhookRecoveryRow } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** The recovery of exactly this window and kind for an endpoint, if one was made. */
export function findWebhookRecovery(
  db: Db,
  endpointId: number,
  window: { since: number; until: number; includeDelivered: boolean },
): Promise<WebhookRecoveryRow | undefined> {
  return db.selectFrom("webhook_recoveries").selectAll().where("endpoint_id", "=", endpointId)
    .where("since", "=", window.since).where("until", "=", window.until)
    .where("include_delivered", "=", window.includeDelivered ? 1 : 0).executeTakeFirst();
}

/** When the endpoint's latest recovery that re-sent delivered events was asked for, if any. */
export async function latestRedeliveryAt(db: Db, endpointId: number): Promise<number | null> {
  const row = await db.selectFrom("webhook_recoveries").select("requested_at")
    .where("endpoint_id", "=", endpointId).where("include_delivered", "=", 1)
    .orderBy("requested_at", "desc").limit(1).executeTakeFirst();
  return row?.requested_at ?? null;
}

/** How many deliveries queued by recoveries are still pending for an endpoint. */
export async function countPendingRecoveryDeliveries(db: Db, endpointId: number): Promise<number> {
  const row = await db.selectFrom("webhook_deliveries")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("endpoint_id", "=", endpointId).where("status", "=", "PENDING")
    .where("recovery_id", "is not", null).executeTakeFirstOrThrow();
  return Number(row.count);
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
 * `limit` of them, leaving out those the endpoint has a delivery of in one of `skipStatuses`.
 */
export async function listEventIdsInWindow(
  db: Db,
  orgId: number,
  window: {
    since: number;
    until: number;
    types: readonly string[];
    limit: number;
    endpointId: number;
    skipStatuses: readonly ("PENDING" | "SUCCEEDED")[];
  },
): Promise<number[]> {
  if (window.types.length === 0) return [];
  const rows = await db.selectFrom("events").select("id").where("org_id", "=", orgId)
    .where("created_at", ">=", window.since).where("created_at", "<", window.until)
    .where("type", "in", window.types)
    .where(({ not, exists, selectFrom }) =>
      not(exists(
        selectFrom("webhook_deliveries").select("webhook_deliveries.id")
          .whereRef("webhook_deliveries.event_id", "=", "events.id")
          .where("webhook_deliveries.endpoint_id", "=", window.endpointId)
          .where("webhook_deliveries.status", "in", window.skipStatuses),
      ))
    )
    .orderBy("id").limit(window.limit).execute();
  return rows.map((row) => row.id);
}
