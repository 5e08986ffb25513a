import { databaseFilePath, databaseName, openStore } from "../../db/client.ts";
import { appliedMigrationNames, inspectDatabase, openFile } from "../../db/inspect.ts";
import { StorageUnavailableError } from "../../db/storage_health.ts";
import { accountsMigrations, environmentMigrations } from "../../db/migrations/mod.ts";
import { type Config, orList, providerDefinition, realProviders } from "../config.ts";
import { providerFromConfig } from "../providers/from_config.ts";
import type { DoctorProblem } from "../providers/mod.ts";
import { listensPubliclyWithoutProxy } from "../exposure.ts";
import { listBackups } from "./backups.ts";
import { diskSpace } from "./disk_space.ts";
import { networkError } from "./healthcheck.ts";
import { checkOffsite } from "./offsite_doctor.ts";

/** One thing wrong, and how to fix it; a note is worth knowing but nothing to fix. */
type Problem = DoctorProblem;

/** What `doctor` needs besides the configuration; tests pass their own. */
interface DoctorDeps {
  now: number;
  fetch?: typeof fetch;
}

const NETWORK_TIMEOUT_MS = 5_000;
const MIN_FREE_BYTES = 1024 ** 3;
const MIN_FREE_SHARE = 0.05;

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

function mode(info: Deno.FileInfo): number {
  return (info.mode ?? 0) & 0o777;
}

/** Who posts to PUBLIC_URL: the configured provider, or the ones production may have. */
function providersOf(config: Config): string {
  return config.paymentProvider
    ? providerDefinition(config.paymentProvider.kind).displayName
    : orList(realProviders().map((provider) => provider.displayName));
}

function checkConfiguration(config: Config): Problem[] {
  const problems: Problem[] = [];
  if (listensPubliclyWithoutProxy(config) && config.environment === "sandbox") {
    // The default of a local sandbox: no money moves, so it is worth knowing, not fixing.
    problems.push({
      what:
        `This sandbox listens on ${config.listenHost}: other machines on your network can reach it.`,
      fix: "Set LISTEN_HOST=127.0.0.1 to keep it to this machine.",
      note: true,
    });
  } else if (listensPubliclyWithoutProxy(config)) {
    problems.push({
      what:
        `Paystead listens on ${config.listenHost} with no proxy in front: slow connections can exhaust it.`,
      fix:
        "Set LISTEN_HOST=127.0.0.1 behind Caddy (docs/deploy/Caddyfile), or name your proxy in TRUSTED_PROXIES.",
    });
  }
  if (config.environment !== "production") return problems;
  const url = new URL(config.publicUrl);
  if (url.protocol !== "https:") {
    problems.push({
      what: `PUBLIC_URL is ${config.publicUrl}: production must be reached over https.`,
      fix: "Set PUBLIC_URL to the https:// address your TLS proxy (Caddy) serves.",
    });
  }
  if (/^(localhost|127\.|\[::1\])/.test(url.host)) {
    problems.push({
      what: `PUBLIC_URL is ${config.publicUrl}: customers and ${
        providersOf(config)
      } cannot reach a loopback address.`,
      fix: "Set PUBLIC_URL to the public host name of this environment.",
    });
  }
  return problems;
}

async function checkDatabase(
  name: string,
  url: string,
  migrations: Record<string, unknown>,
): Promise<Problem[]> {
  const path = databaseFilePath(url);
  let applied: string[] | null;
  if (path !== null) {
    if (!(await exists(path))) {
      return [{
        what: `The ${name} database ${path} does not exist.`,
        fix: "Run `paystead migrate` (or start the server once), or restore it from a backup.",
      }];
    }
    const problems: Problem[] = [];
    const info = await Deno.stat(path);
    if ((mode(info) & 0o077) !== 0) {
      problems.push({
        what: `The ${name} database ${path} is readable by others (mode ${
          mode(info).toString(8)
        }).`,
        fix: `chmod 600 ${path}`,
      });
    }
    try {
      const connection = openFile(path);
      try {
        const inspection = await inspectDatabase(connection);
        if (inspection.integrity.length !== 1 || inspection.integrity[0] !== "ok") {
          problems.push({
            what: `The ${name} database fails PRAGMA integrity_check (${inspection.integrity[0]}).`,
            fix: "Stop the server and restore the latest backup: `paystead restore --from FILE`.",
          });
        }
        applied = inspection.migrations;
      } finally {
        connection.close();
      }
    } catch (error) {
      return [...problems, {
        what: `The ${name} database ${path} cannot be read (${(error as Error).message}).`,
        fix: "Check the file's owner and permissions, or restore it from a backup.",
      }];
    }
    return [...problems, ...checkMigrations(name, applied, migrations)];
  }
  try {
    const store = await openStore(url);
    try {
      applied = await appliedMigrationNames(store.db);
    } finally {
      await store.close();
    }
  } catch (error) {
    return [{
      what: `The ${name} database ${databaseName(url)} does not answer (${
        networkError(error instanceof StorageUnavailableError ? error.cause : error)
      }).`,
      fix: "Check that the libSQL server runs and the URL and its authToken are right.",
    }];
  }
  return checkMigrations(name, applied, migrations);
}

function checkMigrations(
  name: string,
  applied: string[] | null,
  migrations: Record<string, unknown>,
): Problem[] {
  if (applied === null) {
    return [{
      what: `The ${name} database has no schema_migrations table: it is empty or not Paystead's.`,
      fix: "Run `paystead migrate`, or point the URL at the right database.",
    }];
  }
  const unknown = applied.filter((migration) => !(migration in migrations));
  if (unknown.length > 0) {
    return [{
      what: `The ${name} database was migrated by a newer Paystead (${unknown.join(", ")}).`,
      fix: "Run the newer version, or restore the backup taken before the upgrade.",
    }];
  }
  const pending = Object.keys(migrations).filter((migration) => !applied.includes(migration));
  return pending.length === 0 ? [] : [{
    what: `The ${name} database lacks migrations ${pending.join(", ")}.`,
    fix: "Run `paystead migrate` (the server also applies them when it starts).",
  }];
}

async function checkDataFolder(config: Config): Promise<Problem[]> {
  const info = await Deno.stat(config.dataDir).catch(() => null);
  if (!info) {
    return [{
      what: `The data folder ${config.dataDir} does not exist.`,
      fix: `mkdir -m 700 ${config.dataDir} (owned by the user the service runs as).`,
    }];
  }
  const problems: Problem[] = [];
  if ((mode(info) & 0o077) !== 0) {
    problems.push({
      what: `The data folder ${config.dataDir} is open to others (mode ${mode(info).toString(8)}).`,
      fix: `chmod 700 ${config.dataDir}`,
    });
  }
  const space = diskSpace(config.dataDir);
  if (
    space &&
    (space.freeBytes < MIN_FREE_BYTES || space.freeBytes < space.totalBytes * MIN_FREE_SHARE)
  ) {
    problems.push({
      what: `Only ${
        (space.freeBytes / 1024 ** 2).toFixed(0)
      } MiB are free on the disk of ${config.dataDir}.`,
      fix: "Free space or grow the disk: at 0 bytes free the API answers 503 to every write.",
    });
  }
  return problems;
}

async function checkBackups(config: Config, now: number): Promise<Problem[]> {
  if (config.backupIntervalMs === null) return [];
  if (databaseFilePath(config.databaseUrl) === null) {
    return [{
      what:
        "BACKUP_INTERVAL is set but the database is a libSQL server, which Paystead cannot copy.",
      fix: "Unset BACKUP_INTERVAL and use the libSQL server's own backups.",
    }];
  }
  const newest = await listBackups(config.backupDir, config.environment).then(
    (list) => list[0] ?? null,
    () => null,
  );
  if (newest && newest.at + 2 * config.backupIntervalMs >= now) return [];
  return [{
    what: newest
      ? `The newest scheduled backup in ${config.backupDir} is from ${
        new Date(newest.at).toISOString()
      }, more than two intervals ago.`
      : `There is no scheduled backup in ${config.backupDir} yet.`,
    fix:
      "Check the server's log for `scheduled backup failed` (a new server writes its first at start).",
  }];
}

async function checkPublicUrl(config: Config, fetcher: typeof fetch): Promise<Problem[]> {
  try {
    const response = await fetcher(`${config.publicUrl}/healthz`, {
      signal: AbortSignal.timeout(NETWORK_TIMEOUT_MS),
      redirect: "manual",
    });
    const body = await response.json().catch(() => null) as { environment?: string } | null;
    if (response.status === 200 && body?.environment === config.environment) return [];
    return [{
      what: `${config.publicUrl}/healthz answered ${response.status}${
        body?.environment ? ` from the ${body.environment} environment` : ""
      }, not this ${config.environment} server.`,
      fix: "Point the proxy's host for PUBLIC_URL at this process's port, or fix PUBLIC_URL.",
    }];
  } catch (error) {
    return [{
      what: `${config.publicUrl}/healthz does not answer (${networkError(error)}).`,
      fix: "Start the server, and check DNS and the TLS proxy for PUBLIC_URL's host.",
    }];
  }
}

/**
 * The configured provider's own checks (lib/providers/<name>/), run on the adapter `serve`
 * would build, with doctor's `fetch`; production without a real provider is one problem.
 */
async function checkProvider(config: Config, deps: DoctorDeps): Promise<Problem[]> {
  if (config.paymentProvider === null) {
    return [{
      what: `Production has no payment provider (PAYMENT_PROVIDER is not ${
        orList(realProviders().map((provider) => provider.name))
      }).`,
      fix: `Set ${realProviders().map((provider) => provider.setup).join(", or ")}.`,
    }];
  }
  const provider = providerFromConfig(config, {
    clock: { now: () => deps.now },
    fetch: deps.fetch,
  });
  return await provider.doctorChecks(config.environment);
}

/** Checks configuration, files, databases, disk, backups, the public URL and the provider. */
export async function runDoctor(config: Config, deps: DoctorDeps): Promise<Problem[]> {
  const fetcher = deps.fetch ?? fetch;
  return [
    ...checkConfiguration(config),
    ...await checkDataFolder(config),
    ...await checkDatabase("accounts", config.accountsDatabaseUrl, accountsMigrations),
    ...await checkDatabase(config.environment, config.databaseUrl, environmentMigrations),
    ...await checkBackups(config, deps.now),
    ...await checkOffsite(config),
    ...await checkPublicUrl(config, fetcher),
    ...await checkProvider(config, deps),
  ];
}

/** Whether any of `problems` is one to fix (not only notes): doctor then exits 1. */
export function hasProblems(problems: Problem[]): boolean {
  return problems.some((problem) => !problem.note);
}

/** One line per problem with its fix, then the notes, then a line saying how many or all is well. */
export function formatProblems(problems: Problem[]): string {
  const toFix = problems.filter((problem) => !problem.note);
  return [
    ...toFix.map((problem) => `${problem.what} Fix: ${problem.fix}`),
    ...problems.filter((problem) => problem.note).map((note) => `Note: ${note.what} ${note.fix}`),
    toFix.length === 0
      ? "No problems found: configuration, data folder, databases, disk, backups, public URL and provider."
      : `${toFix.length} problem${toFix.length === 1 ? "" : "s"} found.`,
  ].join("\n");
}
