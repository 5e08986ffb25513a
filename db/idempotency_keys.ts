import type { Kysely } from "kysely";
import type { EnvironmentSchema, IdempotencyKeyRow } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** Finds an organisation's idempotency key. */
export function findIdempotencyKey(
  db: Db,
  orgId: number,
  key: string,
): Promise<IdempotencyKeyRow | undefined> {
  return db.selectFrom("idempotency_keys").selectAll()
    .where("org_id", "=", orgId).where("key", "=", key).executeTakeFirst();
}

/** Inserts a key as in flight. */
export function insertIdempotencyKey(
  db: Db,
  values: {
    org_id: number;
    key: string;
    fingerprint: string;
    locked_until: number;
    created_at: number;
  },
): Promise<IdempotencyKeyRow> {
  return db.insertInto("idempotency_keys").values({ ...values, status: "IN_FLIGHT" })
    .returningAll().executeTakeFirstOrThrow();
}

/** Takes over an abandoned in-flight key with a new lease. */
export async function relockIdempotencyKey(
  db: Db,
  id: number,
  lockedUntil: number,
): Promise<void> {
  await db.updateTable("idempotency_keys").set({ locked_until: lockedUntil })
    .where("id", "=", id).where("status", "=", "IN_FLIGHT").execute();
}

/** Stores the response of an in-flight key if this request still holds its lease. */
export async function completeIdempotencyKey(
  db: Db,
  id: number,
  lockedUntil: number,
  response: { status: number; contentType: string; body: string },
): Promise<boolean> {
  const result = await db.updateTable("idempotency_keys").set({
    status: "COMPLETED",
    response_status: response.status,
    response_content_type: response.contentType,
    response_body: response.body,
  }).where("id", "=", id).where("status", "=", "IN_FLIGHT")
    .where("locked_until", "=", lockedUntil).executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Deletes a key (a request that changed nothing leaves no trace). */
export async function deleteIdempotencyKey(db: Db, id: number, lockedUntil: number): Promise<void> {
  await db.deleteFrom("idempotency_keys").where("id", "=", id).where("status", "=", "IN_FLIGHT")
    .where("locked_until", "=", lockedUntil).execute();
}

/** Deletes a key row whatever its state (an expired key being reused). */
export async function deleteIdempotencyKeyRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom("idempotency_keys").where("id", "=", id).execute();
}

/** Deletes keys created at or before `cutoff`; returns how many. */
export async function deleteIdempotencyKeysCreatedBy(
  db: Db,
  cutoff: number,
  limit: number,
): Promise<number> {
  const result = await db.deleteFrom("idempotency_keys").where(
    "id",
    "in",
    db.selectFrom("idempotency_keys").select("id").where("created_at", "<=", cutoff).limit(limit),
  ).executeTakeFirst();
  return Number(result.numDeletedRows);
}
