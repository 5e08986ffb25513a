import type { Kysely } from "kysely";
import type { AccountsSchema, InvitationRow } from "./schema.ts";

type Db = Kysely<AccountsSchema>;

/** An invitation with the organisation it is for and who sent it. */
export type InvitationRecord = InvitationRow & {
  org_slug: string;
  org_name: string;
  invited_by_email: string | null;
};

function selectInvitations(db: Db) {
  return db.selectFrom("invitations as i")
    .innerJoin("organisations as o", "o.id", "i.org_id")
    .leftJoin("users as u", "u.id", "i.invited_by")
    .selectAll("i")
    .select(["o.slug as org_slug", "o.name as org_name", "u.email as invited_by_email"]);
}

/** Inserts an invitation. */
export function insertInvitation(
  db: Db,
  values: Omit<InvitationRow, "id">,
): Promise<InvitationRow> {
  return db.insertInto("invitations").values(values).returningAll().executeTakeFirstOrThrow();
}

/** Finds an invitation by its token's hash. */
export function findInvitationByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<InvitationRecord | undefined> {
  return selectInvitations(db).where("i.token_hash", "=", tokenHash).executeTakeFirst();
}

/** Finds an organisation's invitation by public id. */
export function findInvitation(
  db: Db,
  orgId: number,
  publicId: string,
): Promise<InvitationRecord | undefined> {
  return selectInvitations(db).where("i.org_id", "=", orgId).where("i.public_id", "=", publicId)
    .executeTakeFirst();
}

/** The open (not accepted, not revoked) invitations of an organisation, newest first. */
export function listOpenInvitations(db: Db, orgId: number): Promise<InvitationRecord[]> {
  return selectInvitations(db).where("i.org_id", "=", orgId)
    .where("i.accepted_at", "is", null).where("i.revoked_at", "is", null)
    .orderBy("i.id", "desc").execute();
}

/** Revokes the open invitation of `email` to an organisation, if there is one. */
export async function revokeOpenInvitation(
  db: Db,
  orgId: number,
  email: string,
  at: number,
): Promise<void> {
  await db.updateTable("invitations").set({ revoked_at: at })
    .where("org_id", "=", orgId).where("email", "=", email)
    .where("accepted_at", "is", null).where("revoked_at", "is", null).execute();
}

/** Marks an open invitation revoked or accepted; false if it was no longer open. */
export async function closeInvitation(
  db: Db,
  id: number,
  change: { revoked_at: number } | { accepted_at: number },
): Promise<boolean> {
  const result = await db.updateTable("invitations").set(change)
    .where("id", "=", id).where("accepted_at", "is", null).where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
