import type { Config } from "../config.ts";
import { createLogger } from "../log.ts";
import { VERSION } from "../version.ts";
import { formatProblems, hasProblems, runDoctor } from "./doctor.ts";
import { OpsUsageError } from "./errors.ts";
import { waitForReadiness } from "./healthcheck.ts";
import { isOffsiteSource, restoreFromOffsite } from "./offsite_restore.ts";
import { type DatabaseKind, formatRestoreReport, restoreDatabase } from "./restore.ts";

/** The options of the CLI that operations commands read. */
interface OpsOptions {
  database?: string;
  from?: string;
  verify?: boolean;
  url?: string;
  wait?: string;
}

function required(options: OpsOptions, name: keyof OpsOptions): string {
  const value = options[name];
  if (typeof value !== "string" || value === "") throw new OpsUsageError(`--${name} is required.`);
  return value;
}

function databaseKind(options: OpsOptions): DatabaseKind {
  const database = options.database ?? "environment";
  if (database !== "environment" && database !== "accounts") {
    throw new OpsUsageError("--database must be environment or accounts.");
  }
  return database;
}

/** The address the local server answers on, for `healthcheck` without `--url`. */
function localUrl(config: Config): string {
  const host = config.listenHost === "0.0.0.0" || config.listenHost === "::"
    ? "127.0.0.1"
    : config.listenHost;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.port}`;
}

/** `localhost:8000` means http://localhost:8000, as curl reads it. */
function withScheme(url: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
}

/** Runs `restore`, `healthcheck`, `doctor` or `version`; returns the exit code. */
export async function runOpsCommand(
  command: string,
  options: OpsOptions,
  config: Config,
): Promise<number> {
  switch (command) {
    case "version":
      console.log(`paystead ${VERSION} (${config.environment})`);
      return 0;
    case "healthcheck": {
      const wait = options.wait ?? "0";
      if (!/^\d+$/.test(wait) || Number(wait) > 600) {
        throw new OpsUsageError("--wait must be a whole number of seconds up to 600.");
      }
      const url = withScheme(options.url ?? localUrl(config)).replace(/\/+$/, "");
      const result = await waitForReadiness(url, Number(wait) * 1000);
      (result.ready ? console.log : console.error)(result.detail);
      return result.ready ? 0 : 1;
    }
    case "doctor": {
      const problems = await runDoctor(config, { now: Date.now() });
      const failing = hasProblems(problems);
      (failing ? console.error : console.log)(formatProblems(problems));
      return failing ? 1 : 0;
    }
    case "restore": {
      const verify = options.verify === true;
      const request = {
        from: required(options, "from"),
        kind: databaseKind(options),
        verify,
        now: Date.now(),
      };
      const offsite = isOffsiteSource(request.from);
      // Its log lines (what killed restores left and it removed) go to stderr as JSON.
      const log = createLogger(config.logLevel);
      const report = offsite
        ? await restoreFromOffsite(config, request, log)
        : await restoreDatabase(config, request, log);
      if (offsite) {
        console.log(`Downloaded ${request.from} and decrypted it with BACKUP_PASSPHRASE.`);
      }
      console.log(formatRestoreReport(report, verify));
      return 0;
    }
    default:
      throw new OpsUsageError(`Unknown command '${command}'.`);
  }
}
