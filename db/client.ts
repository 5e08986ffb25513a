import { type Client, createClient, LibsqlError } from "@libsql/client";
import { Kysely, sql } from "kysely";
import { GroupCommitWriter, type WriteBatch } from "./group_commit.ts";
import { LibsqlDialect } from "./libsql_dialect.ts";
import type { Migration } from "./migrations/mod.ts";

/** One database: a read handle, group-committed write transactions, and lifecycle. */
export interface Store<S> {
  /** The URL it was opened with (`file:...`, `http://...`, `libsql://...`). */
  readonly url: string;
  /** For reads. On a file database its connection is read-only, so a stray write fails loudly. */
  readonly db: Kysely<S>;
  /** Runs `work` in a write transaction; resolves after the commit. */
  write<T>(work: (trx: Kysely<S>) => Promise<T>): Promise<T>;
  /** Calls `listener` after every committed write transaction. */
  onCommit(listener: () => void): () => void;
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

async function ensureParentDirectory(url: string): Promise<void> {
  const path = url.slice("file:".length);
  const slash = path.lastIndexOf("/");
  if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true });
}

function isBusy(error: unknown): boolean {
  return error instanceof LibsqlError && /BUSY|LOCKED/.test(`${error.code} ${error.rawCode ?? ""}`);
}

/** Opens a write transaction, retrying while another process holds the write lock. */
async function beginWrite(client: Client): Promise<WriteBatch> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let delay = 5;; delay = Math.min(delay * 2, 200)) {
    const transaction = await client.transaction("write").catch((error) => {
      if (!isBusy(error) || Date.now() > deadline) throw error;
      return null;
    });
    if (transaction) {
      return {
        executor: transaction,
        commit: () => transaction.commit(),
        rollback: () => transaction.rollback(),
      };
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/**
 * Opens a database by URL. libSQL connections come with foreign keys on and full sync; a file
 * database is switched to WAL and gets a busy timeout.
 */
export async function openStore<S>(url: string): Promise<Store<S>> {
  let reader: Client;
  let writer: Client;
  if (isFileUrl(url)) {
    await ensureParentDirectory(url);
    // One connection writes (group commit makes one enough); a second, read-only one reads, so
    // reads never wait for a write transaction and never see one half-done.
    writer = createClient({ url, concurrency: 1, timeout: BUSY_TIMEOUT_MS });
    await writer.execute("PRAGMA journal_mode = WAL");
    reader = createClient({ url, concurrency: 1, timeout: BUSY_TIMEOUT_MS });
    await reader.execute("PRAGMA query_only = ON");
  } else {
    writer = reader = createClient({ url });
  }

  const writeQueue = new GroupCommitWriter<S>(() => beginWrite(writer));
  const db = new Kysely<S>({ dialect: new LibsqlDialect(() => reader) });

  return {
    url,
    db,
    write: (work) => writeQueue.write(work),
    onCommit: (listener) => writeQueue.onCommit(listener),
    ping: async () => {
      await reader.execute("SELECT 1");
    },
    close: async () => {
      await writeQueue.idle();
      reader.close();
      writer.close();
    },
  };
}

/** Applies the migrations not yet applied, each in its own transaction, in key order. */
export async function migrate<S>(
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
  const client = createClient({ url, concurrency: 1, timeout: BUSY_TIMEOUT_MS });
  try {
    // VACUUM INTO reads one snapshot, so the copy is consistent while the server keeps writing.
    await client.execute({ sql: "VACUUM INTO ?", args: [outPath] });
  } finally {
    client.close();
  }
}
