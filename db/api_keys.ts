import type { Kysely } from "kysely";
import type { ApiKeyRow, EnvironmentSchema } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** Inserts an API key record (only the secret's hash and last four characters). */
export function insertApiKey(
  db: Db,
  values: Omit<ApiKeyRow, "id" | "last_used_at" | "revoked_at">,
): Promise<ApiKeyRow> {
  return db.insertInto("api_keys").values(values).returningAll().executeTakeFirstOrThrow();
}

/** Finds a key by the hash of its secret. */
export function findApiKeyByHash(db: Db, secretHash: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom("api_keys").selectAll().where("secret_hash", "=", secretHash)
    .executeTakeFirst();
}

/** Finds a key of an organisation by its public id. */
export function findApiKey(
  db: Db,
  orgId: number,
  publicId: string,
): Promise<ApiKeyRow | undefined> {
  return db.selectFrom("api_keys").selectAll()
    .where("org_id", "=", orgId).where("public_id", "=", publicId).executeTakeFirst();
}

/** Lists an organisation's keys, newest first. */
export function listApiKeys(db: Db, orgId: number): Promise<ApiKeyRow[]> {
  return db.selectFrom("api_keys").selectAll().where("org_id", "=", orgId).orderBy("id", "desc")
    .execute();
}

/** Records when a key was last used. */
export async function touchApiKey(db: Db, id: number, at: number): Promise<void> {
  await db.updateTable("api_keys").set({ last_used_at: at }).where("id", "=", id).execute();
}

/** Revokes a key now, or schedules its expiry; returns the updated row. */
export function updateApiKeyValidity(
  db: Db,
  id: number,
  changes: { revoked_at?: number; expires_at?: number },
): Promise<ApiKeyRow | undefined> {
  return db.updateTable("api_keys").set(changes).where("id", "=", id).returningAll()
    .executeTakeFirst();
}
