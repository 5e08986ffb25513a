import type { Kysely } from "kysely";
import type { EnvironmentSchema, EventRow } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** Inserts an event row into the outbox; returns its row id. */
export async function insertEvent(db: Db, values: Omit<EventRow, "id">): Promise<number> {
  const result = await db.insertInto("events").values(values).executeTakeFirstOrThrow();
  return Number(result.insertId);
}

/** Finds an organisation's event by its public id. */
export function findEvent(db: Db, orgId: number, publicId: string): Promise<EventRow | undefined> {
  return db.selectFrom("events").selectAll()
    .where("org_id", "=", orgId).where("public_id", "=", publicId).executeTakeFirst();
}

/** Lists an organisation's events newest first, optionally of one type, after a row id. */
export function listEvents(
  db: Db,
  orgId: number,
  filter: { type?: string; beforeId?: number; limit: number },
): Promise<EventRow[]> {
  let query = db.selectFrom("events").selectAll().where("org_id", "=", orgId);
  if (filter.type !== undefined) query = query.where("type", "=", filter.type);
  if (filter.beforeId !== undefined) query = query.where("id", "<", filter.beforeId);
  return query.orderBy("id", "desc").limit(filter.limit).execute();
}

/** Lists an organisation's events oldest first after a row id, optionally of some types. */
export function listEventsAfterRow(
  db: Db,
  orgId: number,
  filter: { type?: string; types?: readonly string[]; afterId: number; limit: number },
): Promise<EventRow[]> {
  let query = db.selectFrom("events").selectAll().where("org_id", "=", orgId)
    .where("id", ">", filter.afterId);
  if (filter.type !== undefined) query = query.where("type", "=", filter.type);
  if (filter.types !== undefined) query = query.where("type", "in", filter.types);
  return query.orderBy("id").limit(filter.limit).execute();
}
