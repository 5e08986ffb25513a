import { OFFSITE_JOB } from "../jobs.ts";
import type { Clock } from "../clock.ts";
import type { Config, OffsiteConfig } from "../config.ts";
import type { Services } from "../context.ts";
import type { Logger } from "../log.ts";
import type { ScheduledJob } from "../scheduler.ts";
import { uploadFile } from "./backup_folder.ts";
import type { BackupStatus } from "./backup_status.ts";
import { backupTargets, inBackupWorker, listBackups } from "./backups.ts";
import { ENCRYPTED_SUFFIX } from "./encryption.ts";
import {
  describeStoreError,
  type OffsiteStore,
  openOffsiteStore,
  type StoredObject,
} from "./offsite_store.ts";

/** The first retry after a failed copy; each next one waits twice as long, up to the cap. */
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 30 * 60_000;

/** What follows `<database>-` in the key of a scheduled backup's copy. */
const STAMPED = /^(\d{8}T\d{6}Z)\.db\.age$/;

/** `s3://bucket/key`, as `restore --from` takes it. */
export function objectUrl(location: OffsiteConfig, key: string): string {
  return `s3://${location.bucket}/${key}`;
}

/** The delay before retry number `failures` (1 for the first). */
export function retryDelayMs(failures: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(failures - 1, 20));
}

/** What `OffsiteCopies` works with. */
interface OffsiteDeps {
  config: Config;
  store: OffsiteStore;
  clock: Clock;
  log: Logger;
  status: BackupStatus;
  /** Asks the scheduler to run the off-site job at `at`. */
  wake(at: number): void;
}

/**
 * Keeps the newest local scheduled backup of each database copied, encrypted with age, to
 * `BACKUP_S3_URL`, and the newest `BACKUP_KEEP` there. A pass compares the folder with the store,
 * so a copy missed while the store was down or the process was stopped is made at the next one.
 * A failed pass is retried with a growing delay; the first failure of an episode is logged as an
 * error and its end as one info line. The upload runs beside the scheduler, not in it: a large
 * copy must not hold back webhooks and expiries.
 */
export class OffsiteCopies {
  readonly #deps: OffsiteDeps;
  readonly #location: OffsiteConfig;
  #pass: Promise<void> | null = null;
  #abort = new AbortController();
  /**
   * Bumped when a new backup is written; a pass that started before it leaves work to do. From 1,
   * so the first sweep after a start compares the folder with the store.
   */
  #wanted = 1;
  #done = 0;
  #failures = 0;
  #retryAt: number | null = null;

  constructor(deps: OffsiteDeps) {
    this.#deps = deps;
    this.#location = deps.config.offsite!;
  }

  /** Called when a scheduled backup was written: a pass should copy it. */
  backupWritten(now: number): void {
    this.#wanted++;
    this.#deps.wake(now);
  }

  /** The scheduled job: starts a pass when there is work and none runs. */
  job(): ScheduledJob {
    return {
      name: OFFSITE_JOB,
      run: (now) => {
        if (this.#pass !== null || this.#done >= this.#wanted) return Promise.resolve(null);
        if (this.#retryAt !== null && now < this.#retryAt) return Promise.resolve(this.#retryAt);
        const wanted = this.#wanted;
        this.#pass = this.#run(wanted).finally(() => this.#pass = null);
        return Promise.resolve(null);
      },
    };
  }

  /** Resolves once no pass is running (tests; shutdown). */
  async settled(): Promise<void> {
    while (this.#pass !== null) await this.#pass;
  }

  /** Aborts an upload in progress; the next start copies it again. */
  async stop(): Promise<void> {
    this.#abort.abort();
    await this.settled();
  }

  async #run(wanted: number): Promise<void> {
    const { clock, log, status } = this.#deps;
    try {
      await this.#copyAll();
      this.#done = Math.max(this.#done, wanted);
      if (this.#failures > 0) {
        log.info("off-site backups work again", {
          failedAttempts: this.#failures,
          failingSince: new Date(status.offsiteFailure?.since ?? clock.now()).toISOString(),
        });
      }
      this.#failures = 0;
      this.#retryAt = null;
      status.offsiteFailure = null;
      if (this.#done < this.#wanted) this.#deps.wake(clock.now());
    } catch (error) {
      if (this.#abort.signal.aborted) return;
      const now = clock.now();
      const message = describeStoreError(error);
      this.#failures++;
      this.#retryAt = now + retryDelayMs(this.#failures);
      status.offsiteFailure = {
        at: now,
        since: status.offsiteFailure?.since ?? now,
        message,
      };
      // NOTE: one error line per episode; the retries of a store that stays down say nothing more.
      if (this.#failures === 1) {
        log.error("off-site backup failed", {
          destination: objectUrl(this.#location, this.#location.prefix),
          error: message,
          retryAt: new Date(this.#retryAt).toISOString(),
        });
      }
      this.#deps.wake(this.#retryAt);
    }
  }

  /** Copies the newest local backup of each database if the store lacks it, then prunes. */
  async #copyAll(): Promise<void> {
    const { config, store } = this.#deps;
    for (const target of backupTargets(config)) {
      const [latest] = await listBackups(config.backupDir, target.prefix).catch(() => []);
      if (!latest) continue;
      const prefix = `${this.#location.prefix}${target.prefix}-`;
      const remote = (await store.list(prefix)).filter((object) =>
        STAMPED.test(object.key.slice(prefix.length))
      );
      const key = `${this.#location.prefix}${latest.name}${ENCRYPTED_SUFFIX}`;
      let copy = remote.find((object) => object.key === key);
      if (!copy) {
        copy = await this.#upload(latest.name, key);
        remote.push(copy);
        this.#deps.log.info("off-site backup uploaded", {
          database: target.kind,
          object: objectUrl(this.#location, key),
          sizeBytes: copy.sizeBytes,
        });
      }
      // After a restart the store's newest copy is the last one /metrics reports.
      const previous = this.#deps.status.offsite.get(target.kind);
      if (!previous || !previous.url.endsWith(`/${key}`)) {
        this.#deps.status.offsiteCopied(target.kind, {
          at: copy.modifiedAt,
          sizeBytes: copy.sizeBytes,
          url: objectUrl(this.#location, key),
        });
      }
      await this.#prune(remote, prefix.length);
    }
  }

  /**
   * Encrypts `name` into a file beside it (in the worker), uploads that, and removes it. The file
   * is locked while it exists, so a sweep of the folder leaves it alone (backup_folder.ts).
   */
  async #upload(name: string, key: string): Promise<StoredObject> {
    const dir = this.#deps.config.backupDir;
    const path = `${dir}/${name}`;
    // A name of its own: the other environment may be copying the same accounts backup.
    const encrypted = await uploadFile(dir, name, this.#abort.signal);
    try {
      const answer = await inBackupWorker({
        encrypt: {
          from: path,
          to: encrypted.path,
          passphrase: this.#deps.config.backupPassphrase!,
        },
      });
      if (!answer.ok) throw new Error(`encrypting ${path} failed: ${answer.message}`);
      await this.#deps.store.upload(key, encrypted.path, this.#abort.signal);
      return { key, sizeBytes: answer.sizeBytes, modifiedAt: this.#deps.clock.now() };
    } finally {
      await encrypted.remove();
    }
  }

  /** Deletes all but the newest `BACKUP_KEEP` copies of one database. */
  async #prune(copies: StoredObject[], prefixLength: number): Promise<void> {
    const newestFirst = copies.map((object) => ({ object, stamp: object.key.slice(prefixLength) }))
      .sort((a, b) => b.stamp.localeCompare(a.stamp));
    for (const { object } of newestFirst.slice(this.#deps.config.backupKeep)) {
      await this.#deps.store.remove(object.key);
    }
  }
}

/** The off-site copies of a serving process, when `BACKUP_S3_URL` is set. */
export function offsiteCopies(services: Services): OffsiteCopies | null {
  const { config, clock, log, backups, scheduler } = services;
  if (!config.offsite) return null;
  return new OffsiteCopies({
    config,
    store: openOffsiteStore(config.s3, config.offsite.bucket),
    clock,
    log,
    status: backups,
    wake: (at) => scheduler.wake(OFFSITE_JOB, at),
  });
}
