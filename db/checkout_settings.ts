import type { Kysely } from "kysely";
import type { EnvironmentSchema } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** An organisation's allowed embedding origins (JSON array text), if it ever set them. */
export async function findAllowedOrigins(db: Db, orgId: number): Promise<string | undefined> {
  const row = await db.selectFrom("checkout_settings").select("allowed_origins")
    .where("org_id", "=", orgId).executeTakeFirst();
  return row?.allowed_origins;
}

/** Replaces an organisation's allowed embedding origins. */
export async function saveAllowedOrigins(
  db: Db,
  orgId: number,
  allowedOrigins: string,
  now: number,
): Promise<void> {
  await db.insertInto("checkout_settings")
    .values({ org_id: orgId, allowed_origins: allowedOrigins, updated_at: now })
    .onConflict((oc) =>
      oc.column("org_id").doUpdateSet({ allowed_origins: allowedOrigins, updated_at: now })
    )
    .execute();
}
