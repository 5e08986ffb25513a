import { type Kysely, sql } from "kysely";
import type { SqlStatement } from "./libsql_dialect.ts";
import type {
  EnvironmentSchema,
  NewWebhookAttempt,
  NewWebhookDelivery,
  WebhookAttemptRow,
  WebhookDeliveryRow,
  WebhookEndpointRow,
} from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** Rows per multi-row statement: well under SQLite's bound-parameter limit. */
const CHUNK = 200;

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let index = 0; index < items.length; index += CHUNK) {
    result.push(items.slice(index, index + CHUNK));
  }
  return result;
}

/** `(?, ?), (?, ?)`: the placeholders of `rows` rows of `columns` values. */
function valueRows(rows: number, columns: number): string {
  const row = `(${Array.from({ length: columns }, () => "?").join(", ")})`;
  return Array.from({ length: rows }, () => row).join(", ");
}

/** A delivery with the public ids of its event and endpoint. */
export type WebhookDeliveryRecord = WebhookDeliveryRow & {
  event_public_id: string;
  endpoint_public_id: string;
};

/** A due delivery with what an attempt needs from its event. */
export interface DueDelivery {
  id: number;
  public_id: string;
  org_id: number;
  endpoint_id: number;
  triggered_by: string;
  attempt_count: number;
  in_flight: number;
  /** When the current lease was taken (meaningful while `in_flight` is 1). */
  leased_at: number;
  event_public_id: string;
  payload: string;
}

/** One claimed attempt: the delivery and the attempt number it was leased for. */
export interface AttemptClaim {
  id: number;
  attempt: number;
}

function selectDeliveries(db: Db) {
  return db.selectFrom("webhook_deliveries as d")
    .innerJoin("events as e", "e.id", "d.event_id")
    .innerJoin("webhook_endpoints as w", "w.id", "d.endpoint_id")
    .selectAll("d")
    .select(["e.public_id as event_public_id", "w.public_id as endpoint_public_id"]);
}

/** Inserts deliveries; a fan-out delivery that already exists is skipped. Returns the new ones. */
export async function insertWebhookDeliveries(
  db: Db,
  rows: readonly NewWebhookDelivery[],
): Promise<Pick<WebhookDeliveryRow, "id" | "event_id" | "endpoint_id">[]> {
  const inserted = [];
  for (const chunk of chunks(rows)) {
    inserted.push(
      ...await db.insertInto("webhook_deliveries").values(chunk)
        .onConflict((conflict) => conflict.doNothing())
        .returning(["id", "event_id", "endpoint_id"]).execute(),
    );
  }
  return inserted;
}

/** Inserts one delivery. */
export function insertWebhookDelivery(
  db: Db,
  values: NewWebhookDelivery,
): Promise<WebhookDeliveryRow> {
  return db.insertInto("webhook_deliveries").values(values).returningAll()
    .executeTakeFirstOrThrow();
}

/** Finds one of an event's deliveries by public id. */
export function findWebhookDelivery(
  db: Db,
  eventId: number,
  publicId: string,
): Promise<WebhookDeliveryRecord | undefined> {
  return selectDeliveries(db).where("d.event_id", "=", eventId)
    .where("d.public_id", "=", publicId).executeTakeFirst();
}

/** Lists an event's deliveries newest first, after a row id. */
export function listWebhookDeliveries(
  db: Db,
  eventId: number,
  filter: { beforeId?: number; limit: number },
): Promise<WebhookDeliveryRecord[]> {
  let query = selectDeliveries(db).where("d.event_id", "=", eventId);
  if (filter.beforeId !== undefined) query = query.where("d.id", "<", filter.beforeId);
  return query.orderBy("d.id", "desc").limit(filter.limit).execute();
}

/** Deliveries by internal id, in the order of `ids`. */
export async function findWebhookDeliveriesByIds(
  db: Db,
  ids: readonly number[],
): Promise<WebhookDeliveryRecord[]> {
  if (ids.length === 0) return [];
  const rows = await selectDeliveries(db).where("d.id", "in", ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)!);
}

/** The attempts of some deliveries, in attempt order. */
export function listWebhookAttempts(
  db: Db,
  deliveryIds: readonly number[],
): Promise<WebhookAttemptRow[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("webhook_attempts").selectAll().where("delivery_id", "in", deliveryIds)
    .orderBy("delivery_id").orderBy("number").execute();
}

/** The pending delivery of an event to an endpoint, if one is still retrying. */
export function findPendingDelivery(
  db: Db,
  eventId: number,
  endpointId: number,
): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom("webhook_deliveries").selectAll()
    .where("event_id", "=", eventId).where("endpoint_id", "=", endpointId)
    .where("status", "=", "PENDING").orderBy("id", "desc").executeTakeFirst();
}

/** Makes a pending delivery due at `now`, unless an attempt of it is in flight. */
export async function bringDeliveryForward(db: Db, id: number, now: number): Promise<void> {
  await db.updateTable("webhook_deliveries").set({ next_attempt_at: now, updated_at: now })
    .where("id", "=", id).where("status", "=", "PENDING").where("in_flight", "=", 0).execute();
}

/** Cancels an endpoint's pending deliveries; in-flight attempts find them canceled. */
export async function cancelPendingDeliveries(
  db: Db,
  endpointId: number,
  now: number,
): Promise<number> {
  const result = await db.updateTable("webhook_deliveries")
    .set({
      status: "CANCELED",
      next_attempt_at: null,
      in_flight: 0,
      updated_at: now,
      completed_at: now,
    })
    .where("endpoint_id", "=", endpointId).where("status", "=", "PENDING").executeTakeFirst();
  return Number(result.numUpdatedRows);
}

function endpointsWithDueDeliveries(db: Db, now: number) {
  return db.selectFrom("webhook_endpoints as w")
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("webhook_deliveries as d").select(sql.lit(1).as("one"))
          .whereRef("d.endpoint_id", "=", "w.id").where("d.status", "=", "PENDING")
          .where("d.next_attempt_at", "<=", now),
      )
    );
}

/** The endpoints with a delivery due at `now`, whole. */
export function findEndpointRowsWithDueDeliveries(
  db: Db,
  now: number,
): Promise<WebhookEndpointRow[]> {
  return endpointsWithDueDeliveries(db, now).selectAll("w").orderBy("w.id").execute();
}

/** An endpoint's due deliveries, longest due first, with their events' ids and payloads. */
export function findDueDeliveries(
  db: Db,
  endpointId: number,
  now: number,
  limit: number,
): Promise<DueDelivery[]> {
  return db.selectFrom("webhook_deliveries as d")
    .innerJoin("events as e", "e.id", "d.event_id")
    .select([
      "d.id",
      "d.public_id",
      "d.org_id",
      "d.endpoint_id",
      "d.triggered_by",
      "d.attempt_count",
      "d.in_flight",
      "d.updated_at as leased_at",
      "e.public_id as event_public_id",
      "e.payload",
    ])
    .where("d.endpoint_id", "=", endpointId).where("d.status", "=", "PENDING")
    .where("d.next_attempt_at", "<=", now)
    .orderBy("d.next_attempt_at").limit(limit).execute();
}

const FANNED_OUT_COLUMNS = [
  "public_id",
  "org_id",
  "event_id",
  "endpoint_id",
  "triggered_by",
  "status",
  "attempt_count",
  "in_flight",
  "next_attempt_at",
  "created_at",
  "updated_at",
] as const satisfies readonly (keyof NewWebhookDelivery)[];

/**
 * Inserts fan-out deliveries, each only while the fan-out cursor still reads `cursor` (no other
 * process fanned these events out meanwhile) and its endpoint is still enabled; a delivery that
 * exists already is skipped. Returns (RETURNING) the inserted ones: `id, event_id, endpoint_id`.
 */
export function insertFannedOutDeliveriesStatements(
  rows: readonly NewWebhookDelivery[],
  cursor: number,
): SqlStatement[] {
  const columns = FANNED_OUT_COLUMNS.join(", ");
  const picked = FANNED_OUT_COLUMNS.map((_, index) => `v.column${index + 1}`).join(", ");
  return chunks(rows).map((chunk) => ({
    sql: `INSERT INTO webhook_deliveries (${columns})
      SELECT ${picked} FROM (VALUES ${valueRows(chunk.length, FANNED_OUT_COLUMNS.length)}) AS v
      WHERE (SELECT last_event_id FROM webhook_fanout_cursor WHERE id = 1) = ?
        AND EXISTS (SELECT 1 FROM webhook_endpoints AS w
          WHERE w.id = v.column4 AND w.enabled = 1 AND w.deleted_at IS NULL)
      ON CONFLICT DO NOTHING
      RETURNING id, event_id, endpoint_id`,
    args: [...chunk.flatMap((row) => FANNED_OUT_COLUMNS.map((column) => row[column])), cursor],
  }));
}

/** Picks deliveries by `(id, attempt_count)`: a lease taken meanwhile moves the count on. */
function claimsIn(claims: readonly AttemptClaim[]): { sql: string; args: number[] } {
  return {
    sql: `(id, attempt_count) IN (VALUES ${valueRows(claims.length, 2)})`,
    args: claims.flatMap((claim) => [claim.id, claim.attempt]),
  };
}

/**
 * Leases due deliveries for their next attempt until `leaseUntil`, each only if it is still
 * pending, due at `now` and at the attempt count it was read with. Returns (RETURNING) the ids
 * leased.
 */
export function leaseDueDeliveriesStatements(
  due: readonly AttemptClaim[],
  now: number,
  leaseUntil: number,
): SqlStatement[] {
  return chunks(due).map((chunk) => {
    const picked = claimsIn(chunk);
    return {
      sql: `UPDATE webhook_deliveries SET in_flight = 1, attempt_count = attempt_count + 1,
          next_attempt_at = ?, updated_at = ?
        WHERE status = 'PENDING' AND next_attempt_at <= ? AND ${picked.sql}
        RETURNING id`,
      args: [leaseUntil, now, now, ...picked.args],
    };
  });
}

/** Ends due deliveries with a final status, under the same conditions as a lease. */
export function finishDueDeliveriesStatements(
  due: readonly AttemptClaim[],
  status: "FAILED" | "CANCELED",
  now: number,
): SqlStatement[] {
  return chunks(due).map((chunk) => {
    const picked = claimsIn(chunk);
    return {
      sql: `UPDATE webhook_deliveries SET status = ?, in_flight = 0, next_attempt_at = NULL,
          updated_at = ?, completed_at = ?
        WHERE status = 'PENDING' AND next_attempt_at <= ? AND ${picked.sql}`,
      args: [status, now, now, now, ...picked.args],
    };
  });
}

const ATTEMPT_COLUMNS = [
  "delivery_id",
  "number",
  "url",
  "started_at",
  "duration_ms",
  "succeeded",
  "response_status",
  "response_body",
  "error_code",
  "error_message",
] as const satisfies readonly (keyof NewWebhookAttempt)[];

/**
 * Inserts attempt rows. A real result replaces the placeholder of an attempt whose lease
 * expired; a placeholder never replaces a real result.
 */
export function insertWebhookAttemptsStatements(
  rows: readonly NewWebhookAttempt[],
  onConflict: "replace" | "keep",
): SqlStatement[] {
  const update = ATTEMPT_COLUMNS.slice(2).map((column) => `${column} = excluded.${column}`);
  return chunks(rows).map((chunk) => ({
    sql: `INSERT INTO webhook_attempts (${ATTEMPT_COLUMNS.join(", ")})
      VALUES ${valueRows(chunk.length, ATTEMPT_COLUMNS.length)}
      ON CONFLICT (delivery_id, number) DO ${
      onConflict === "keep" ? "NOTHING" : `UPDATE SET ${update.join(", ")}`
    }`,
    args: chunk.flatMap((row) => ATTEMPT_COLUMNS.map((column) => row[column] ?? null)),
  }));
}

/** A delivery's state after an attempt. */
export interface DeliveryUpdate {
  id: number;
  attempt: number;
  status: "PENDING" | "SUCCEEDED" | "FAILED";
  nextAttemptAt: number | null;
}

/**
 * Applies attempt results, one statement per chunk. A result applies only while the delivery
 * is still pending and leased for that attempt (fencing): a late result of an attempt whose
 * lease was taken over, or of a delivery canceled meanwhile, changes nothing. Returns
 * (RETURNING) the ids that applied.
 */
export function applyDeliveryUpdatesStatements(
  updates: readonly DeliveryUpdate[],
  now: number,
): SqlStatement[] {
  return chunks(updates).map((chunk) => ({
    sql: `WITH v(id, attempt, status, next_attempt_at) AS (VALUES ${valueRows(chunk.length, 4)})
      UPDATE webhook_deliveries
      SET status = v.status,
        next_attempt_at = v.next_attempt_at,
        in_flight = 0,
        updated_at = ?,
        completed_at = CASE WHEN v.status = 'PENDING' THEN NULL ELSE ? END
      FROM v
      WHERE webhook_deliveries.id = v.id AND webhook_deliveries.attempt_count = v.attempt
        AND webhook_deliveries.status = 'PENDING' AND webhook_deliveries.in_flight = 1
      RETURNING webhook_deliveries.id`,
    args: [
      ...chunk.flatMap((
        update,
      ) => [update.id, update.attempt, update.status, update.nextAttemptAt]),
      now,
      now,
    ],
  }));
}

/** Pushes back the lease end of attempts still in flight. */
export function extendLeasesStatements(
  claims: readonly AttemptClaim[],
  leaseUntil: number,
): SqlStatement[] {
  return chunks(claims).map((chunk) => {
    const picked = claimsIn(chunk);
    return {
      sql: `UPDATE webhook_deliveries SET next_attempt_at = ?
        WHERE status = 'PENDING' AND in_flight = 1 AND ${picked.sql}`,
      args: [leaseUntil, ...picked.args],
    };
  });
}

/**
 * Gives back leases of attempts abandoned at shutdown: due at once, and the abandoned attempt
 * does not count.
 */
export function releaseLeasesStatements(
  claims: readonly AttemptClaim[],
  now: number,
): SqlStatement[] {
  return chunks(claims).map((chunk) => {
    const picked = claimsIn(chunk);
    return {
      sql: `UPDATE webhook_deliveries
        SET next_attempt_at = ?, in_flight = 0, attempt_count = attempt_count - 1, updated_at = ?
        WHERE status = 'PENDING' AND in_flight = 1 AND ${picked.sql}`,
      args: [now, now, ...picked.args],
    };
  });
}

/**
 * When the earliest pending delivery falls due after `after` (a retry, or the end of a lease), or
 * null if none will.
 */
export async function nextDeliveryDueAfter(db: Db, after: number): Promise<number | null> {
  // One index range seek per endpoint on the (endpoint_id, next_attempt_at) index of pending rows.
  const result = await sql<{ at: number | null }>`
    SELECT MIN((SELECT MIN(d.next_attempt_at) FROM webhook_deliveries AS d
      WHERE d.endpoint_id = w.id AND d.status = 'PENDING' AND d.next_attempt_at > ${after}))
      AS at
    FROM webhook_endpoints AS w`.execute(db);
  return result.rows[0]?.at ?? null;
}
