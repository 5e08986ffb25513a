import { databaseFilePath, migrate, openStore } from "../../db/client.ts";
import {
  checkpoint,
  type DatabaseInspection,
  inspectDatabase,
  openFile,
} from "../../db/inspect.ts";
import {
  accountsMigrations,
  environmentMigrations,
  type Migration,
} from "../../db/migrations/mod.ts";
import type { Config } from "../config.ts";
import { holdRestoreLock } from "./data_lock.ts";
import { syncFile, syncFolder } from "./durable_files.ts";
import { OpsError } from "./errors.ts";
import { schemaDifferences } from "./schema_check.ts";

/** Which of a process's two databases a backup is of. */
export type DatabaseKind = "environment" | "accounts";

/** What a restore (or a `--verify` run) found and did. */
interface RestoreReport {
  kind: DatabaseKind;
  /** The file database that is (or would be) replaced. */
  target: string;
  /** Migrations the backup lacked and that were applied to it. */
  migrated: string[];
  /** Rows per table of the restored database. */
  counts: Record<string, number>;
  /** Where the replaced files were kept; empty for `--verify` or when there was nothing. */
  kept: string[];
}

/** A table only each kind of database has: a backup of the other kind is refused. */
const MARKER_TABLE: Record<DatabaseKind, string> = {
  environment: "payments",
  accounts: "organisations",
};

/** `20261123T180102Z`: sortable, and safe in a file name. */
export function fileStamp(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}

function migrationsOf(kind: DatabaseKind): Record<string, Migration> {
  return kind === "accounts" ? accountsMigrations : environmentMigrations;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

async function removeQuietly(path: string): Promise<void> {
  await Deno.remove(path).catch(() => {});
}

function describeInspection(inspection: DatabaseInspection, kind: DatabaseKind, from: string) {
  if (inspection.integrity.length !== 1 || inspection.integrity[0] !== "ok") {
    throw new OpsError(
      `${from} failed PRAGMA integrity_check (${
        inspection.integrity.slice(0, 3).join("; ")
      }); take another backup.`,
    );
  }
  if (inspection.migrations === null) {
    throw new OpsError(`${from} is not a Paystead database (it has no schema_migrations table).`);
  }
  const other: DatabaseKind = kind === "accounts" ? "environment" : "accounts";
  if (!(MARKER_TABLE[kind] in inspection.counts) && MARKER_TABLE[other] in inspection.counts) {
    throw new OpsError(
      `${from} is a backup of the ${other} database; pass --database ${other} to restore it.`,
    );
  }
  const known = migrationsOf(kind);
  const unknown = inspection.migrations.filter((name) => !(name in known));
  if (unknown.length > 0) {
    throw new OpsError(
      `${from} was written by a newer Paystead (migrations ${
        unknown.join(", ")
      }); restore it with that version or newer.`,
    );
  }
}

/** Checks a staged copy, migrates it forward and leaves it as one file with no WAL. */
async function prepare(staged: string, kind: DatabaseKind, from: string) {
  let connection;
  try {
    connection = openFile(staged);
  } catch (error) {
    throw new OpsError(`${from} is not a readable SQLite database (${(error as Error).message}).`);
  }
  let applied: string[];
  try {
    const inspection = await inspectDatabase(connection).catch((error) => {
      throw new OpsError(`${from} is not a readable SQLite database (${error.message}).`);
    });
    describeInspection(inspection, kind, from);
    applied = inspection.migrations!;
  } finally {
    connection.close();
  }
  const differences = await schemaDifferences(staged, migrationsOf(kind), applied);
  if (differences.length > 0) {
    throw new OpsError(
      `${from} does not have the schema Paystead's migrations make: ${
        differences.slice(0, 3).join("; ")
      }${differences.length > 3 ? ` (and ${differences.length - 3} more)` : ""}. ` +
        "Nothing was changed; restore a backup Paystead wrote.",
    );
  }
  const store = await openStore(`file:${staged}`);
  let migrated: string[];
  try {
    migrated = await migrate(store, migrationsOf(kind));
  } finally {
    await store.close();
  }
  connection = openFile(staged);
  try {
    const after = await inspectDatabase(connection);
    checkpoint(connection);
    return { migrated, counts: after.counts };
  } finally {
    connection.close();
  }
}

/** Moves the current database's files aside under one kept name; returns the kept paths. */
async function keepReplaced(target: string, stamp: string): Promise<string[]> {
  if (!(await exists(target))) return [];
  try {
    const connection = openFile(target);
    try {
      checkpoint(connection);
    } finally {
      connection.close();
    }
  } catch {
    // A damaged database is still kept as it is, WAL included, for whoever looks at it later.
  }
  const kept = `${target}.replaced-${stamp}`;
  const paths = [kept];
  // NOTE: a hard link keeps the target in place until the rename swaps in the new file, so a
  // crash at any point leaves either the old or the new database under the target's name.
  await Deno.link(target, kept);
  for (const suffix of ["-wal", "-shm"]) {
    if (await exists(target + suffix)) {
      await Deno.rename(target + suffix, kept + suffix);
      paths.push(kept + suffix);
    }
  }
  return paths;
}

/**
 * Restores `from` over the environment's or the accounts database: refuses while a server holds
 * it, checks integrity, the kind and migration level, migrates an older backup forward, then
 * swaps the files with a rename and keeps the replaced ones beside it. With `verify` it does all
 * the checks on a copy in a temporary folder and changes nothing.
 */
export async function restoreDatabase(
  config: Config,
  options: { from: string; kind: DatabaseKind; verify: boolean; now: number },
): Promise<RestoreReport> {
  const url = options.kind === "accounts" ? config.accountsDatabaseUrl : config.databaseUrl;
  const target = databaseFilePath(url);
  if (target === null) {
    throw new OpsError(
      `restore replaces file databases; ${url} is a libSQL server, so restore it with the server's own tools.`,
    );
  }
  const source = await Deno.stat(options.from).catch(() => null);
  if (!source?.isFile) throw new OpsError(`${options.from} is not a file.`);

  const stamp = fileStamp(options.now);
  const slash = target.lastIndexOf("/");
  const folder = options.verify
    ? await Deno.makeTempDir({ prefix: "paystead-verify-" })
    : slash > 0
    ? target.slice(0, slash)
    : ".";
  const lock = options.verify ? null : await holdRestoreLock(url);
  const staged = `${folder}/${target.slice(slash + 1)}.restoring-${stamp}`;
  try {
    await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
    await Deno.copyFile(options.from, staged);
    await Deno.chmod(staged, 0o600);
    const { migrated, counts } = await prepare(staged, options.kind, options.from);
    if (options.verify) return { kind: options.kind, target, migrated, counts, kept: [] };
    await syncFile(staged);
    const kept = await keepReplaced(target, stamp);
    await Deno.rename(staged, target);
    await syncFolder(folder);
    return { kind: options.kind, target, migrated, counts, kept };
  } finally {
    for (const suffix of ["", "-wal", "-shm"]) await removeQuietly(staged + suffix);
    if (options.verify) await Deno.remove(folder, { recursive: true }).catch(() => {});
    lock?.release();
  }
}

/** The report as the CLI prints it. */
export function formatRestoreReport(report: RestoreReport, verify: boolean): string {
  const lines = [
    verify
      ? `Verified: the backup passes PRAGMA integrity_check and would restore ${report.target}; nothing was changed.`
      : `Restored ${report.target} (the ${report.kind} database); PRAGMA integrity_check: ok.`,
    report.migrated.length > 0
      ? `Migrated forward: ${report.migrated.join(", ")}.`
      : "Migration level: current.",
    "Rows:",
    ...Object.entries(report.counts).map(([table, count]) => `  ${table}: ${count}`),
  ];
  if (report.kept.length > 0) lines.push(`Kept the replaced files: ${report.kept.join(", ")}.`);
  return lines.join("\n");
}
