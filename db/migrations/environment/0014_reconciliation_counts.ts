import { type Kysely, sql } from "kysely";

/** How many problems a reconciliation keeps whole; the same bound as lib/reconciliations/. */
const KEPT_PROBLEMS = 100;

/**
 * Bounded reconciliation results: a statement of 200,000 unknown orders stored and answered every
 * problem (issue 43). Each reconciliation now counts its problems by kind and keeps the first
 * 100; the ones already stored are counted and cut to the same 100.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("reconciliations")
    .addColumn("problem_counts", "text", (col) => col.notNull().defaultTo("{}"))
    .execute();
  await db.schema.alterTable("reconciliations")
    .addColumn("problems_truncated", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  // NOTE: SQLite evaluates every SET expression on the row as it was before the update.
  await sql`UPDATE reconciliations SET
    problem_counts = json_object(
      'unknown_order', (SELECT count(*) FROM json_each(reconciliations.problems)
        WHERE json_extract(value, '$.kind') = 'unknown_order'),
      'amount_mismatch', (SELECT count(*) FROM json_each(reconciliations.problems)
        WHERE json_extract(value, '$.kind') = 'amount_mismatch'),
      'not_in_statement', (SELECT count(*) FROM json_each(reconciliations.problems)
        WHERE json_extract(value, '$.kind') = 'not_in_statement')),
    problems_truncated = json_array_length(problems) > ${KEPT_PROBLEMS},
    problems = (SELECT json_group_array(json(value)) FROM
      (SELECT value FROM json_each(reconciliations.problems) ORDER BY key LIMIT ${KEPT_PROBLEMS}))
  `.execute(db);
}
