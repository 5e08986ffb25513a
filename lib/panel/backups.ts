import type { Role } from "../plans.ts";
import type { Environment } from "../config.ts";
import type { Services } from "../context.ts";
import type { Language } from "../i18n/mod.ts";
import type { DatabaseKind } from "../ops/restore.ts";

/** The last off-site copy of one database, as the panel shows it. */
interface OffsiteCopyView {
  /** This environment's database, or the accounts database both environments share. */
  database: DatabaseKind;
  at: string;
  sizeBytes: number;
  url: string;
}

/** What an owner's home page shows of the off-site copies. */
export interface OffsiteOverview {
  environment: Environment;
  /** `s3://bucket/prefix/`. */
  destination: string;
  copies: OffsiteCopyView[];
  /** While copies fail: since when, the last try and why. */
  failure: { since: string; at: string; message: string } | null;
}

/**
 * `5.0 MB` (`5,0 MB` in Polish): sizes as people read them (decimal units, as S3's consoles
 * show them).
 */
export function formatSize(bytes: number, language: Language): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ["kB", "MB", "GB", "TB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const number = value.toFixed(1);
  return `${language === "pl" ? number.replace(".", ",") : number} ${units[unit]}`;
}

/** The off-site copies for an owner's home page; null for other roles or without BACKUP_S3_URL. */
export function offsiteOverview(services: Services, role: Role): OffsiteOverview | null {
  const location = services.config.offsite;
  if (role !== "OWNER" || !location || !services.offsite) return null;
  const status = services.backups;
  const copies = (["environment", "accounts"] as const).flatMap((kind) => {
    const record = status.offsite.get(kind);
    return record
      ? [{
        database: kind,
        at: new Date(record.at).toISOString(),
        sizeBytes: record.sizeBytes,
        url: record.url,
      }]
      : [];
  });
  const failure = status.offsiteFailure;
  return {
    environment: services.environment,
    destination: `s3://${location.bucket}/${location.prefix}`,
    copies,
    failure: failure
      ? {
        since: new Date(failure.since).toISOString(),
        at: new Date(failure.at).toISOString(),
        message: failure.message,
      }
      : null,
  };
}
