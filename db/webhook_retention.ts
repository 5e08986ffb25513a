import type { Kysely } from "kysely";
import type { EnvironmentSchema } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/**
 * Deletes up to `limit` finished webhook deliveries completed before `completedBefore`, oldest
 * first, with their attempts; returns how many deliveries it deleted.
 */
export async function deleteFinishedDeliveries(
  trx: Db,
  completedBefore: number,
  limit: number,
): Promise<number> {
  const rows = await trx.selectFrom("webhook_deliveries").select("id")
    .where("status", "<>", "PENDING")
    .where("completed_at", "<", completedBefore)
    .orderBy("completed_at").limit(limit).execute();
  if (rows.length === 0) return 0;
  const ids = rows.map((row) => row.id);
  await trx.deleteFrom("webhook_attempts").where("delivery_id", "in", ids).execute();
  await trx.deleteFrom("webhook_deliveries").where("id", "in", ids).execute();
  return ids.length;
}
