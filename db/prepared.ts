import type { Compilable, CompiledQuery, Kysely, QueryResult } from "kysely";
import { currentExecutor, toQueryResult } from "./libsql_dialect.ts";

type Slot = { param: string } | { constant: unknown };

interface Shape {
  compiled: CompiledQuery;
  slots: Slot[];
}

const MARK = "\u0000prepared:";

/**
 * A hot query built and compiled once per shape, then run with new parameters: building a query
 * with Kysely costs more than running it on SQLite. `build` must give every parameter to Kysely
 * as a value and never branch on one (no `in` lists, no optional clauses); a parameter left
 * `undefined` is a shape of its own (Kysely leaves such columns out of an insert).
 */
export function prepared<S, P extends Record<string, unknown>, R>(
  build: (db: Kysely<S>, params: P) => Compilable<R>,
): (db: Kysely<S>, params: P) => Promise<QueryResult<R>> {
  const shapes = new Map<string, Shape>();
  return async (db, params) => {
    const defined = Object.keys(params).filter((name) => params[name] !== undefined);
    const key = defined.join("\u0000");
    let shape = shapes.get(key);
    if (shape === undefined) {
      shape = compileShape(db, build, params, defined);
      shapes.set(key, shape);
    }
    const parameters = shape.slots.map((slot) =>
      "param" in slot ? params[slot.param] : slot.constant
    );
    // Straight to the statement executor: Kysely's executeQuery acquires and releases a
    // connection and runs plugins, several promises per query, for nothing on this dialect.
    const executor = currentExecutor(db);
    if (executor === undefined) {
      return await db.executeQuery<R>({ ...shape.compiled, parameters } as CompiledQuery<R>);
    }
    return toQueryResult<R>(await executor.execute({ sql: shape.compiled.sql, args: parameters }));
  };
}

function compileShape<S, P extends Record<string, unknown>, R>(
  db: Kysely<S>,
  build: (db: Kysely<S>, params: P) => Compilable<R>,
  params: P,
  defined: string[],
): Shape {
  const marked = Object.fromEntries(
    Object.keys(params).map((name) => [name, defined.includes(name) ? MARK + name : undefined]),
  ) as P;
  const compiled = build(db, marked).compile();
  const slots = compiled.parameters.map((value): Slot => {
    if (typeof value === "string" && value.startsWith(MARK)) {
      return { param: value.slice(MARK.length) };
    }
    if (typeof value === "string" && value.includes(MARK)) {
      throw new Error(`A prepared query transformed a parameter: ${compiled.sql}`);
    }
    return { constant: value };
  });
  const used = new Set(slots.flatMap((slot) => "param" in slot ? [slot.param] : []));
  const unused = defined.filter((name) => !used.has(name));
  if (unused.length > 0) {
    throw new Error(`A prepared query did not use ${unused.join(", ")}: ${compiled.sql}`);
  }
  return { compiled, slots };
}
