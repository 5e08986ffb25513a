import type { Kysely } from "kysely";
import type { AccountsSchema, MembershipRow, OrganisationRow } from "./schema.ts";

type Db = Kysely<AccountsSchema>;

/** Inserts an organisation. */
export function insertOrganisation(
  db: Db,
  values: Omit<OrganisationRow, "id">,
): Promise<OrganisationRow> {
  return db.insertInto("organisations").values(values).returningAll().executeTakeFirstOrThrow();
}

/** Finds an organisation by its internal id. */
export function findOrganisation(db: Db, id: number): Promise<OrganisationRow | undefined> {
  return db.selectFrom("organisations").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Finds an organisation by slug. */
export function findOrganisationBySlug(db: Db, slug: string): Promise<OrganisationRow | undefined> {
  return db.selectFrom("organisations").selectAll().where("slug", "=", slug).executeTakeFirst();
}

/** Counts organisations, to tell a first start from a later one. */
export async function countOrganisations(db: Db): Promise<number> {
  const row = await db.selectFrom("organisations").select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Changes an organisation's plan. */
export function updateOrganisationPlan(
  db: Db,
  id: number,
  plan: string,
  at: number,
): Promise<OrganisationRow | undefined> {
  return db.updateTable("organisations").set({ plan, updated_at: at }).where("id", "=", id)
    .returningAll().executeTakeFirst();
}

/** Inserts a membership of a user in an organisation. */
export function insertMembership(
  db: Db,
  values: Omit<MembershipRow, "id">,
): Promise<MembershipRow> {
  return db.insertInto("memberships").values(values).returningAll().executeTakeFirstOrThrow();
}

/** Finds a user's membership in an organisation. */
export function findMembership(
  db: Db,
  orgId: number,
  userId: number,
): Promise<MembershipRow | undefined> {
  return db.selectFrom("memberships").selectAll()
    .where("org_id", "=", orgId).where("user_id", "=", userId).executeTakeFirst();
}

/** The ids of every organisation on `plan`. */
export async function listOrganisationIdsOnPlan(db: Db, plan: string): Promise<number[]> {
  const rows = await db.selectFrom("organisations").select("id").where("plan", "=", plan)
    .execute();
  return rows.map((row) => row.id);
}
