import type { DatabaseKind } from "./restore.ts";

/** The last scheduled backup of one database. */
interface BackupRecord {
  at: number;
  sizeBytes: number;
  path: string;
}

/** The last failure of a scheduled backup, until a later one succeeds. */
interface BackupFailure {
  at: number;
  kind: DatabaseKind;
  message: string;
}

/** The last encrypted copy of one database in the off-site store. */
export interface OffsiteRecord {
  at: number;
  sizeBytes: number;
  /** `s3://bucket/prefix/name.db.age`: what `restore --from` takes. */
  url: string;
}

/** Off-site copies failing since `since`, until one succeeds. */
interface OffsiteFailure {
  at: number;
  since: number;
  message: string;
}

/** What this process knows of its scheduled backups: read by /metrics and the panel. */
export class BackupStatus {
  readonly last = new Map<DatabaseKind, BackupRecord>();
  failure: BackupFailure | null = null;
  readonly offsite = new Map<DatabaseKind, OffsiteRecord>();
  offsiteFailure: OffsiteFailure | null = null;

  /** Notes a written and checked backup; it clears an earlier failure of the same database. */
  succeeded(kind: DatabaseKind, record: BackupRecord): void {
    this.last.set(kind, record);
    if (this.failure?.kind === kind) this.failure = null;
  }

  /** Notes a failed backup. */
  failed(failure: BackupFailure): void {
    this.failure = failure;
  }

  /** Notes an encrypted copy found or written off-site. */
  offsiteCopied(kind: DatabaseKind, record: OffsiteRecord): void {
    this.offsite.set(kind, record);
  }
}
