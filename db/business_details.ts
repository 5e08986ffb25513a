import type { Kysely } from "kysely";
import type { AccountsSchema, BusinessDetailsRow } from "./schema.ts";

type Db = Kysely<AccountsSchema>;

/** An organisation's business details, if it has set them. */
export function findBusinessDetails(
  db: Db,
  orgId: number,
): Promise<BusinessDetailsRow | undefined> {
  return db.selectFrom("business_details").selectAll().where("org_id", "=", orgId)
    .executeTakeFirst();
}

/** Writes an organisation's business details whole, replacing what was there. */
export function saveBusinessDetails(db: Db, row: BusinessDetailsRow): Promise<BusinessDetailsRow> {
  const { org_id: _orgId, ...changes } = row;
  return db.insertInto("business_details").values(row)
    .onConflict((conflict) => conflict.column("org_id").doUpdateSet(changes))
    .returningAll().executeTakeFirstOrThrow();
}
