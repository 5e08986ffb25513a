import { backup as sqliteBackup, DatabaseSync } from "node:sqlite";
import { Kysely, sql } from "kysely";
import { type CommitProbe, GroupCommitWriter, type WriteBatch } from "./group_commit.ts";
import {
  type ExecuteResult,
  libsqlKysely,
  type SqlStatement,
  type StatementExecutor,
} from "./libsql_dialect.ts";
import type { MergeableWrite } from "./mergeable_write.ts";
import type { RemoteBatchWriter } from "./remote_batch.ts";
import type { RemoteParts } from "./remote_store.ts";
import { FileGuard, readProblemAt } from "./file_guard.ts";
import { LocalSqliteConnection } from "./local_sqlite.ts";
import { TurnSnapshot } from "./turn_snapshot.ts";
import { StorageHealth, StorageOpenError, StorageUnavailableError } from "./storage_health.ts";
import { WalCheckpointer } from "./wal_checkpoint.ts";
import { WalIndex } from "./wal_index.ts";
import { WalSync } from "./wal_sync.ts";
import type { Migration } from "./migrations/mod.ts";

/** One database: a read handle, group-committed write transactions, and lifecycle. */
export interface Store<S> {
  /** The URL it was opened with (`file:...`, `http://...`, `libsql://...`). */
  readonly url: string;
  /** For reads. On a file database its connection is read-only, so a stray write fails loudly. */
  readonly db: Kysely<S>;
  /** Runs `work` in a write transaction; resolves once the commit is durable. */
  write<T>(work: (trx: Kysely<S>) => Promise<T>): Promise<T>;
  /**
   * Runs `work` in a write transaction; resolves once the commit is visible, maybe before it is
   * durable. For claims guarding a later write; never acknowledge a client on it.
   */
  writeVisible<T>(work: (trx: Kysely<S>) => Promise<T>): Promise<T>;
  /**
   * As writeVisible, for `work` that makes exactly one statement (a second one throws): it
   * shares a group commit without a savepoint, as a failed statement undoes only itself.
   */
  writeStatement<T>(work: (db: Kysely<S>) => Promise<T>): Promise<T>;
  /**
   * Runs `statements`, declared up front, in order as one atomic write; resolves with their
   * results once durable. Concurrent calls share a commit, and on a libSQL server one round trip.
   */
  writeStatements(statements: readonly SqlStatement[]): Promise<ExecuteResult[]>;
  /**
   * As writeStatements, for a write of a mergeable kind: on a libSQL server, concurrent writes
   * of the kind also share their statements (see MergeableWrite). Resolves with its result.
   */
  writeMergeable<I, T>(kind: MergeableWrite<I, T>, input: I): Promise<T>;
  /** False from a storage failure (disk full, read-only) until a write commits again. */
  readonly writable: boolean;
  /** Calls `listener` when the database stops or starts taking writes. */
  onWritableChange(
    listener: (writable: boolean, error?: StorageUnavailableError) => void,
  ): () => void;
  /** Calls `listener` after every committed write transaction. */
  onCommit(listener: () => void): () => void;
  /**
   * As onCommit, handing the listener what `probe` read at the end of the committing
   * transaction; null where it was not read there (an interactive transaction on a libSQL
   * server, a declared write that had to be sent alone).
   */
  onCommitProbe(probe: CommitProbe): () => void;
  /** Throws unless the database answers. */
  ping(): Promise<void>;
  /** Waits for pending writes, then closes the connections. */
  close(): Promise<void>;
}

const BUSY_TIMEOUT_MS = 5000;

/** Tells whether `url` names a local SQLite file rather than a libSQL server. */
export function isFileUrl(url: string): boolean {
  return url.startsWith("file:");
}

function filePath(url: string): string {
  return url.slice("file:".length).replace(/^\/\/(?=\/)/, "");
}

/** The path of a `file:` database, or null for a libSQL server. */
export function databaseFilePath(url: string): string | null {
  return isFileUrl(url) ? filePath(url) : null;
}

/** How messages name a database: a server's URL without its credentials (`?authToken=`). */
export function databaseName(url: string): string {
  if (isFileUrl(url)) return url;
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  parsed.search = "";
  return parsed.toString();
}

async function ensureParentDirectory(path: string): Promise<void> {
  const slash = path.lastIndexOf("/");
  if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true });
}

/** `connection`, refusing each statement while `problem` finds one (see FileGuard). */
function guarded(
  connection: StatementExecutor,
  problem: () => string | null,
  refuse: (problem: string | null) => void,
): StatementExecutor {
  return {
    execute: (statement) => {
      try {
        refuse(problem());
      } catch (error) {
        return Promise.reject(error);
      }
      return connection.execute(statement);
    },
  };
}

/** Runs native calls as a promise, so their failure rejects instead of throwing past handlers. */
function settle<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Opens a database by URL. A `file:` database gets two connections in WAL mode with foreign keys
 * and a busy timeout: one writes (group commit makes one enough) and one, read-only, reads, so
 * reads never see a write half-done. On a libSQL server reads and writes go over one connection,
 * on streams kept open (`connectRemote`).
 */
export async function openStore<S>(url: string): Promise<Store<S>> {
  const name = databaseName(url);
  let reader: StatementExecutor;
  let openBatch: (oneStatement: boolean) => Promise<WriteBatch>;
  let closeConnections: () => Promise<void> | void;
  let checkpointer: WalCheckpointer | null = null;
  let remote: RemoteParts | null = null;
  if (isFileUrl(url)) {
    const path = filePath(url);
    // NOTE: SQLite would fsync inside COMMIT, blocking the event loop for milliseconds. The
    // writer commits without flushing and the WAL is flushed off-thread before any write of the
    // batch is acknowledged: the same durability as synchronous=FULL, and commits share fsyncs.
    let writer: LocalSqliteConnection;
    let readOnly: LocalSqliteConnection;
    try {
      await ensureParentDirectory(path);
      writer = new LocalSqliteConnection(path, {
        busyTimeoutMs: BUSY_TIMEOUT_MS,
        readOnly: false,
        syncOnCommit: false,
        checkpointOnCommit: false,
      });
      readOnly = new LocalSqliteConnection(path, {
        busyTimeoutMs: BUSY_TIMEOUT_MS,
        readOnly: true,
        syncOnCommit: false,
      });
    } catch (error) {
      throw new StorageOpenError(path, error);
    }
    const wal = new WalSync(`${path}-wal`);
    // NOTE: SQLite stores into the mapped -shm file on reads and writes alike; once the files
    // are immutable that store is a SIGBUS, so every call is checked first (FileGuard).
    const guard = new FileGuard(path);
    const refuse = (problem: string | null) => {
      if (problem !== null) throw health.fail(new Error(problem));
    };
    // NOTE: SQLite's automatic checkpoint would copy pages into the database file and fsync it
    // inside a COMMIT, on the event loop; a worker does it instead, on its own connection.
    const index = new WalIndex(`${path}-shm`);
    const walCheckpointer = checkpointer = new WalCheckpointer(path, index, {
      busyTimeoutMs: BUSY_TIMEOUT_MS,
      blocked: () => guard.writeProblem() !== null,
    });
    const snapshot = new TurnSnapshot(readOnly);
    reader = guarded(snapshot, () => guard.readProblem(), refuse);
    const autocommitWriter = guarded(writer, () => guard.writeProblem(), refuse);
    // A lone one-statement write runs as it comes: SQLite commits it by itself, two native calls
    // fewer than BEGIN and COMMIT around it; its WAL is flushed as a batch's is.
    const autocommit: WriteBatch = {
      executor: {
        execute: (statement) => {
          // The statement has committed when this returns (a local call is synchronous).
          const result = autocommitWriter.execute(statement);
          snapshot.release();
          return result;
        },
      },
      commit: () => Promise.resolve(),
      rollback: () => Promise.resolve(),
      durable: () => wal.sync(),
    };
    const inBatch = guarded(writer, () => guard.readProblem(), refuse);
    openBatch = (oneStatement) =>
      oneStatement ? Promise.resolve(autocommit) : settle(() => {
        refuse(guard.writeProblem());
        writer.exec("BEGIN IMMEDIATE");
        return {
          executor: inBatch,
          commit: () =>
            settle(() => {
              refuse(guard.writeProblem());
              writer.exec("COMMIT");
              snapshot.release();
            }),
          // A full disk or an I/O error makes SQLite roll back by itself.
          rollback: () =>
            settle(() => {
              if (writer.inTransaction) writer.exec("ROLLBACK");
            }),
          durable: () => wal.sync(),
          active: () => writer.inTransaction,
        };
      });
    // The worker's connection closes first, so the writer's is the last: SQLite then checkpoints
    // the whole WAL and deletes it, as before. The index closes after every connection.
    closeConnections = async () => {
      await walCheckpointer.close();
      // Closing the last connection checkpoints into the files: with them immutable, a SIGBUS.
      // They are left to the process's exit, and the WAL to the next start's recovery.
      if (guard.writeProblem() !== null) return;
      wal.close();
      snapshot.release();
      readOnly.close();
      writer.close();
      index.close();
      guard.close();
    };
  } else {
    // Loaded only here: a file database, the default, never needs it (0.6 MiB of live heap).
    const { connectRemote } = await import("./remote_store.ts");
    const parts = remote = connectRemote(url);
    reader = parts.reader;
    // NOTE: a lone claim run as an autocommit statement (no interactive transaction) measured no
    // better in the soak (91-104 creates/s against 109-123/s): it waits for the lock all the same.
    openBatch = () => parts.openBatch();
    closeConnections = () => parts.close();
  }

  const health = new StorageHealth(name, remote?.isUnreachable);
  if (remote) {
    const serverReader = reader;
    // A read that cannot reach the server finds the storage unavailable, as a write would:
    // `/readyz` then says so even while only reads come in.
    reader = {
      execute: (statement) =>
        serverReader.execute(statement).catch((error) => {
          throw health.classify(error);
        }),
    };
  }
  // NOTE: a probe on a file's writer costs microseconds in a warm transaction; in an interactive
  // transaction on a libSQL server it would be a round trip made while holding the write lock
  // (declared writes there carry the probes in their one request instead).
  const writeQueue = new GroupCommitWriter<S>(openBatch, health, {
    probeInBatch: remote === null,
    // NOTE: the first write after the storage failed waits for the WAL to be checkpointed and
    // truncated, so the space that came back is not taken by the WAL's old frames.
    beforeBatch: checkpointer
      ? () => health.writable ? checkpointer.beforeBatch() : checkpointer.recover()
      : undefined,
  });
  if (checkpointer) writeQueue.onCommit(() => checkpointer.committed());
  const remoteBatches: RemoteBatchWriter | null = remote &&
    remote.batchWriter(health, {
      probes: () => writeQueue.commitProbes(),
      committed: (probed) => writeQueue.announceCommit(probed),
    });
  // Rewriting the header's user_version changes nothing yet needs the storage to take a page.
  health.setProbe(() =>
    writeQueue.write(async (trx) => {
      const { rows } = await sql<{ user_version: number }>`PRAGMA user_version`.execute(trx);
      await sql.raw(`PRAGMA user_version = ${Number(rows[0].user_version)}`).execute(trx);
    })
  );
  const db = libsqlKysely<S>(() => reader);
  return {
    url,
    db,
    write: (work) => writeQueue.write(work),
    writeVisible: (work) => writeQueue.writeVisible(work),
    writeStatement: (work) => writeQueue.writeStatement(work),
    writeStatements: (statements) =>
      remoteBatches ? remoteBatches.write(statements) : writeQueue.writeStatements(statements),
    // NOTE: a file's writer caches each statement prepared, so merging would save it nothing.
    writeMergeable: async (kind, input) =>
      remoteBatches
        ? await remoteBatches.writeMergeable(kind, input)
        : kind.results([input], await writeQueue.writeStatements(kind.statements([input])))[0],
    get writable() {
      return health.writable;
    },
    onWritableChange: (listener) => health.onChange(listener),
    onCommit: (listener) => writeQueue.onCommit(listener),
    onCommitProbe: (probe) => writeQueue.onCommitProbe(probe),
    ping: async () => {
      await reader.execute({ sql: "SELECT 1", args: [] });
    },
    close: async () => {
      health.stop();
      await Promise.all([writeQueue.idle(), remoteBatches?.idle()]);
      await closeConnections();
    },
  };
}

/**
 * Applies the migrations not yet applied, each in its own transaction, in key order. Storage
 * that refuses the writes (a read-only file) is a `StorageOpenError`.
 */
export async function migrate<S>(
  store: Store<S>,
  migrations: Record<string, Migration>,
): Promise<string[]> {
  try {
    return await applyMigrations(store, migrations);
  } catch (error) {
    if (!(error instanceof StorageUnavailableError)) throw error;
    throw new StorageOpenError(isFileUrl(store.url) ? filePath(store.url) : store.url, error.cause);
  }
}

async function applyMigrations<S>(
  store: Store<S>,
  migrations: Record<string, Migration>,
): Promise<string[]> {
  const applied: string[] = [];
  const names = Object.keys(migrations).sort();
  await store.write(async (trx) => {
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      name TEXT PRIMARY KEY NOT NULL,
      applied_at INTEGER NOT NULL
    )`.execute(trx);
    const known = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(trx);
    const unknown = known.rows.map((row) => row.name).filter((name) => !(name in migrations));
    if (unknown.length > 0) {
      throw new Error(
        `The database at ${store.url} has migrations this version does not know (${
          unknown.join(", ")
        }); it was upgraded by a newer Paystead.`,
      );
    }
  });
  for (const name of names) {
    // NOTE: the check runs inside the write transaction, so two processes starting together
    // over one database apply each migration once.
    const ran = await store.write(async (trx) => {
      const done = await sql`SELECT 1 FROM schema_migrations WHERE name = ${name}`.execute(trx);
      if (done.rows.length > 0) return false;
      await migrations[name].up(trx as Kysely<unknown>);
      await sql`INSERT INTO schema_migrations (name, applied_at) VALUES (${name}, ${Date.now()})`
        .execute(trx);
      return true;
    });
    if (ran) applied.push(name);
  }
  return applied;
}

/** Writes a consistent copy of a file database to `outPath` while it stays in use. */
export async function backupDatabase(url: string, outPath: string): Promise<void> {
  if (!isFileUrl(url)) {
    throw new Error(
      `Backups are made of file databases; ${url} is a libSQL server, so use the server's own backup.`,
    );
  }
  try {
    await Deno.lstat(outPath);
    throw new Error(`${outPath} already exists; choose a new file name for the backup.`);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const source = filePath(url);
  try {
    await Deno.stat(source);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new Error(`There is no database at ${source}; check --data-dir or DATA_DIR.`);
    }
    throw error;
  }
  // A new folder for backups (data/backups on a first backup) is made, private to its owner.
  const slash = outPath.lastIndexOf("/");
  if (slash > 0) await Deno.mkdir(outPath.slice(0, slash), { recursive: true, mode: 0o700 });
  // A read stores into the -shm file: with it immutable, a SIGBUS (FileGuard). By path: this
  // may run in the server's own process, where closing a descriptor of the file drops its locks.
  const problem = readProblemAt(source);
  if (problem !== null) throw new Error(`The database cannot be read safely: ${problem}.`);
  const database = new DatabaseSync(source, { timeout: BUSY_TIMEOUT_MS });
  try {
    // NOTE: SQLite's online backup API, not VACUUM INTO: Deno allows VACUUM INTO (an ATTACH) only
    // to a process with every permission, which the shipped tasks and binaries do not have.
    // `rate: -1` copies every page in one step under one read transaction, so the copy is one
    // consistent snapshot while the server keeps writing.
    await sqliteBackup(database, outPath, { rate: -1 });
  } finally {
    database.close();
  }
}
