import type { Compilable, CompiledQuery, Kysely, QueryResult } from "kysely";
import { currentExecutor, toQueryResult } from "./libsql_dialect.ts";

/** A parameter of the compiled query: the named parameter's value, or a constant of the build. */
interface Slot {
  param: string | null;
  constant: unknown;
}

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
    // Per call, so built without arrays: the names of the defined parameters.
    let key = "";
    for (const name in params) if (params[name] !== undefined) key += `${name}\u0000`;
    let shape = shapes.get(key);
    if (shape === undefined) {
      shape = compileShape(db, build, params);
      shapes.set(key, shape);
    }
    const { slots } = shape;
    const parameters = new Array(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const { param, constant } = slots[i];
      parameters[i] = param === null ? constant : params[param];
    }
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
): Shape {
  const defined = Object.keys(params).filter((name) => params[name] !== undefined);
  const marked = Object.fromEntries(
    Object.keys(params).map((name) => [name, defined.includes(name) ? MARK + name : undefined]),
  ) as P;
  const compiled = build(db, marked).compile();
  const slots = compiled.parameters.map((value): Slot => {
    if (typeof value === "string" && value.startsWith(MARK)) {
      return { param: value.slice(MARK.length), constant: undefined };
    }
    if (typeof value === "string" && value.includes(MARK)) {
      throw new Error(`A prepared query transformed a parameter: ${compiled.sql}`);
    }
    return { param: null, constant: value };
  });
  const used = new Set(slots.map((slot) => slot.param));
  const unused = defined.filter((name) => !used.has(name));
  if (unused.length > 0) {
    throw new Error(`A prepared query did not use ${unused.join(", ")}: ${compiled.sql}`);
  }
  return { compiled, slots };
}
