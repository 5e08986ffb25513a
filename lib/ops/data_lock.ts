import { databaseFilePath } from "../../db/client.ts";
import { StorageOpenError } from "../../db/storage_health.ts";
import { OpsError } from "./errors.ts";

/**
 * Lock files beside each file database (`data/sandbox.db.lock`): every serving process holds a
 * shared OS lock (flock) on them, a restore takes an exclusive one. The OS drops the lock when a
 * process dies, even by kill -9, so a stale file never blocks anything.
 */

/** The lock file of the database at `path`. */
function lockFileOf(path: string): string {
  return `${path}.lock`;
}

/** Raised when a lock is held by another process; the message says which and what to do. */
class LockHeldError extends OpsError {}

/** Locks held by this process; `release()` gives them back. */
interface HeldLocks {
  paths: string[];
  release(): void;
}

async function openLockFile(path: string): Promise<Deno.FsFile> {
  const slash = path.lastIndexOf("/");
  // A first start (or a restore into a lost folder) makes the folder, private to its owner.
  if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true, mode: 0o700 });
  return await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
}

async function holdAll(urls: string[], exclusive: boolean, refusal: (lock: string) => string) {
  const held: Deno.FsFile[] = [];
  const paths: string[] = [];
  const release = () => {
    for (const file of held) file.close();
    held.length = 0;
  };
  try {
    for (const url of urls) {
      const database = databaseFilePath(url);
      if (database === null) continue;
      const path = lockFileOf(database);
      // A data folder that cannot be made (under a file, no permission) is one line, as when
      // the database itself is opened.
      const file = await openLockFile(path).catch((error) => {
        throw new StorageOpenError(database, error);
      });
      if (!(await file.tryLock(exclusive))) {
        file.close();
        throw new LockHeldError(refusal(path));
      }
      held.push(file);
      paths.push(path);
      if (exclusive) {
        await file.truncate(0);
        await file.write(new TextEncoder().encode(`${Deno.pid} restore\n`));
      }
    }
  } catch (error) {
    release();
    throw error;
  }
  return { paths, release };
}

/** Holds shared locks for a server on the file databases at `urls`; throws during a restore. */
export function holdServerLocks(urls: string[]): Promise<HeldLocks> {
  return holdAll(
    urls,
    false,
    (lock) => `A restore is replacing a database (it holds ${lock}); start the server after it.`,
  );
}

/** Holds an exclusive lock on the file database at `url`; throws while a server uses it. */
export function holdRestoreLock(url: string): Promise<HeldLocks> {
  return holdAll(
    [url],
    true,
    (lock) =>
      `A running Paystead server uses this database (it holds the lock ${lock}); stop it first (systemctl stop paystead-<env>) and run restore again.`,
  );
}
