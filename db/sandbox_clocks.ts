import { type Kysely, type RawBuilder, sql } from "kysely";
import type { EnvironmentSchema } from "./schema.ts";

type Db = Kysely<EnvironmentSchema>;

/**
 * SQL for how far the sandbox clock of the organisation in `orgIdColumn` runs ahead of the
 * system clock, in ms (0 for an organisation that never moved it, and always in production).
 * A job compares a stored organisation time `t` with its system `now` as `t - offset <= now`.
 */
export function clockOffsetOf(orgIdColumn: string): RawBuilder<number> {
  return sql<
    number
  >`coalesce((select sandbox_clocks.offset_ms from sandbox_clocks where sandbox_clocks.org_id = ${
    sql.ref(orgIdColumn)
  }), 0)`;
}

/**
 * SQL for the largest offset of any organisation: `t <= now + maxClockOffset()` is a bound an
 * index can use before the exact per-organisation comparison.
 */
export function maxClockOffset(): RawBuilder<number> {
  return sql<number>`(select coalesce(max(sandbox_clocks.offset_ms), 0) from sandbox_clocks)`;
}

/** The organisation's clock offset in ms (0 if it never moved its clock). */
export async function findClockOffset(db: Db, orgId: number): Promise<number> {
  const row = await db.selectFrom("sandbox_clocks").select("offset_ms")
    .where("org_id", "=", orgId).executeTakeFirst();
  return row?.offset_ms ?? 0;
}

/** Moves the organisation's clock `byMs` further ahead; returns the new offset. */
export async function addClockOffset(
  db: Db,
  orgId: number,
  byMs: number,
  now: number,
): Promise<number> {
  const row = await db.insertInto("sandbox_clocks")
    .values({ org_id: orgId, offset_ms: byMs, updated_at: now })
    .onConflict((oc) =>
      oc.column("org_id").doUpdateSet({
        offset_ms: sql<number>`sandbox_clocks.offset_ms + ${byMs}`,
        updated_at: now,
      })
    )
    .returning("offset_ms").executeTakeFirstOrThrow();
  return row.offset_ms;
}
