import { errorFields, type Logger } from "../log.ts";
import { ENCRYPTED_SUFFIX } from "./encryption.ts";

/**
 * The lock of `BACKUP_DIR` and the temporary files written there. A process killed while it
 * writes a backup or uploads a copy leaves its temporary file behind, as large as the database,
 * and its restart writes another: a crash that repeats would fill the disk. So every writer of a
 * temporary file holds a lock for as long as the file exists, and a sweep, holding the folder's
 * lock exclusively, removes the files no live process holds:
 * - a copy being written (`.partial`) is written under the folder's exclusive lock (a scheduled
 *   backup, a backup before migrating), so while a sweep holds that lock none is being written;
 * - an encrypted copy being uploaded (minutes, beside the scheduler) holds a lock (flock) on its
 *   own file and the folder's lock only while it makes and locks the file; a sweep tries the
 *   file's lock without waiting and leaves the file to its writer when it is held.
 * The OS drops these locks when a process dies, even by kill -9. flock and SQLite's fcntl locks
 * do not conflict on Linux. Closing any descriptor of a file drops this process's fcntl locks on
 * it, so a sweep never opens a `.partial`; a flock held through another descriptor stays.
 */

const LOCK_FILE = ".paystead-backup.lock";
/** How often a writer that waits for the folder's lock tries again. */
const WAIT_STEP_MS = 100;

/** A backup being written and SQLite's files beside it: `sandbox-20261121T100000Z.db.partial`. */
const PARTIAL = /^.+-\d{8}T\d{6}Z\.db\.partial(-wal|-shm|-journal)?$/;
/** A backup being encrypted or uploaded: `.sandbox-20261121T100000Z.db.5f1c0e9a2b7d4c36.age`. */
const UPLOADING = /^\..+-\d{8}T\d{6}Z\.db\.[0-9a-f]+\.age$/;

async function openLock(dir: string): Promise<Deno.FsFile> {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  return await Deno.open(`${dir}/${LOCK_FILE}`, {
    read: true,
    write: true,
    create: true,
    mode: 0o600,
  });
}

/** Takes the lock of `dir` (made if missing) if no other holder prevents it; else null. */
export async function tryHoldFolder(dir: string, exclusive: boolean): Promise<Deno.FsFile | null> {
  const lock = await openLock(dir);
  try {
    if (await lock.tryLock(exclusive)) return lock;
  } catch (error) {
    lock.close();
    throw error;
  }
  lock.close();
  return null;
}

/**
 * Takes the lock of `dir`, waiting while another process holds it (`waiting` is called once
 * then); throws if `signal` aborts meanwhile. The other holder is a backup being written or a
 * file being made, so the wait ends.
 */
export async function holdFolder(
  dir: string,
  exclusive: boolean,
  options: { signal?: AbortSignal; waiting?: () => void } = {},
): Promise<Deno.FsFile> {
  const lock = await openLock(dir);
  try {
    // NOTE: tried again rather than FsFile.lock(): a blocked lock() cannot be given up on stop.
    for (let attempt = 0; !(await lock.tryLock(exclusive)); attempt++) {
      if (attempt === 0) options.waiting?.();
      options.signal?.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      options.signal?.throwIfAborted();
    }
    return lock;
  } catch (error) {
    lock.close();
    throw error;
  }
}

/** A temporary file in `BACKUP_DIR` that no sweep removes while this process holds it. */
export interface HeldTemporaryFile {
  path: string;
  /** Removes the file, then lets its lock go. */
  remove(): Promise<void>;
}

/** Makes `.<name>.<random>.age` in `dir` for an upload, locked before any sweep can see it. */
export async function uploadFile(
  dir: string,
  name: string,
  signal: AbortSignal,
): Promise<HeldTemporaryFile> {
  // NOTE: made under the folder's lock: a sweep between making the file and locking it would
  // take it for a dead process's.
  const folder = await holdFolder(dir, false, { signal });
  try {
    const path = await Deno.makeTempFile({ dir, prefix: `.${name}.`, suffix: ENCRYPTED_SUFFIX });
    const file = await Deno.open(path, { read: true });
    await file.lock(true);
    return {
      path,
      async remove() {
        try {
          await Deno.remove(path).catch(() => {});
        } finally {
          file.close();
        }
      },
    };
  } finally {
    folder.close();
  }
}

/** Size of the file at `path`, or null if it is already gone. */
async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await Deno.lstat(path)).size;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Removes an upload's file unless its process still holds it; returns its size if removed. */
async function removeUnheld(path: string): Promise<number | null> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  try {
    if (!(await file.tryLock(true))) return null;
    const size = (await file.stat()).size;
    await Deno.remove(path);
    return size;
  } catch (error) {
    // Its writer removed it between our look and our lock.
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  } finally {
    file.close();
  }
}

/**
 * Removes from `dir` the temporary files of backups and uploads that no live process holds, and
 * logs each (path, bytes). The caller holds the folder's lock exclusively. Only our own names are
 * touched: finished backups and anything else in the folder stay. A file that cannot be removed is
 * logged and left; the backup goes on.
 */
export async function removeLeftovers(dir: string, log: Logger): Promise<void> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && (PARTIAL.test(entry.name) || UPLOADING.test(entry.name))) {
        names.push(entry.name);
      }
    }
  } catch (error) {
    log.error("removing backup leftovers failed", { backupDir: dir, ...errorFields(error) });
    return;
  }
  for (const name of names.sort()) {
    const path = `${dir}/${name}`;
    try {
      let sizeBytes: number | null;
      if (PARTIAL.test(name)) {
        sizeBytes = await sizeOf(path);
        if (sizeBytes !== null) await Deno.remove(path);
      } else {
        sizeBytes = await removeUnheld(path);
      }
      if (sizeBytes !== null) log.info("removed a backup leftover", { path, sizeBytes });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue;
      log.error("removing a backup leftover failed", { path, ...errorFields(error) });
    }
  }
}
