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
import type { Logger } from "../log.ts";
import { holdRestoreLock, holdVerifyLock } from "./data_lock.ts";
import { diskSpace } from "./disk_space.ts";
import { syncFile, syncFolder } from "./durable_files.ts";
import { OpsError } from "./errors.ts";
import {
  isDiskFull,
  makeStagedCopy,
  noRoomError,
  removeRestoreLeftovers,
  SCHEMA_SUFFIX,
  type StagedCopy,
} from "./restore_staging.ts";
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
  // Beside the staged copy, not in /tmp: a restore killed here leaves nothing outside the folder.
  const differences = await schemaDifferences(
    staged,
    migrationsOf(kind),
    applied,
    `${staged}${SCHEMA_SUFFIX}`,
  );
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

/** The backup a restore reads: where it comes from, and how its bytes get into the staged copy. */
export interface RestoreSource {
  /** What the operator named (a file, an `s3://` object): the checks' messages name it. */
  from: string;
  /** Its size if known before it is read: a data folder without that much room is refused. */
  sizeBytes: number | null;
  /** Writes the backup into the empty private file `path`. */
  writeTo(path: string): Promise<void>;
}

/** Options of a restore: which database, whether only to verify, the clock. */
interface RestoreOptions {
  kind: DatabaseKind;
  verify: boolean;
  now: number;
}

/** The signals that end a CLI process by default, with the exit code a shell shows for each. */
const INTERRUPTIONS: [Deno.Signal, number][] = [["SIGINT", 130], ["SIGTERM", 143], ["SIGHUP", 129]];

/**
 * Ctrl-C, `kill` or a closed terminal would end the process without running any `finally`: the
 * staged copy is removed, then the process exits as the signal would have ended it. During the swap
 * (two renames) it is not: the restore finishes and exits as it would have.
 */
function removeOnInterrupt(staged: StagedCopy, swapping: () => boolean): () => void {
  const listeners = INTERRUPTIONS.map(([signal, code]) => {
    const listener = () => {
      if (swapping()) return;
      staged.removeSync();
      console.error(`Interrupted (${signal}); removed ${staged.path}. Nothing was changed.`);
      Deno.exit(code);
    };
    Deno.addSignalListener(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
  };
}

/**
 * Restores a backup over the environment's or the accounts database: refuses while a server holds
 * it, removes what killed restores left, stages the backup beside the database (0600), checks
 * integrity, the kind and migration level, migrates an older backup forward, then swaps the files
 * with a rename and keeps the replaced ones beside it. With `verify` it does all the checks on its
 * staged copy, beside a server that may be running, and changes nothing.
 */
export async function restoreFrom(
  config: Config,
  source: RestoreSource,
  options: RestoreOptions,
  log: Logger,
): Promise<RestoreReport> {
  const url = options.kind === "accounts" ? config.accountsDatabaseUrl : config.databaseUrl;
  const target = databaseFilePath(url);
  if (target === null) {
    throw new OpsError(
      `restore replaces file databases; ${url} is a libSQL server, so restore it with the server's own tools.`,
    );
  }
  const stamp = fileStamp(options.now);
  const slash = target.lastIndexOf("/");
  const folder = slash > 0 ? target.slice(0, slash) : ".";
  // Made (0700) with the lock file if the folder was lost.
  const lock = options.verify ? await holdVerifyLock(url) : await holdRestoreLock(url);
  let staged: StagedCopy | null = null;
  let stopListening = () => {};
  let swapping = false;
  try {
    if (!options.verify) await removeRestoreLeftovers(target, log);
    const free = diskSpace(folder)?.freeBytes;
    if (source.sizeBytes !== null && free !== undefined && free < source.sizeBytes) {
      throw noRoomError(folder, source.sizeBytes);
    }
    staged = await makeStagedCopy(target, stamp);
    stopListening = removeOnInterrupt(staged, () => swapping);
    let prepared;
    try {
      await source.writeTo(staged.path);
      prepared = await prepare(staged.path, options.kind, source.from);
    } catch (error) {
      if (isDiskFull(error)) throw noRoomError(folder, source.sizeBytes);
      throw error;
    }
    const { migrated, counts } = prepared;
    if (options.verify) return { kind: options.kind, target, migrated, counts, kept: [] };
    await syncFile(staged.path);
    swapping = true;
    const kept = await keepReplaced(target, stamp);
    await Deno.rename(staged.path, target);
    await syncFolder(folder);
    return { kind: options.kind, target, migrated, counts, kept };
  } finally {
    await staged?.remove();
    stopListening();
    lock.release();
  }
}

/** `restore --from FILE`: restores (or verifies) a backup file as `restoreFrom` does. */
export async function restoreDatabase(
  config: Config,
  options: RestoreOptions & { from: string },
  log: Logger,
): Promise<RestoreReport> {
  const { from } = options;
  const info = await Deno.stat(from).catch(() => null);
  if (!info?.isFile) throw new OpsError(`${from} is not a file.`);
  const source: RestoreSource = {
    from,
    sizeBytes: info.size,
    async writeTo(path) {
      const input = await Deno.open(from, { read: true });
      const output = await Deno.open(path, { write: true });
      await input.readable.pipeTo(output.writable);
    },
  };
  return await restoreFrom(config, source, options, log);
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
