import type { Kysely } from "kysely";
import type { AccountsSchema, UserRow } from "./schema.ts";

type Db = Kysely<AccountsSchema>;

/** Inserts a user. */
export function insertUser(db: Db, values: Omit<UserRow, "id" | "language">): Promise<UserRow> {
  return db.insertInto("users").values(values).returningAll().executeTakeFirstOrThrow();
}

/** Finds a user by internal id. */
export function findUserById(db: Db, id: number) {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Finds a user by e-mail address (stored in lower case). */
export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", email.toLowerCase())
    .executeTakeFirst();
}

/**
 * Sets a user's password hash and whether they must choose their own at the next sign-in (a
 * one-time password).
 */
export async function updateUserPassword(
  db: Db,
  userId: number,
  passwordHash: string,
  at: number,
  changeRequired = false,
): Promise<void> {
  await db.updateTable("users")
    .set({
      password_hash: passwordHash,
      password_change_required: changeRequired ? 1 : 0,
      updated_at: at,
    })
    .where("id", "=", userId).execute();
}

/**
 * Replaces a password hash by an equivalent one (same password, today's cost), unless the
 * password changed meanwhile; nothing else about the user changes.
 */
export async function upgradePasswordHash(
  db: Db,
  userId: number,
  from: string,
  to: string,
): Promise<void> {
  await db.updateTable("users").set({ password_hash: to })
    .where("id", "=", userId).where("password_hash", "=", from).execute();
}

/** Sets the panel language a user chose; null follows the browser. */
export async function updateUserLanguage(
  db: Db,
  userId: number,
  language: string | null,
  at: number,
): Promise<void> {
  await db.updateTable("users").set({ language, updated_at: at }).where("id", "=", userId)
    .execute();
}
