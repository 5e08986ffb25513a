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

/** What this process knows of its scheduled backups: read by /metrics and the panel. */
export class BackupStatus {
  readonly last = new Map<DatabaseKind, BackupRecord>();
  failure: BackupFailure | null = null;

  /** Notes a written and checked backup; it clears an earlier failure of the same database. */
  succeeded(kind: DatabaseKind, record: BackupRecord): void {
    this.last.set(kind, record);
    if (this.failure?.kind === kind) this.failure = null;
  }

  /** Notes a failed backup. */
  failed(failure: BackupFailure): void {
    this.failure = failure;
  }
}
