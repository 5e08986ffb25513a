import { parseArgs } from "node:util";
import { backupDatabase, databaseFilePath } from "./db/client.ts";
import { findOrganisationBySlug } from "./db/organisations.ts";
import {
  createOrganisation,
  createUser,
  resetUserPassword,
  setOrganisationPlan,
} from "./lib/accounts/organisations.ts";
import { createApiKey } from "./lib/api_keys.ts";
import {
  type Config,
  ConfigError,
  type ConfigFlags,
  type Environment,
  loadConfig,
} from "./lib/config.ts";
import { StorageOpenError } from "./db/storage_health.ts";
import { DEVTOOLS_USAGE } from "./lib/cli/usage.ts";
import { ApiError } from "./lib/errors.ts";
import { restrictFile, restrictUmask } from "./lib/file_modes.ts";
import { type OrgContext, orgContext } from "./lib/context.ts";
import { createLogger } from "./lib/log.ts";
import { OpsError, OpsUsageError } from "./lib/ops/errors.ts";
import { buildServices } from "./lib/services.ts";
import { closeDatabases, openDatabases, serve } from "./server.ts";

const USAGE = `Usage: paystead <command> [options]

Commands:
  serve [--env sandbox|production] [--port N] [--data-dir DIR]
                                    serve one environment (API, panel, checkout)
  migrate                           apply database migrations and exit
  org create --slug S --name N --plan FREE|BASIC|PRO|ENTERPRISE
  org set-plan --slug S --plan P
  user create --org S --email E --role OWNER|ADMIN|MEMBER [--name N]
                                    prints a one-time password
  user reset-password --org S --email E
                                    prints a new one-time password (ends the user's sessions)
  key create --org S [--env E] [--name N]
                                    prints the key's secret, once
  backup --out FILE [--database environment|accounts]
                                    consistent copy while the server runs
  restore --from FILE [--database environment|accounts] [--verify]
                                    replace a database by a checked backup (server stopped)
  healthcheck [--url U] [--wait SECONDS]
                                    exit 0 when /readyz answers ready, else 1
  doctor                            check configuration, databases, disk, URL and provider
  version                           print the version
  config export --org S [--out FILE]
                                    offers, webhook endpoints and checkout settings as JSON
  config import --org S --file FILE [--dry-run] [--allow-other-org] [--skip-refused]
                                    apply an exported file; safe to run twice
  fake-payu [--port N] [--notify-delay D] ...
                                    a fake PayU for trying production locally (--help)
  fake-p24 [--port N] [--notify-delay D] ...
                                    a fake Przelewy24, likewise (--help)
${DEVTOOLS_USAGE}

Every command takes --env and --data-dir; settings come from environment variables
(PAYSTEAD_ENV, PORT, DATA_DIR, DATABASE_URL, ACCOUNTS_DATABASE_URL, PUBLIC_URL, ...).`;

/** A mistake in how the command was called; printed with the usage. */
class UsageError extends Error {}

const OPTIONS = {
  env: { type: "string" },
  port: { type: "string" },
  "data-dir": { type: "string" },
  slug: { type: "string" },
  name: { type: "string" },
  plan: { type: "string" },
  org: { type: "string" },
  email: { type: "string" },
  role: { type: "string" },
  out: { type: "string" },
  database: { type: "string" },
  "forward-to": { type: "string" },
  events: { type: "string" },
  "api-key": { type: "string" },
  host: { type: "string" },
  headers: { type: "string", multiple: true },
  endpoint: { type: "string" },
  help: { type: "boolean", short: "h" },
  from: { type: "string" },
  verify: { type: "boolean" },
  url: { type: "string" },
  wait: { type: "string" },
  file: { type: "string" },
  "dry-run": { type: "boolean" },
  "allow-other-org": { type: "boolean" },
  "skip-refused": { type: "boolean" },
} as const;

type Options = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>["values"];

function required(options: Options, name: keyof Options): string {
  const value = options[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required.`);
  return value;
}

async function withDatabases<T>(
  config: Config,
  work: (databases: Awaited<ReturnType<typeof openDatabases>>) => Promise<T>,
): Promise<T> {
  const databases = await openDatabases(config);
  try {
    return await work(databases);
  } finally {
    await closeDatabases(databases);
  }
}

/** An organisation lives in databases that exist: a mistyped DATA_DIR must not get fresh ones. */
async function requireDatabaseFiles(config: Config): Promise<void> {
  for (const url of [config.accountsDatabaseUrl, config.databaseUrl]) {
    const path = databaseFilePath(url);
    if (path === null) continue;
    try {
      await Deno.stat(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      throw new ConfigError(
        `There is no database at ${path}. Check DATA_DIR (now ${config.dataDir}); run migrate to start a new one there.`,
      );
    }
  }
}

/** Runs `work` as organisation `slug` on this environment's services (its rules, its DNS). */
async function withOrganisation<T>(
  config: Config,
  slug: string,
  work: (ctx: OrgContext) => Promise<T>,
): Promise<T> {
  await requireDatabaseFiles(config);
  return await withDatabases(config, async (databases) => {
    const org = await findOrganisationBySlug(databases.accounts.db, slug);
    if (!org) throw new ApiError("resource_not_found", `No organisation with slug '${slug}'.`);
    // The services alone: a command must not deliver webhooks from the server's queue.
    const { services } = buildServices({ ...databases, config, log: createLogger("error") });
    try {
      return await work(orgContext(services, org.id));
    } finally {
      await services.scheduler.stop();
    }
  });
}

async function configExport(options: Options, config: Config): Promise<number> {
  const slug = required(options, "org");
  const { exportConfig } = await import("./lib/config_transfer/export.ts");
  const { serializeConfig } = await import("./lib/config_transfer/format.ts");
  const text = await withOrganisation(
    config,
    slug,
    async (ctx) => await serializeConfig(await exportConfig(ctx, slug)),
  );
  if (options.out === undefined) {
    console.log(text.trimEnd());
    return 0;
  }
  // Never over an existing file, and readable by the owner only: it names every endpoint.
  await Deno.writeTextFile(options.out, text, { createNew: true, mode: 0o600 }).catch((error) => {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new ApiError(
        "parameter_invalid",
        `${options.out} already exists; choose a new file name.`,
      );
    }
    throw error;
  });
  console.log(`Wrote the configuration of '${slug}' in ${config.environment} to ${options.out}.`);
  return 0;
}

async function configImport(options: Options, config: Config): Promise<number> {
  const slug = required(options, "org");
  const path = required(options, "file");
  const { MAX_CONFIG_BYTES, parseConfig } = await import("./lib/config_transfer/format.ts");
  const { applyImport, planImport } = await import("./lib/config_transfer/import.ts");
  const { describePlan, describeResult } = await import("./lib/config_transfer/describe.ts");
  const size = (await Deno.stat(path).catch(() => null))?.size;
  if (size === undefined) throw new ApiError("parameter_invalid", `${path} cannot be read.`);
  if (size > MAX_CONFIG_BYTES) {
    throw new ApiError("config_file_invalid", `${path} is larger than any configuration file.`);
  }
  const file = await parseConfig(await Deno.readTextFile(path));
  const importOptions = { orgSlug: slug, allowOtherOrg: options["allow-other-org"] === true };
  return await withOrganisation(config, slug, async (ctx) => {
    const plan = await planImport(ctx, file, importOptions);
    console.log(describePlan(plan, { org: slug, environment: config.environment }));
    if (options["dry-run"]) {
      console.log("Dry run: nothing was written.");
      return 0;
    }
    const refused = plan.items.filter((item) => item.refusal !== null).length;
    if (refused > 0 && !options["skip-refused"]) {
      throw new ApiError(
        "parameter_invalid",
        `${refused} of the changes would be refused in ${config.environment} (marked REFUSED above); nothing was written. Fix them in the file, or pass --skip-refused to import the rest.`,
      );
    }
    console.log(describeResult(await applyImport(ctx, file, importOptions)));
    return 0;
  });
}

async function run(words: string[], options: Options, config: Config): Promise<number> {
  const command = words.join(" ");
  // NOTE: the other commands' own modules are imported when they run: the start task loads a
  // dynamic import's modules only then, so a server neither resolves nor holds them (issue 34).
  if (command === "serve") return await serve(config);
  const { runDevtool } = await import("./lib/cli/mod.ts");
  const devtool = await runDevtool(words, options, config);
  if (devtool !== null) return devtool;
  const now = Date.now();
  switch (command) {
    case "migrate":
      await withDatabases(config, () => Promise.resolve());
      console.log(`Migrated ${config.accountsDatabaseUrl} and ${config.databaseUrl}.`);
      return 0;
    case "org create": {
      const org = await withDatabases(config, ({ accounts }) =>
        createOrganisation(accounts, {
          slug: required(options, "slug"),
          name: required(options, "name"),
          plan: required(options, "plan"),
        }, now));
      console.log(`Created organisation '${org.slug}' (${org.name}) on plan ${org.plan}.`);
      return 0;
    }
    case "org set-plan": {
      const org = await withDatabases(
        config,
        ({ accounts }) =>
          setOrganisationPlan(accounts, required(options, "slug"), required(options, "plan"), now),
      );
      console.log(`Organisation '${org.slug}' is now on plan ${org.plan}.`);
      return 0;
    }
    case "user create": {
      const created = await withDatabases(config, ({ accounts }) =>
        createUser(accounts, {
          orgSlug: required(options, "org"),
          email: required(options, "email"),
          role: required(options, "role"),
          name: options.name,
        }, now));
      console.log(`Created ${created.role} ${created.user.email} in '${options.org}'.`);
      console.log(
        `One-time password (choose a new one at first sign-in): ${created.oneTimePassword}`,
      );
      return 0;
    }
    case "user reset-password": {
      const reset = await withDatabases(config, ({ accounts }) =>
        resetUserPassword(accounts, {
          orgSlug: required(options, "org"),
          email: required(options, "email"),
        }, now));
      console.log(`Reset the password of ${reset.role} ${reset.email} in '${options.org}'.`);
      console.log(
        `One-time password (choose a new one at first sign-in): ${reset.oneTimePassword}`,
      );
      return 0;
    }
    case "key create": {
      const slug = required(options, "org");
      const key = await withDatabases(config, async ({ accounts, store }) => {
        const org = await findOrganisationBySlug(accounts.db, slug);
        if (!org) throw new ApiError("resource_not_found", `No organisation with slug '${slug}'.`);
        return createApiKey(store, {
          orgId: org.id,
          name: options.name ?? "CLI key",
          environment: config.environment,
          now,
        });
      });
      console.log(`Created ${config.environment} API key ${key.record.public_id} for '${slug}'.`);
      console.log(`Secret (shown once, store it now): ${key.secret}`);
      return 0;
    }
    case "backup": {
      const out = required(options, "out");
      const database = options.database ?? "environment";
      if (database !== "environment" && database !== "accounts") {
        throw new UsageError("--database must be environment or accounts.");
      }
      const url = database === "accounts" ? config.accountsDatabaseUrl : config.databaseUrl;
      try {
        await backupDatabase(url, out);
      } catch (error) {
        // What an operator got wrong (no database there, the file exists, no permission): one line.
        throw new OpsError(`The backup failed: ${(error as Error).message}`);
      }
      await restrictFile(out);
      console.log(`Wrote a consistent copy of ${url} to ${out}.`);
      return 0;
    }
    case "restore":
    case "healthcheck":
    case "doctor":
    case "version":
      return await (await import("./lib/ops/commands.ts")).runOpsCommand(command, options, config);
    case "config export":
      return await configExport(options, config);
    case "config import":
      return await configImport(options, config);
    default:
      throw new UsageError(command === "" ? "No command given." : `Unknown command '${command}'.`);
  }
}

/**
 * Runs a fake acquirer's command (fakes/cli.ts). Its URL is built at run time so that
 * `deno compile` embeds none of fakes/ in the binaries: test tools, not Paystead.
 */
async function runFake(args: string[]): Promise<number> {
  const fakes = new URL("./fakes/cli.ts", import.meta.url);
  const { runFakeCommand } = await import(fakes.href);
  return await runFakeCommand(args[0], args.slice(1));
}

/**
 * Runs the CLI with `args`; returns the exit code. A compiled binary passes the environment it
 * was built for, and refuses to be pointed at the other one.
 */
export async function main(
  args: string[],
  built: { environment?: Environment } = {},
): Promise<number> {
  restrictUmask();
  // The fakes are not Paystead: they take their own flags and need no configuration.
  if (args[0]?.startsWith("fake-") && !built.environment) return await runFake(args);
  let parsed;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // One line and where to look: the whole usage would bury the mistake.
    const { message } = error as Error;
    const first = /^Unknown option '[^']*'\./.exec(message)?.[0] ?? message.split("\n")[0];
    console.error(`${first} Run with --help for the commands and options.`);
    return 2;
  }
  const { values: options, positionals } = parsed;
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  try {
    const asked = options.env ?? Deno.env.get("PAYSTEAD_ENV");
    if (built.environment && asked && asked !== built.environment) {
      throw new ConfigError(
        `This binary serves the ${built.environment} environment, but ${
          options.env ? "--env" : "PAYSTEAD_ENV"
        } asks for '${asked}'; run paystead-${asked} for that.`,
      );
    }
    const flags: ConfigFlags = {
      env: built.environment ?? options.env,
      port: options.port,
      dataDir: options["data-dir"],
    };
    const config = loadConfig(Deno.env.toObject(), flags);
    return await run(positionals, options, config);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    if (error instanceof UsageError || error instanceof OpsUsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof StorageOpenError) {
      console.error(error.message);
      return 1;
    }
    if (error instanceof ApiError || error instanceof OpsError) {
      console.error(`Error: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
