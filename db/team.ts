import type { Kysely } from "kysely";
import type { AccountsSchema } from "./schema.ts";

type Db = Kysely<AccountsSchema>;

/** A member of an organisation: the user and their role. */
export interface MemberRecord {
  membership_id: number;
  user_id: number;
  user_public_id: string;
  email: string;
  name: string | null;
  role: string;
  joined_at: number;
}

function selectMembers(db: Db, orgId: number) {
  return db.selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select([
      "m.id as membership_id",
      "u.id as user_id",
      "u.public_id as user_public_id",
      "u.email",
      "u.name",
      "m.role",
      "m.created_at as joined_at",
    ])
    .where("m.org_id", "=", orgId);
}

/** An organisation's members, owners first, then by when they joined. */
export function listMembers(db: Db, orgId: number): Promise<MemberRecord[]> {
  return selectMembers(db, orgId)
    .orderBy((eb) =>
      eb.case().when("m.role", "=", "OWNER").then(0).when("m.role", "=", "ADMIN").then(1)
        .else(2).end()
    )
    .orderBy("m.id").execute();
}

/** One member of an organisation by the user's public id. */
export function findMember(
  db: Db,
  orgId: number,
  userPublicId: string,
): Promise<MemberRecord | undefined> {
  return selectMembers(db, orgId).where("u.public_id", "=", userPublicId).executeTakeFirst();
}

/** One member of an organisation by e-mail address (stored in lower case). */
export function findMemberByEmail(
  db: Db,
  orgId: number,
  email: string,
): Promise<MemberRecord | undefined> {
  return selectMembers(db, orgId).where("u.email", "=", email.toLowerCase()).executeTakeFirst();
}

/** How many owners an organisation has. */
export async function countOwners(db: Db, orgId: number): Promise<number> {
  const row = await db.selectFrom("memberships").select((eb) => eb.fn.countAll<number>().as("n"))
    .where("org_id", "=", orgId).where("role", "=", "OWNER").executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Changes a membership's role. */
export async function updateMembershipRole(db: Db, id: number, role: string): Promise<void> {
  await db.updateTable("memberships").set({ role }).where("id", "=", id).execute();
}

/** Deletes a membership. */
export async function deleteMembership(db: Db, id: number): Promise<void> {
  await db.deleteFrom("memberships").where("id", "=", id).execute();
}

/** The organisations a user belongs to, with their role, in the order they joined. */
export function listUserOrganisations(db: Db, userId: number) {
  return db.selectFrom("memberships as m")
    .innerJoin("organisations as o", "o.id", "m.org_id")
    .select(["o.id", "o.public_id", "o.slug", "o.name", "o.plan", "m.role"])
    .where("m.user_id", "=", userId).orderBy("m.id").execute();
}
