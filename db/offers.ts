import type { Kysely, Updateable } from "kysely";
import { prepared } from "./prepared.ts";
import type { EnvironmentSchema, NewOffer, OfferRow, OffersTable } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** Inserts an offer. */
export function insertOffer(db: Db, values: NewOffer): Promise<OfferRow> {
  return db.insertInto("offers").values(values).returningAll().executeTakeFirstOrThrow();
}

// Every payment created reads its offer: compiled once (see prepared.ts).
const selectOffer = prepared((db: Db, p: { orgId: number; publicId: string }) =>
  db.selectFrom("offers").selectAll().where("org_id", "=", p.orgId)
    .where("public_id", "=", p.publicId)
);

/** Finds an organisation's offer by `qrId`. */
export async function findOffer(
  db: Db,
  orgId: number,
  publicId: string,
): Promise<OfferRow | undefined> {
  return (await selectOffer(db, { orgId, publicId })).rows[0];
}

/** Finds an offer by `qrId` in any organisation (the public `/o/{qrId}` page). */
export function findOfferByPublicId(db: Db, publicId: string): Promise<OfferRow | undefined> {
  return db.selectFrom("offers").selectAll().where("public_id", "=", publicId).executeTakeFirst();
}

/** Finds offers by internal id. */
export function findOffersByIds(db: Db, ids: number[]): Promise<OfferRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom("offers").selectAll().where("id", "in", ids).execute();
}

/** Lists an organisation's offers newest first, optionally only active ones. */
export function listOffers(
  db: Db,
  orgId: number,
  filter: { active?: boolean; beforeId?: number; limit: number },
): Promise<OfferRow[]> {
  let query = db.selectFrom("offers").selectAll().where("org_id", "=", orgId);
  if (filter.active !== undefined) query = query.where("active", "=", filter.active ? 1 : 0);
  if (filter.beforeId !== undefined) query = query.where("id", "<", filter.beforeId);
  return query.orderBy("id", "desc").limit(filter.limit).execute();
}

/** Updates an offer's editable fields. */
export function updateOffer(
  db: Db,
  id: number,
  changes: Updateable<OffersTable>,
): Promise<OfferRow | undefined> {
  return db.updateTable("offers").set(changes).where("id", "=", id).returningAll()
    .executeTakeFirst();
}
