import { databaseFilePath } from "../../db/client.ts";
import { StorageOpenError } from "../../db/storage_health.ts";
import type { Logger } from "../log.ts";
import { OpsError } from "./errors.ts";
import { removeRestoreLeftovers } from "./restore_staging.ts";

/**
 * Lock files beside each file database (`data/sandbox.db.lock`): every serving process holds a
 * shared OS lock (flock) on them, a restore takes an exclusive one, `restore --verify` a shared one
 * (it stages its copy beside the database too). The OS drops the lock when a process dies, even by
 * kill -9, so a stale file never blocks anything, and whoever holds it exclusively knows that what
 * a restore or verify staged beside the database is a dead process's (`restore_staging.ts`).
 */

/** How long a starting server waits for another one's sweep (it holds the lock a moment). */
const SWEEP_WAIT_MS = 2_000;
const WAIT_STEP_MS = 50;

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

/** How a process holds a database's lock. */
type Hold = "restore" | "verify" | "server";

/**
 * Takes `file`'s lock as `hold` needs it; false if another process prevents it. A server tries it
 * exclusively first: then nobody else uses the database, and it removes what killed restores left
 * before it shares the lock. Converting the lock is not atomic (flock), so a restore can take it
 * in between: the server then refuses as it would have a moment later.
 */
async function take(file: Deno.FsFile, hold: Hold, database: string, log?: Logger) {
  if (hold !== "server") return await file.tryLock(hold === "restore");
  if (await file.tryLock(true)) {
    if (log) await removeRestoreLeftovers(database, log);
    return await file.tryLock(false);
  }
  // Another server starting beside this one holds it exclusively while it sweeps.
  for (let waited = 0; waited < SWEEP_WAIT_MS; waited += WAIT_STEP_MS) {
    if (await file.tryLock(false)) return true;
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
  return false;
}

async function holdAll(
  urls: string[],
  hold: Hold,
  refusal: (lock: string) => string,
  log?: Logger,
) {
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
      let taken;
      try {
        taken = await take(file, hold, database, log);
      } catch (error) {
        file.close();
        throw error;
      }
      if (!taken) {
        file.close();
        throw new LockHeldError(refusal(path));
      }
      held.push(file);
      paths.push(path);
      if (hold === "restore") {
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

/**
 * Holds shared locks for a server on the file databases at `urls`, first removing (and logging)
 * what killed restores left beside a database no other process uses; throws during a restore.
 */
export function holdServerLocks(urls: string[], log: Logger): Promise<HeldLocks> {
  return holdAll(
    urls,
    "server",
    (lock) => `A restore is replacing a database (it holds ${lock}); start the server after it.`,
    log,
  );
}

/** Holds a shared lock on the file database at `url` for `restore --verify`; throws during a restore. */
export function holdVerifyLock(url: string): Promise<HeldLocks> {
  return holdAll(
    [url],
    "verify",
    (lock) => `A restore is replacing this database (it holds ${lock}); verify after it.`,
  );
}

/** Holds an exclusive lock on the file database at `url`; throws while a server uses it. */
export function holdRestoreLock(url: string): Promise<HeldLocks> {
  return holdAll(
    [url],
    "restore",
    (lock) =>
      `A running Paystead server (or restore --verify) uses this database (it holds the lock ${lock}); stop it first (systemctl stop paystead-<env>) and run restore again.`,
  );
}
