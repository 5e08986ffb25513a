import { type Kysely, sql } from "kysely";
import type { EnvironmentSchema } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** What fan-out needs of an event: who it belongs to, its type, and what to send. */
export interface OutboxEvent {
  id: number;
  public_id: string;
  org_id: number;
  type: string;
  payload: string;
}

/** The id of the newest event (0 when there is none); an index lookup. */
export async function latestEventId(db: Db): Promise<number> {
  const row = await db.selectFrom("events").select("id").orderBy("id", "desc").limit(1)
    .executeTakeFirst();
  return row?.id ?? 0;
}

/**
 * Where the outbox stands: the newest event id, and the floor: the smallest `events_after_id`
 * of the enabled endpoints (null when there is none). No endpoint, present or future, receives
 * an event at or below the floor, so those need no fan-out.
 */
export async function readOutboxPosition(
  db: Db,
): Promise<{ latest: number; floor: number | null }> {
  const result = await sql<{ latest: number | null; floor: number | null }>`
    SELECT (SELECT MAX(id) FROM events) AS latest,
      (SELECT MIN(events_after_id) FROM webhook_endpoints
        WHERE enabled = 1 AND deleted_at IS NULL) AS floor`.execute(db);
  const row = result.rows[0];
  return { latest: row?.latest ?? 0, floor: row?.floor ?? null };
}

/** The id of the last event already fanned out into deliveries. */
export async function readFanoutCursor(db: Db): Promise<number> {
  const row = await db.selectFrom("webhook_fanout_cursor").select("last_event_id")
    .where("id", "=", 1).executeTakeFirstOrThrow();
  return row.last_event_id;
}

/** Moves the fan-out cursor to `lastEventId`. */
export async function advanceFanoutCursor(db: Db, lastEventId: number): Promise<void> {
  await db.updateTable("webhook_fanout_cursor").set({ last_event_id: lastEventId })
    .where("id", "=", 1).execute();
}

/** Events after `afterId` in id order (which is commit order: SQLite has one writer). */
export function listEventsAfter(db: Db, afterId: number, limit: number): Promise<OutboxEvent[]> {
  return db.selectFrom("events").select(["id", "public_id", "org_id", "type", "payload"])
    .where("id", ">", afterId)
    .orderBy("id").limit(limit).execute();
}
