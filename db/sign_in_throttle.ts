import type { Kysely } from "kysely";
import type { AccountsSchema, SignInThrottleRow } from "./schema.ts";

type Db = Kysely<AccountsSchema>;

/** The throttle rows of some subjects. */
export function findThrottleRows(
  db: Db,
  subjects: readonly string[],
): Promise<SignInThrottleRow[]> {
  return db.selectFrom("sign_in_throttle").selectAll().where("subject", "in", subjects).execute();
}

/** Writes a subject's throttle state. */
export async function saveThrottleRow(db: Db, row: SignInThrottleRow): Promise<void> {
  await db.insertInto("sign_in_throttle").values(row)
    .onConflict((oc) =>
      oc.column("subject").doUpdateSet({
        failures: row.failures,
        window_started_at: row.window_started_at,
        locked_until: row.locked_until,
        updated_at: row.updated_at,
      })
    ).execute();
}

/** Forgets a subject's failures (a successful sign-in of that account). */
export async function deleteThrottleRow(db: Db, subject: string): Promise<void> {
  await db.deleteFrom("sign_in_throttle").where("subject", "=", subject).execute();
}

/** Deletes rows untouched since `before` (their window and lock are long over). */
export async function deleteStaleThrottleRows(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom("sign_in_throttle").where("updated_at", "<", before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
