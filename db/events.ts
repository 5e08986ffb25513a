import { type Kysely, sql } from "kysely";
import { prepared } from "./prepared.ts";
import type { EnvironmentSchema, EventRow } from "./schema.ts";
import type { OutboxEvent } from "./webhook_fanout.ts";

type Db = Kysely<EnvironmentSchema>;

// Every state change writes an event: compiled once (see prepared.ts).
const insertEventRow = prepared((db: Db, values: Omit<EventRow, "id">) =>
  db.insertInto("events").values(values)
);

/** Inserts an event row into the outbox; returns its row id. */
export async function insertEvent(db: Db, values: Omit<EventRow, "id">): Promise<number> {
  const result = await insertEventRow(db, values);
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

/**
 * Lists an organisation's events of `types` oldest first after a row id: at most `limit` of them,
 * and no more than fit in `maxChars` characters of payload (always at least one).
 */
export function listEventPage(
  db: Db,
  orgId: number,
  filter: { types: readonly string[]; afterId: number; limit: number; maxChars: number },
): Promise<OutboxEvent[]> {
  // NOTE: sizes are summed over the limited page only, so a long backlog is never scanned whole.
  const page = db.selectFrom("events")
    .select(["id", sql<number>`length(payload)`.as("size")])
    .where("org_id", "=", orgId).where("id", ">", filter.afterId)
    .where("type", "in", filter.types)
    .orderBy("id").limit(filter.limit).as("page");
  const sized = db.selectFrom(page)
    .select([
      "page.id",
      sql<number>`sum(page.size) over (order by page.id) - page.size`.as("before"),
    ])
    .as("sized");
  return db.selectFrom("events").select(["id", "public_id", "org_id", "type", "payload"])
    .where(
      "id",
      "in",
      db.selectFrom(sized).select("sized.id").where("sized.before", "<", filter.maxChars),
    )
    .orderBy("id").execute();
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
