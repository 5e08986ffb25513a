import { databaseFilePath, type Store } from "../../db/client.ts";
import { appliedMigrationNames } from "../../db/inspect.ts";
import type { Migration } from "../../db/migrations/mod.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../log.ts";
import { holdFolder, removeLeftovers } from "./backup_folder.ts";
import { writeChecked } from "./backups.ts";
import { OpsError } from "./errors.ts";
import type { DatabaseKind } from "./restore.ts";

/**
 * Before migrations change an existing file database, writes a checked backup of it into
 * `BACKUP_DIR` (`sandbox-before-migration-20261126T080000Z.db`, never pruned), the same way a
 * scheduled backup is written, and logs its path: an upgrade that goes wrong can be undone with
 * `restore`. A backup that fails stops the start before anything is migrated. A new database, one
 * with nothing pending, or a libSQL server (backed up by its own tools) needs none.
 */
export async function backupBeforeMigrating<S>(
  store: Store<S>,
  kind: DatabaseKind,
  migrations: Record<string, Migration>,
  deps: { config: Config; log: Logger; now: number },
): Promise<string | null> {
  const { config, log } = deps;
  const applied = await appliedMigrationNames(store.db);
  // A database a newer Paystead migrated is refused by migrate() itself, before any change.
  if (!applied?.length || applied.some((name) => !(name in migrations))) return null;
  const pending = Object.keys(migrations).filter((name) => !applied.includes(name)).sort();
  if (pending.length === 0 || databaseFilePath(store.url) === null) return null;
  const prefix = `${kind === "accounts" ? "accounts" : config.environment}-before-migration`;
  const dir = config.backupDir;
  try {
    // Written under the folder's lock as a scheduled backup is: a sweep by another process
    // must not take our copy for a leftover, and the leftovers of a start killed while backing
    // up go before this one adds another (with BACKUP_INTERVAL off nothing else sweeps).
    const lock = await holdFolder(dir, true, {
      waiting: () =>
        log.info("waiting for another process's backup in BACKUP_DIR", { backupDir: dir }),
    });
    try {
      await removeLeftovers(dir, log);
      const { path } = await writeChecked({ kind, url: store.url, prefix }, dir, deps.now);
      log.info("backed up before migrating", { database: kind, path, migrations: pending });
      return path;
    } finally {
      lock.close();
    }
  } catch (error) {
    throw new OpsError(
      `Cannot back up the ${kind} database before applying migrations ${pending.join(", ")}: ${
        (error as Error).message
      }. Nothing was migrated; make BACKUP_DIR (${config.backupDir}) a writable folder and start again.`,
    );
  }
}
