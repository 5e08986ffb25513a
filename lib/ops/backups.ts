import { SCHEDULED_BACKUP_JOB } from "../jobs.ts";
import type {
  BackupAnswer,
  BackupRequest,
  EncryptAnswer,
  EncryptRequest,
} from "./backup_worker.ts";
import type { Config } from "../config.ts";
import type { Clock } from "../clock.ts";
import { errorFields, type Logger } from "../log.ts";
import type { ScheduledJob } from "../scheduler.ts";
import { removeLeftovers, tryHoldFolder } from "./backup_folder.ts";
import type { BackupStatus } from "./backup_status.ts";
import { removeDatabaseFiles, syncFile, syncFolder } from "./durable_files.ts";
import { fileStamp } from "./restore.ts";
import type { DatabaseKind } from "./restore.ts";

/** How soon a failed backup is tried again. */
const RETRY_AFTER_FAILURE_MS = 5 * 60_000;
/** How soon a process that found another one backing up looks again. */
const RETRY_WHILE_LOCKED_MS = 60_000;

/** One database a process backs up, and the prefix of its backup files. */
export interface Target {
  kind: DatabaseKind;
  url: string;
  prefix: string;
}

const NAME = /^(.+)-(\d{8}T\d{6}Z)\.db$/;

function stampTime(stamp: string): number {
  const iso = `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 11)}:${
    stamp.slice(11, 13)
  }:${stamp.slice(13, 15)}Z`;
  return Date.parse(iso);
}

/** The backups of `prefix` in `dir`, newest first. */
export async function listBackups(
  dir: string,
  prefix: string,
): Promise<{ name: string; at: number }[]> {
  const found: { name: string; at: number }[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const match = NAME.exec(entry.name);
    if (entry.isFile && match && match[1] === prefix) {
      found.push({ name: entry.name, at: stampTime(match[2]) });
    }
  }
  return found.sort((a, b) => b.at - a.at);
}

/** The databases a process backs up: its environment's and the shared accounts database. */
export function backupTargets(config: Config): Target[] {
  return [
    { kind: "environment", url: config.databaseUrl, prefix: config.environment },
    { kind: "accounts", url: config.accountsDatabaseUrl, prefix: "accounts" },
  ];
}

/** Runs a copy and its check (or an encryption) in a worker, off this process's event loop. */
export function inBackupWorker(request: BackupRequest): Promise<BackupAnswer>;
export function inBackupWorker(request: EncryptRequest): Promise<EncryptAnswer>;
export function inBackupWorker(
  request: BackupRequest | EncryptRequest,
): Promise<BackupAnswer | EncryptAnswer> {
  const worker = new Worker(new URL("./backup_worker.ts", import.meta.url), { type: "module" });
  return new Promise<BackupAnswer | EncryptAnswer>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<BackupAnswer | EncryptAnswer>) => resolve(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      reject(new Error(`the backup worker failed: ${event.message}`));
    };
    worker.postMessage(request);
  }).finally(() => worker.terminate());
}

/**
 * Writes one backup, checks the copy with integrity_check, then names it as finished. The caller
 * holds the folder's lock exclusively (backup_folder.ts): a sweep leaves the `.partial` alone only
 * then.
 */
export async function writeChecked(target: Target, dir: string, now: number) {
  const path = `${dir}/${target.prefix}-${fileStamp(now)}.db`;
  const partial = `${path}.partial`;
  try {
    const answer = await inBackupWorker({ url: target.url, out: partial });
    if (!answer.ok) throw new Error(answer.message);
    if (answer.integrity.length !== 1 || answer.integrity[0] !== "ok") {
      throw new Error(`the copy failed PRAGMA integrity_check: ${answer.integrity[0]}`);
    }
    await Deno.chmod(partial, 0o600);
    await syncFile(partial);
    await Deno.rename(partial, path);
    await syncFolder(dir);
    return { path, sizeBytes: (await Deno.stat(path)).size };
  } finally {
    await removeDatabaseFiles(partial);
  }
}

async function prune(dir: string, prefix: string, keep: number): Promise<void> {
  for (const old of (await listBackups(dir, prefix)).slice(keep)) {
    await Deno.remove(`${dir}/${old.name}`).catch(() => {});
  }
}

/**
 * Backs up this environment's database and the shared accounts database into `BACKUP_DIR`
 * every `BACKUP_INTERVAL`, checks each copy, and keeps the newest `BACKUP_KEEP` of each. When is
 * read from the files themselves, so a restart does not back up again early, and a lock in the
 * folder lets one process at a time work there (two environments share the accounts backups).
 */
export function scheduledBackupJob(
  deps: {
    config: Config;
    clock: Clock;
    log: Logger;
    status: BackupStatus;
    /** Told of each backup written, to copy it off-site. */
    offsite?: { backupWritten(now: number): void } | null;
  },
): ScheduledJob {
  const { config, clock, log, status } = deps;
  const interval = config.backupIntervalMs!;
  const targets = backupTargets(config);
  return {
    name: SCHEDULED_BACKUP_JOB,
    async run(now) {
      const dir = config.backupDir;
      let lock: Deno.FsFile | null;
      try {
        lock = await tryHoldFolder(dir, true);
      } catch (error) {
        log.error("scheduled backup failed", { backupDir: dir, ...errorFields(error) });
        status.failed({ at: now, kind: "environment", message: (error as Error).message });
        return now + RETRY_AFTER_FAILURE_MS;
      }
      // NOTE: another process holds the folder (the other environment or a second instance
      // writing backups, which writes ours too if they are due; a start backing up before
      // migrating; an upload making its file): look again shortly.
      if (lock === null) return now + RETRY_WHILE_LOCKED_MS;
      let next = Number.POSITIVE_INFINITY;
      try {
        // A process killed while writing here left its temporary files: a restart that backs up
        // again at once would otherwise add one more for each crash.
        await removeLeftovers(dir, log);
        for (const target of targets) {
          try {
            const [latest] = await listBackups(dir, target.prefix);
            if (latest && !status.last.has(target.kind)) {
              // After a restart the newest file on disk is the last backup /metrics reports.
              const path = `${dir}/${latest.name}`;
              status.succeeded(target.kind, {
                at: latest.at,
                path,
                sizeBytes: (await Deno.stat(path)).size,
              });
            }
            if (latest && latest.at + interval > now) {
              next = Math.min(next, latest.at + interval);
              continue;
            }
            const written = await writeChecked(target, dir, clock.now());
            status.succeeded(target.kind, { at: clock.now(), ...written });
            await prune(dir, target.prefix, config.backupKeep);
            log.info("scheduled backup written", {
              database: target.kind,
              path: written.path,
              sizeBytes: written.sizeBytes,
            });
            deps.offsite?.backupWritten(clock.now());
            next = Math.min(next, now + interval);
          } catch (error) {
            log.error("scheduled backup failed", { database: target.kind, ...errorFields(error) });
            status.failed({ at: now, kind: target.kind, message: (error as Error).message });
            next = Math.min(next, now + RETRY_AFTER_FAILURE_MS);
          }
        }
      } finally {
        lock.close();
      }
      return next;
    },
  };
}
