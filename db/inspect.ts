import { type Kysely, sql } from "kysely";
import { LocalSqliteConnection } from "./local_sqlite.ts";

/** What a database file holds, read before it is trusted (restore, backups, doctor). */
export interface DatabaseInspection {
  /** `PRAGMA integrity_check`'s answer: `["ok"]` when sound. */
  integrity: string[];
  /** Names in `schema_migrations`; null when the table is missing (not a Paystead database). */
  migrations: string[] | null;
  /** Rows per table, by table name. */
  counts: Record<string, number>;
}

const BUSY_TIMEOUT_MS = 5000;

/** Opens a local SQLite file for a one-off check or maintenance step. */
export function openFile(path: string): LocalSqliteConnection {
  return new LocalSqliteConnection(path, {
    busyTimeoutMs: BUSY_TIMEOUT_MS,
    readOnly: false,
    syncOnCommit: true,
  });
}

async function rows<T>(connection: LocalSqliteConnection, sql: string): Promise<T[]> {
  return (await connection.execute({ sql, args: [] })).rows as T[];
}

/** Checks integrity, lists applied migrations and counts the rows of every table. */
export async function inspectDatabase(
  connection: LocalSqliteConnection,
): Promise<DatabaseInspection> {
  const integrity = (await rows<{ integrity_check: string }>(
    connection,
    "PRAGMA integrity_check(20)",
  )).map((row) => row.integrity_check);
  const tables = (await rows<{ name: string }>(
    connection,
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  )).map((row) => row.name);
  const counts: Record<string, number> = {};
  if (integrity.length === 1 && integrity[0] === "ok") {
    for (const table of tables) {
      const [row] = await rows<{ n: number }>(
        connection,
        `SELECT count(*) AS n FROM "${table.replaceAll('"', '""')}"`,
      );
      counts[table] = Number(row.n);
    }
  }
  const migrations = tables.includes("schema_migrations")
    ? (await rows<{ name: string }>(connection, "SELECT name FROM schema_migrations ORDER BY name"))
      .map((row) => row.name)
    : null;
  return { integrity, migrations, counts };
}

/** One object of a database's schema (a table, index, trigger or view), as sqlite_master has it. */
export interface SchemaObject {
  type: string;
  name: string;
  /** The statement that made it; null for the indexes SQLite makes for a UNIQUE constraint. */
  sql: string | null;
}

/** Every table, index, trigger and view of a database but SQLite's own (`sqlite_*`). */
export async function schemaObjects(connection: LocalSqliteConnection): Promise<SchemaObject[]> {
  return await rows<SchemaObject>(
    connection,
    "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name",
  );
}

/** Moves everything in the WAL into the main file and empties the WAL. */
export function checkpoint(connection: LocalSqliteConnection): void {
  connection.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}

/** The migrations applied to a database reached through a store (a file or a libSQL server). */
export async function appliedMigrationNames<S>(db: Kysely<S>): Promise<string[] | null> {
  const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master
    WHERE type = 'table' AND name = 'schema_migrations'`.execute(db);
  if (tables.rows.length === 0) return null;
  const rows = await sql<{ name: string }>`SELECT name FROM schema_migrations ORDER BY name`
    .execute(db);
  return rows.rows.map((row) => row.name);
}
