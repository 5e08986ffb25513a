import type { Kysely } from "kysely";
import type { CheckoutCodeGuardRow, EnvironmentSchema } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/** The wrong-code counter of a payment or session, if it has one. */
export function findCodeGuard(
  db: Db,
  subject: string,
): Promise<CheckoutCodeGuardRow | undefined> {
  return db.selectFrom("checkout_code_guards").selectAll().where("subject", "=", subject)
    .executeTakeFirst();
}

/** Writes a subject's wrong-code counter. */
export async function saveCodeGuard(db: Db, guard: CheckoutCodeGuardRow): Promise<void> {
  await db.insertInto("checkout_code_guards").values(guard)
    .onConflict((oc) =>
      oc.column("subject").doUpdateSet({
        wrong_codes: guard.wrong_codes,
        locked_until: guard.locked_until,
        updated_at: guard.updated_at,
      })
    )
    .execute();
}

/** Tells whether any counter was last touched before `before`. */
export async function hasCodeGuardsBefore(db: Db, before: number): Promise<boolean> {
  const row = await db.selectFrom("checkout_code_guards").select("subject")
    .where("updated_at", "<", before).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Deletes up to `limit` counters last touched before `before`; returns how many. */
export async function deleteCodeGuardsBefore(
  db: Db,
  before: number,
  limit: number,
): Promise<number> {
  const result = await db.deleteFrom("checkout_code_guards")
    .where("subject", "in", (eb) =>
      eb.selectFrom("checkout_code_guards").select("subject")
        .where("updated_at", "<", before).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
