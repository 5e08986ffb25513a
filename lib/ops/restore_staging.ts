import { errorFields, type Logger } from "../log.ts";
import { removeDatabaseFiles, removeDatabaseFilesSync } from "./durable_files.ts";
import { OpsError } from "./errors.ts";

/**
 * The copy a restore (or `restore --verify`, or `restore --from s3://...` once decrypted) checks
 * and migrates is staged beside the database it replaces, in the data folder (0700): the rename
 * that swaps it in stays in one file system, and a decrypted backup is never written where the
 * data folder's protection does not reach (`/tmp`). A restore killed midway (kill -9, power loss)
 * leaves that copy, as large as the database, with SQLite's files beside it. What proves it dead
 * is the database's lock (`data_lock.ts`): a restore holds it exclusively, a verify shares it, so
 * whoever holds it exclusively knows no staging of that database is alive and removes them all.
 */

/** The fresh database a restore makes beside its copy to compare their schemas. */
export const SCHEMA_SUFFIX = "-schema";

/**
 * `sandbox.db.restoring-20261126T180000Z-5f1c0e9a`, its `-schema` database, and SQLite's files
 * beside each.
 */
const STAGED = /^(.+)\.restoring-\d{8}T\d{6}Z(-[0-9a-f]{8})?(-schema)?(-wal|-shm|-journal)?$/;

/** A staged copy: removed by its restore when it ends, however it ends. */
export interface StagedCopy {
  path: string;
  /** Removes the copy and SQLite's files beside it. */
  remove(): Promise<void>;
  /** The same, at once: for a signal handler that exits the process right after. */
  removeSync(): void;
}

/**
 * Makes the staged copy of the database at `target`, empty and private (0600); the caller holds
 * the database's lock. The random part keeps two verifies of one second apart.
 */
export async function makeStagedCopy(target: string, stamp: string): Promise<StagedCopy> {
  const random = Array.from(
    crypto.getRandomValues(new Uint8Array(4)),
    (byte) => byte.toString(16).padStart(2, "0"),
  ).join("");
  const path = `${target}.restoring-${stamp}-${random}`;
  const file = await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
  file.close();
  return {
    path,
    async remove() {
      for (const file of [path, path + SCHEMA_SUFFIX]) await removeDatabaseFiles(file);
    },
    removeSync() {
      for (const file of [path, path + SCHEMA_SUFFIX]) removeDatabaseFilesSync(file);
    },
  };
}

/** Whether `error` says the file system is full. */
export function isDiskFull(error: unknown): boolean {
  return error instanceof Error && /No space left on device|os error 28|ENOSPC/.test(error.message);
}

/** The error of a staged copy that did not fit: where, and what to do. */
export function noRoomError(folder: string, neededBytes: number | null): OpsError {
  const needed = neededBytes === null ? "" : ` (it needs ${neededBytes} bytes)`;
  return new OpsError(
    `The data folder ${folder} has no room for the restore's copy of the backup${needed}; ` +
      "nothing was changed. Free space there and run restore again.",
  );
}

/**
 * Removes what killed restores of the database at `target` left beside it, and logs each (path,
 * bytes). The caller holds the database's lock exclusively. Only our own names are touched: the
 * database, its `.replaced-` copies and anything else in the folder stay. A file that cannot be
 * removed is logged and left.
 */
export async function removeRestoreLeftovers(target: string, log: Logger): Promise<void> {
  const slash = target.lastIndexOf("/");
  const folder = slash > 0 ? target.slice(0, slash) : ".";
  const base = target.slice(slash + 1);
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(folder)) {
      if (entry.isFile && STAGED.exec(entry.name)?.[1] === base) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return;
    log.error("removing restore leftovers failed", { folder, ...errorFields(error) });
    return;
  }
  for (const name of names.sort()) {
    const path = `${folder}/${name}`;
    try {
      const sizeBytes = (await Deno.lstat(path)).size;
      await Deno.remove(path);
      log.info("removed a restore leftover", { path, sizeBytes });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      log.error("removing a restore leftover failed", { path, ...errorFields(error) });
    }
  }
}
