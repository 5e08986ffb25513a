import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { ExecuteResult, SqlStatement, StatementExecutor } from "./libsql_dialect.ts";

/** Deno 2.9's node:sqlite has `setReturnArrays`; its bundled Node types do not list it yet. */
type ArrayStatement = StatementSync & { setReturnArrays(enabled: boolean): void };

/** Makes a row object of one statement's values, in its columns' order. */
type RowOf = (values: unknown[]) => Record<string, unknown>;

interface CachedStatement {
  statement: StatementSync;
  /** Absent for a statement that returns no columns (a write). */
  rowOf?: RowOf;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * One connection to a local SQLite file through Deno's built-in `node:sqlite`. It measured at
 * about twice as fast as the `libsql` package for a one-row read (one native call returns every
 * row, where libsql calls in once per row) and needs no native module loaded. Prepared statements
 * are cached per SQL text, and rows are read as arrays and made plain objects here, which measured
 * faster than node:sqlite's own objects (and those have no prototype).
 */
export class LocalSqliteConnection implements StatementExecutor {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, CachedStatement>();

  /**
   * With `syncOnCommit: false` a commit writes the WAL without flushing it; the caller must then
   * flush it (`WalSync`) before treating the commit as durable. With `checkpointOnCommit: false`
   * a commit never checkpoints; the caller must (`WalCheckpointer`).
   */
  constructor(
    path: string,
    options: {
      busyTimeoutMs: number;
      readOnly: boolean;
      syncOnCommit: boolean;
      checkpointOnCommit?: boolean;
    },
  ) {
    this.#db = new DatabaseSync(path, { timeout: options.busyTimeoutMs });
    this.#db.exec("PRAGMA journal_mode = WAL");
    this.#db.exec(`PRAGMA synchronous = ${options.syncOnCommit ? "FULL" : "NORMAL"}`);
    if (options.checkpointOnCommit === false) this.#db.exec("PRAGMA wal_autocheckpoint = 0");
    this.#db.exec("PRAGMA foreign_keys = ON");
    if (options.readOnly) this.#db.exec("PRAGMA query_only = ON");
  }

  execute(statement: SqlStatement): Promise<ExecuteResult> {
    try {
      return Promise.resolve(this.#run(statement));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Runs one statement that takes no parameters and returns nothing (transaction control,
   * pragmas). Prepared, not `exec`uted: node:sqlite's `exec` errors carry no SQLite code, which
   * is how a full disk at COMMIT is told from a bug.
   */
  exec(sql: string): void {
    this.#prepared(sql).statement.run();
  }

  /** Whether a transaction is open (SQLite ends one by itself on a full disk or an I/O error). */
  get inTransaction(): boolean {
    return this.#db.isTransaction;
  }

  close(): void {
    this.#statements.clear();
    this.#db.close();
  }

  #prepared(sql: string): CachedStatement {
    let cached = this.#statements.get(sql);
    if (!cached) {
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.clear();
      const statement = this.#db.prepare(sql) as ArrayStatement;
      statement.setReturnArrays(true);
      const columns = statement.columns().map((column) => column.name);
      cached = { statement, rowOf: columns.length > 0 ? rowFactory(columns) : undefined };
      this.#statements.set(sql, cached);
    }
    return cached;
  }

  #run({ sql, args }: SqlStatement): ExecuteResult {
    const { statement, rowOf } = this.#prepared(sql);
    const values = args as SqlValue[];
    if (rowOf) {
      const rows = (statement.all(...values) as unknown as unknown[][]).map(rowOf);
      return { rows, rowsAffected: 0 };
    }
    const info = statement.run(...values);
    return {
      rows: [],
      rowsAffected: Number(info.changes),
      lastInsertRowid: BigInt(info.lastInsertRowid),
    };
  }
}

type SqlValue = null | number | bigint | string | Uint8Array;

/**
 * A statement's row maker: an object literal of its columns, compiled once per statement. Filling
 * an empty object column by column made every row's shape anew through megamorphic stores, 1.2 µs
 * for a payment's 20 columns against 0.2 µs (bench/row_objects.ts). Names are JSON-quoted, so a
 * column name is only ever a property key.
 */
function rowFactory(columns: string[]): RowOf {
  const fields = columns.map((name, i) => `${JSON.stringify(name)}: values[${i}]`);
  return new Function("values", `return { ${fields.join(", ")} };`) as RowOf;
}
