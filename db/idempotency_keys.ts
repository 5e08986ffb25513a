import type { Kysely } from "kysely";
import { prepared } from "./prepared.ts";
import type { EnvironmentSchema, IdempotencyKeyRow } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** The columns a request sets when it claims a key. */
type NewKey = Pick<
  IdempotencyKeyRow,
  "org_id" | "key" | "fingerprint" | "locked_until" | "created_at"
>;

// Every API POST with a key runs these: they are compiled once (see prepared.ts).
const selectKey = prepared((db: Db, p: { orgId: number; key: string }) =>
  db.selectFrom("idempotency_keys").selectAll().where("org_id", "=", p.orgId)
    .where("key", "=", p.key)
);
const insertKey = prepared((db: Db, p: NewKey) =>
  db.insertInto("idempotency_keys").values({ ...p, status: "IN_FLIGHT" })
);
const insertNewKey = prepared((db: Db, p: NewKey) =>
  db.insertInto("idempotency_keys").values({ ...p, status: "IN_FLIGHT" })
    .onConflict((conflict) => conflict.columns(["org_id", "key"]).doNothing())
);
const completeKey = prepared((
  db: Db,
  p: { id: number; lockedUntil: number; status: number; contentType: string; body: string },
) =>
  db.updateTable("idempotency_keys").set({
    status: "COMPLETED",
    response_status: p.status,
    response_content_type: p.contentType,
    response_body: p.body,
  }).where("id", "=", p.id).where("status", "=", "IN_FLIGHT")
    .where("locked_until", "=", p.lockedUntil)
);
const deleteKey = prepared((db: Db, p: { id: number; lockedUntil: number }) =>
  db.deleteFrom("idempotency_keys").where("id", "=", p.id).where("status", "=", "IN_FLIGHT")
    .where("locked_until", "=", p.lockedUntil)
);

/** Finds an organisation's idempotency key. */
export async function findIdempotencyKey(
  db: Db,
  orgId: number,
  key: string,
): Promise<IdempotencyKeyRow | undefined> {
  return (await selectKey(db, { orgId, key })).rows[0];
}

/** Inserts a key as in flight. */
export async function insertIdempotencyKey(
  db: Db,
  values: NewKey,
): Promise<IdempotencyKeyRow> {
  // Every column is known, so the row needs no RETURNING read-back.
  const result = await insertKey(db, values);
  return {
    ...values,
    id: Number(result.insertId),
    status: "IN_FLIGHT",
    response_status: null,
    response_content_type: null,
    response_body: null,
  };
}

/**
 * Inserts a key as in flight unless the organisation has it already; returns its row id, or
 * undefined if it was there. One statement, so it can claim a key in one round trip.
 */
export async function insertNewIdempotencyKey(
  db: Db,
  values: NewKey,
): Promise<number | undefined> {
  const result = await insertNewKey(db, values);
  return result.numAffectedRows === 1n ? Number(result.insertId) : undefined;
}

/** Stores the response of an in-flight key if this request still holds its lease. */
export async function completeIdempotencyKey(
  db: Db,
  id: number,
  lockedUntil: number,
  response: { status: number; contentType: string; body: string },
): Promise<boolean> {
  const result = await completeKey(db, { id, lockedUntil, ...response });
  return result.numAffectedRows === 1n;
}

/** Deletes a key (a request that changed nothing leaves no trace). */
export async function deleteIdempotencyKey(db: Db, id: number, lockedUntil: number): Promise<void> {
  await deleteKey(db, { id, lockedUntil });
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
