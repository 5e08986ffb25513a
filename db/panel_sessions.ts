import type { Kysely } from "kysely";
import type { AccountsSchema, PanelSessionRow } from "./schema.ts";

type Db = Kysely<AccountsSchema>;

/** A session with who it belongs to and the organisation, plan and role it works under. */
export interface SessionRecord {
  id: number;
  user_id: number;
  org_id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user_public_id: string;
  email: string;
  user_name: string | null;
  password_change_required: number;
  user_language: string | null;
  org_public_id: string;
  org_slug: string;
  org_name: string;
  plan: string;
  role: string;
}

/** Inserts a session. */
export function insertSession(
  db: Db,
  values: Omit<PanelSessionRow, "id">,
): Promise<PanelSessionRow> {
  return db.insertInto("panel_sessions").values(values).returningAll().executeTakeFirstOrThrow();
}

/**
 * Finds a session by its token's hash with its user, organisation and role. A session whose
 * membership was removed is not found.
 */
export function findSessionByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<SessionRecord | undefined> {
  return db.selectFrom("panel_sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .innerJoin("organisations as o", "o.id", "s.org_id")
    .innerJoin(
      "memberships as m",
      (join) => join.onRef("m.user_id", "=", "s.user_id").onRef("m.org_id", "=", "s.org_id"),
    )
    .select([
      "s.id",
      "s.user_id",
      "s.org_id",
      "s.created_at",
      "s.last_seen_at",
      "s.expires_at",
      "u.public_id as user_public_id",
      "u.email",
      "u.name as user_name",
      "u.password_change_required",
      "u.language as user_language",
      "o.public_id as org_public_id",
      "o.slug as org_slug",
      "o.name as org_name",
      "o.plan",
      "m.role",
    ])
    .where("s.token_hash", "=", tokenHash)
    .executeTakeFirst();
}

/** Records that a session was used at `at`. */
export async function touchSession(db: Db, id: number, at: number): Promise<void> {
  await db.updateTable("panel_sessions").set({ last_seen_at: at }).where("id", "=", id).execute();
}

/** Moves a session to another organisation of its user. */
export async function setSessionOrganisation(db: Db, id: number, orgId: number): Promise<void> {
  await db.updateTable("panel_sessions").set({ org_id: orgId }).where("id", "=", id).execute();
}

/** Deletes one session. */
export async function deleteSession(db: Db, id: number): Promise<void> {
  await db.deleteFrom("panel_sessions").where("id", "=", id).execute();
}

/** Deletes a user's sessions, but `keepId` if given; returns how many went. */
export async function deleteUserSessions(
  db: Db,
  userId: number,
  keepId?: number,
): Promise<number> {
  let query = db.deleteFrom("panel_sessions").where("user_id", "=", userId);
  if (keepId !== undefined) query = query.where("id", "<>", keepId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes a user's sessions in one organisation (they left it). */
export async function deleteUserSessionsInOrganisation(
  db: Db,
  userId: number,
  orgId: number,
): Promise<void> {
  await db.deleteFrom("panel_sessions").where("user_id", "=", userId).where("org_id", "=", orgId)
    .execute();
}

/** Deletes up to `limit` sessions past their absolute end or idle since `idleBefore`. */
export async function deleteExpiredSessions(
  db: Db,
  now: number,
  idleBefore: number,
  limit: number,
): Promise<number> {
  const result = await db.deleteFrom("panel_sessions").where(
    "id",
    "in",
    (eb) =>
      eb.selectFrom("panel_sessions").select("id")
        .where((w) => w.or([w("expires_at", "<=", now), w("last_seen_at", "<=", idleBefore)]))
        .limit(limit),
  ).executeTakeFirst();
  return Number(result.numDeletedRows);
}
