import { CompiledQuery, type Kysely } from "kysely";
import type { SqlStatement } from "./libsql_dialect.ts";
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
const OUTBOX_POSITION = `(SELECT MAX(id) FROM events) AS latest,
  (SELECT MIN(events_after_id) FROM webhook_endpoints WHERE enabled = 1 AND deleted_at IS NULL)
    AS floor`;

/** Where fan-out stands: its cursor (the last event fanned out) and the outbox's position. */
export interface FanoutPosition {
  cursor: number;
  latest: number;
  floor: number | null;
}

/** Reads where fan-out stands (see FanoutPosition). */
export async function readFanoutPosition(db: Db): Promise<FanoutPosition> {
  const result = await db.executeQuery(CompiledQuery.raw(
    `SELECT (SELECT last_event_id FROM webhook_fanout_cursor WHERE id = 1) AS cursor,
      ${OUTBOX_POSITION}`,
  ));
  const row = result.rows[0] as { cursor: number; latest: number | null; floor: number | null };
  return { cursor: row.cursor, latest: row.latest ?? 0, floor: row.floor ?? null };
}

/** Where the outbox stands (see OUTBOX_POSITION), and the endpoints with a delivery due. */
export interface OutboxState {
  latest: number;
  floor: number | null;
  dueEndpointIds: number[];
}

const OUTBOX_STATE = `SELECT ${OUTBOX_POSITION},
  (SELECT json_group_array(w.id) FROM webhook_endpoints AS w WHERE EXISTS (
    SELECT 1 FROM webhook_deliveries AS d WHERE d.endpoint_id = w.id AND d.status = 'PENDING'
      AND d.next_attempt_at <= ?)) AS due`;

/** The statement reading the outbox state at `now`, for a read made in a commit (a probe). */
export function outboxStateStatement(now: number): SqlStatement {
  return { sql: OUTBOX_STATE, args: [now] };
}

/** The outbox state out of the rows outboxStateStatement read. */
export function toOutboxState(rows: readonly Record<string, unknown>[]): OutboxState {
  const row = rows[0] as { latest: number | null; floor: number | null; due: string };
  return {
    latest: row.latest ?? 0,
    floor: row.floor ?? null,
    dueEndpointIds: JSON.parse(row.due),
  };
}

/** Reads the outbox state at `now`: one query for what would otherwise take two. */
export async function readOutboxState(db: Db, now: number): Promise<OutboxState> {
  const { sql, args } = outboxStateStatement(now);
  const result = await db.executeQuery(CompiledQuery.raw(sql, args));
  return toOutboxState(result.rows as Record<string, unknown>[]);
}

/** Moves the fan-out cursor from `from` to `to`; changes nothing if it no longer reads `from`. */
export function moveFanoutCursorStatement(from: number, to: number): SqlStatement {
  return {
    sql: "UPDATE webhook_fanout_cursor SET last_event_id = ? WHERE id = 1 AND last_event_id = ?",
    args: [to, from],
  };
}

/** Events after `afterId` in id order (which is commit order: SQLite has one writer). */
export function listEventsAfter(db: Db, afterId: number, limit: number): Promise<OutboxEvent[]> {
  return db.selectFrom("events").select(["id", "public_id", "org_id", "type", "payload"])
    .where("id", ">", afterId)
    .orderBy("id").limit(limit).execute();
}
