import Database from "libsql";
import type { ExecuteResult, SqlStatement, StatementExecutor } from "./libsql_dialect.ts";

type Connection = InstanceType<typeof Database>;
type Statement = ReturnType<Connection["prepare"]>;

interface CachedStatement {
  statement: Statement;
  /** Whether it returns rows; asked once, as each question is a native call. */
  reader: boolean;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * One connection to a local SQLite file through `libsql`, the engine @libsql/client embeds.
 * @libsql/client's file driver prepares every statement again and reads its column list twice
 * per call, which measured at about half of a simple API request; here prepared statements are
 * cached per SQL text and rows come back as plain objects.
 */
export class LocalSqliteConnection implements StatementExecutor {
  readonly #db: Connection;
  readonly #statements = new Map<string, CachedStatement>();

  /**
   * With `syncOnCommit: false` a commit writes the WAL without flushing it; the caller must then
   * flush it (`WalSync`) before treating the commit as durable.
   */
  constructor(
    path: string,
    options: { busyTimeoutMs: number; readOnly: boolean; syncOnCommit: boolean },
  ) {
    this.#db = new Database(path, { timeout: options.busyTimeoutMs });
    this.#db.exec("PRAGMA journal_mode = WAL");
    this.#db.exec(`PRAGMA synchronous = ${options.syncOnCommit ? "FULL" : "NORMAL"}`);
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

  /** Runs SQL that takes no parameters and returns nothing (transaction control, pragmas). */
  exec(sql: string): void {
    this.#db.exec(sql);
  }

  /** Whether a transaction is open (SQLite ends one by itself on a full disk or an I/O error). */
  get inTransaction(): boolean {
    return this.#db.inTransaction;
  }

  close(): void {
    this.#statements.clear();
    this.#db.close();
  }

  #run({ sql, args }: SqlStatement): ExecuteResult {
    let cached = this.#statements.get(sql);
    if (!cached) {
      if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.clear();
      const statement = this.#db.prepare(sql);
      cached = { statement, reader: statement.reader };
      this.#statements.set(sql, cached);
    }
    if (cached.reader) {
      const rows = cached.statement.all(args) as Record<string, unknown>[];
      return { rows, rowsAffected: 0 };
    }
    const info = cached.statement.run(args);
    return {
      rows: [],
      rowsAffected: info.changes,
      lastInsertRowid: BigInt(info.lastInsertRowid),
    };
  }
}
