import {
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";

/** One SQL statement with positional arguments. */
export interface SqlStatement {
  sql: string;
  args: unknown[];
}

/** What running a statement returns. */
export interface ExecuteResult {
  rows: Record<string, unknown>[];
  rowsAffected: number;
  lastInsertRowid?: bigint;
}

/** Anything that runs one statement: a local SQLite connection, a libSQL client or transaction. */
export interface StatementExecutor {
  execute(statement: SqlStatement): Promise<ExecuteResult>;
}

/** The executor of each Kysely instance made by `libsqlKysely`. */
const executors = new WeakMap<object, () => StatementExecutor>();

/** A Kysely instance whose every query runs on whatever executor `current()` returns. */
export function libsqlKysely<S>(current: () => StatementExecutor): Kysely<S> {
  const db = new Kysely<S>({ dialect: new LibsqlDialect(current) });
  executors.set(db, current);
  return db;
}

/**
 * The executor a `libsqlKysely` instance runs its next query on, or undefined for another Kysely:
 * a compiled query can run there without Kysely's per-query connection handling.
 */
export function currentExecutor(db: object): StatementExecutor | undefined {
  return executors.get(db)?.();
}

/** A statement's result in Kysely's form. */
export function toQueryResult<R>(result: ExecuteResult): QueryResult<R> {
  return {
    rows: result.rows as R[],
    numAffectedRows: BigInt(result.rowsAffected),
    insertId: result.lastInsertRowid,
  };
}

/**
 * A Kysely dialect whose every query runs on whatever executor `current()` returns.
 * Transactions are not opened through Kysely: `Store.write()` owns them (group commit).
 */
export class LibsqlDialect implements Dialect {
  readonly #current: () => StatementExecutor;

  constructor(current: () => StatementExecutor) {
    this.#current = current;
  }

  createAdapter(): DialectAdapter {
    return new LibsqlAdapter();
  }

  createDriver(): Driver {
    return new LibsqlDriver(this.#current);
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
}

/**
 * SQLite's adapter, but for one thing: Kysely holds every query of an adapter without multiple
 * connections behind a lock, one at a time. The executor here is no connection: reads from a
 * libSQL server run side by side on its streams, and a transaction is the Store's (one write's
 * statements run in turn in its callback).
 */
class LibsqlAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

class LibsqlDriver implements Driver {
  readonly #connection: LibsqlConnection;

  constructor(current: () => StatementExecutor) {
    this.#connection = new LibsqlConnection(current);
  }

  async init(): Promise<void> {}

  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(this.#connection);
  }

  beginTransaction(): Promise<void> {
    return Promise.reject(new Error("Open write transactions with Store.write(), not Kysely."));
  }

  commitTransaction(): Promise<void> {
    return this.beginTransaction();
  }

  rollbackTransaction(): Promise<void> {
    return this.beginTransaction();
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {}
}

class LibsqlConnection implements DatabaseConnection {
  readonly #current: () => StatementExecutor;

  constructor(current: () => StatementExecutor) {
    this.#current = current;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.#current().execute({
      sql: compiled.sql,
      args: compiled.parameters as unknown[],
    });
    return toQueryResult(result);
  }

  // deno-lint-ignore require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("Streaming queries are not supported by the libSQL dialect.");
  }
}
