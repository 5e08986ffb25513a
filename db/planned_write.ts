import type { Store } from "./client.ts";
import type { ExecuteResult, SqlStatement } from "./libsql_dialect.ts";

/**
 * A write planned from reads made before it: its statements, declared up front and guarded so
 * they change nothing where the rows moved on since the reads, and what their results mean.
 */
export interface PlannedWrite<T> {
  statements: SqlStatement[];
  result(results: ExecuteResult[]): T;
}

/**
 * Runs plans as one atomic write (`Store.writeStatements`: one commit, and on a libSQL server
 * one round trip, no lock held between statements) and reads each one's results. A plan with
 * no statements costs nothing; with none at all there is no write.
 */
export async function writePlanned<T extends unknown[]>(
  store: Pick<Store<unknown>, "writeStatements">,
  ...plans: { [K in keyof T]: PlannedWrite<T[K]> }
): Promise<T> {
  const statements = plans.flatMap((plan) => plan.statements);
  const results = statements.length === 0 ? [] : await store.writeStatements(statements);
  let offset = 0;
  return plans.map((plan) => {
    const own = results.slice(offset, offset + plan.statements.length);
    offset += plan.statements.length;
    return plan.result(own);
  }) as T;
}

/** The ids a plan's `RETURNING id` statements gave back, over all of them. */
export function returnedIds(results: readonly ExecuteResult[]): Set<number> {
  return new Set(results.flatMap((result) => result.rows).map((row) => Number(row.id)));
}
