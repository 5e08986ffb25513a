import { Gauge, type Registry } from "../prometheus.ts";
import type { BackupStatus } from "./backup_status.ts";

/** Adds the scheduled backups' gauges to `registry`, read from `status` at each scrape. */
export function registerBackupMetrics(registry: Registry, status: BackupStatus): void {
  new Gauge({
    name: "paystead_backup_last_success_timestamp_seconds",
    help: "When the last checked scheduled backup of each database was written (Unix seconds).",
    labelNames: ["database"],
    registers: [registry],
    collect() {
      for (const [kind, record] of status.last) {
        this.set({ database: kind }, Math.floor(record.at / 1000));
      }
    },
  });
  new Gauge({
    name: "paystead_backup_last_size_bytes",
    help: "Size of the last checked scheduled backup of each database.",
    labelNames: ["database"],
    registers: [registry],
    collect() {
      for (const [kind, record] of status.last) this.set({ database: kind }, record.sizeBytes);
    },
  });
  new Gauge({
    name: "paystead_backup_failing",
    help: "1 while the last scheduled backup attempt failed, else 0.",
    registers: [registry],
    collect() {
      this.set(status.failure ? 1 : 0);
    },
  });
  new Gauge({
    name: "paystead_backup_offsite_last_success_timestamp_seconds",
    help: "When the last encrypted off-site copy of each database was uploaded (Unix seconds).",
    labelNames: ["database"],
    registers: [registry],
    collect() {
      for (const [kind, record] of status.offsite) {
        this.set({ database: kind }, Math.floor(record.at / 1000));
      }
    },
  });
  new Gauge({
    name: "paystead_backup_offsite_last_size_bytes",
    help: "Size of the last encrypted off-site copy of each database.",
    labelNames: ["database"],
    registers: [registry],
    collect() {
      for (const [kind, record] of status.offsite) this.set({ database: kind }, record.sizeBytes);
    },
  });
  new Gauge({
    name: "paystead_backup_offsite_failing",
    help: "1 while copying backups off-site fails (it is retried), else 0.",
    registers: [registry],
    collect() {
      this.set(status.offsiteFailure ? 1 : 0);
    },
  });
}
