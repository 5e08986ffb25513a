import { closest, distance } from "fastest-levenshtein";
import { z } from "zod";
import {
  ConfigError,
  type Environment,
  ENVIRONMENTS,
  httpUrl,
  LOG_LEVELS,
  type LogLevel,
  trimSlash,
} from "./config_parts.ts";
import { payu } from "./providers/payu/config.ts";
import { sandbox } from "./providers/sandbox/config.ts";

export {
  ConfigError,
  type Environment,
  ENVIRONMENTS,
  LOG_LEVELS,
  type LogLevel,
} from "./config_parts.ts";

/**
 * The payment providers a process can be configured with (`PAYMENT_PROVIDER`), each a folder
 * under lib/providers/ with its variables and adapter (docs/providers.md). NOTE: a function,
 * not a constant: the adapters import modules that import this one, so the list may be read
 * only once every module is evaluated, never while this one is.
 */
export function providers() {
  return [sandbox, payu] as const;
}
type ProviderDefinitionOf = ReturnType<typeof providers>[number];

/** Everything the process reads from its environment and command line, validated once. */
export interface Config {
  environment: Environment;
  port: number;
  listenHost: string;
  dataDir: string;
  databaseUrl: string;
  accountsDatabaseUrl: string;
  publicUrl: string;
  sandboxPublicUrl: string;
  productionPublicUrl: string;
  quickstartAccess: "plan" | "role";
  webhookRetryScheduleMs: number[];
  rateLimitPerSecond: number;
  /** Requests per second all of an organisation's API keys may make together. */
  rateLimitPerOrgPerSecond: number;
  /** A sandbox reachable beyond this machine may still send webhooks to private addresses. */
  webhookAllowPrivateTargets: boolean;
  /** Addresses of reverse proxies whose X-Forwarded-For names the client. */
  trustedProxies: string[];
  logLevel: LogLevel;
  /** Where scheduled backups go (`BACKUP_DIR`, by default `<data dir>/backups`). */
  backupDir: string;
  /** How often a scheduled backup is taken; null (the default) takes none. */
  backupIntervalMs: number | null;
  /** How many scheduled backups of each database are kept (locally and off-site). */
  backupKeep: number;
  /** Where each scheduled backup is copied, encrypted (`BACKUP_S3_URL`); null for nowhere. */
  offsite: OffsiteConfig | null;
  /** How to reach the S3-compatible store: off-site copies and `restore --from s3://...`. */
  s3: S3Settings;
  /** What off-site copies are encrypted with (age's scrypt passphrase); required with `offsite`. */
  backupPassphrase: string | null;
  /** Webhook deliveries and their attempts finished longer ago than this are deleted. */
  webhookLogRetentionDays: number;
  /**
   * Who takes the money: the simulator (sandbox only) or one of the real `providers()`. Null in a
   * production process without one: commands such as `migrate` still run, `serve` refuses
   * (`requireProvider`).
   */
  paymentProvider: ProviderConfig | null;
  /** Whoever sends `Authorization: Bearer <this>` may read /metrics on the public port. */
  metricsToken: string | null;
  /** Where a second listener serves /metrics alone (loopback by default), or null for none. */
  metricsListen: ListenAddress | null;
  /**
   * The SMTP server customer e-mails go through (`SMTP_URL`); null for none: the sandbox keeps
   * them in its mailbox, production sends none.
   */
  smtp: SmtpConfig | null;
  /** The sender of customer e-mails (`MAIL_FROM`). */
  mailFrom: MailAddress;
  /** The waits before each attempt of a customer e-mail (`EMAIL_RETRY_SCHEDULE`). */
  emailRetryScheduleMs: number[];
  /**
   * How many days before a period ends a renewal is sent by pay link (`RENEWAL_NOTICE_DAYS`),
   * where the provider cannot charge a stored method.
   */
  renewalNoticeDays: number;
}

/** An SMTP server, from `smtp://user:password@host:587` or `smtps://...:465`. */
export interface SmtpConfig {
  host: string;
  port: number;
  /** TLS from the first byte (`smtps://`); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  /** Refuse to send unless STARTTLS succeeds (`?requireTLS=true`). */
  requireTLS: boolean;
  auth: { user: string; pass: string } | null;
}

/** An e-mail address with an optional display name (`Shop <shop@example.pl>`). */
export interface MailAddress {
  name: string | null;
  address: string;
}

/** A host and port to listen on. */
export interface ListenAddress {
  hostname: string;
  port: number;
}

/** A bucket and a key prefix (`""`, or ending in `/`) of an S3-compatible store. */
export interface OffsiteConfig {
  bucket: string;
  prefix: string;
}

/** An S3-compatible store's address and credentials; null ones come from the AWS SDK's defaults. */
export interface S3Settings {
  /** `BACKUP_S3_ENDPOINT`: any S3-compatible store, addressed path-style; null for AWS itself. */
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
}

/** The configured payment provider's settings, as its folder's config.ts makes them. */
export type ProviderConfig = NonNullable<ReturnType<ProviderDefinitionOf["settings"]>>;

/** "a", "a or b", "a, b, or c". */
export function orList(items: readonly string[]): string {
  return new Intl.ListFormat("en", { type: "disjunction" }).format(items);
}

/** Overrides given on the command line (`--env`, `--port`, `--data-dir`). */
export interface ConfigFlags {
  env?: string;
  port?: string;
  dataDir?: string;
}

const DEFAULT_PORTS: Record<Environment, number> = { sandbox: 8787, production: 8788 };
/** Each environment's metrics listener, so both processes of one host can keep the default. */
const DEFAULT_METRICS_PORTS: Record<Environment, number> = {
  sandbox: 9464,
  production: 9465,
};

/** Parses `host:port` (`[::1]:9464` for IPv6); null if it is not one. */
function parseListenAddress(value: string): ListenAddress | null {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(value);
  const port = Number(match?.[3]);
  if (!match || port < 1 || port > 65535) return null;
  return { hostname: match[1] ?? match[2], port };
}

const CONTRACT_RETRY_SCHEDULE = "0,5s,5m,30m,2h,5h,10h,14h,20h,24h";
/** The sandbox retries on a compressed schedule so a developer sees retries within minutes. */
const SANDBOX_RETRY_SCHEDULE = "0,5s,30s,2m,5m,15m,30m,1h,2h,4h";

/**
 * Customer e-mails: a mail server that refuses for a while (greylisting, an outage) is tried
 * for about two days, sooner at first.
 */
const EMAIL_RETRY_SCHEDULE = "0,1m,5m,15m,1h,3h,6h,12h,24h";
const SANDBOX_EMAIL_RETRY_SCHEDULE = "0,5s,30s,2m,5m,15m,1h";

const DURATION_UNITS_MS: Record<string, number> = { "": 1000, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses `"0,5s,5m,2h"` into milliseconds; a bare number means seconds, `ms` milliseconds. */
export function parseDurationList(value: string): number[] | null {
  const parts = value.split(",").map((part) => part.trim());
  const result: number[] = [];
  for (const part of parts) {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(part);
    if (!match) return null;
    const unit = match[2] ?? "";
    const ms = unit === "ms" ? Number(match[1]) : Number(match[1]) * DURATION_UNITS_MS[unit];
    if (!Number.isFinite(ms) || ms > 7 * 24 * 3_600_000) return null;
    result.push(Math.round(ms));
  }
  return result.length > 0 && result.length <= 50 ? result : null;
}

const S3_URL = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;

/** Parses `s3://bucket/key/or/prefix` (bucket names as S3 allows them); null if it is not one. */
export function parseS3Url(value: string): { bucket: string; path: string } | null {
  const match = S3_URL.exec(value);
  return match ? { bucket: match[1], path: match[2] ?? "" } : null;
}

/** Reads `SMTP_URL`; null when it is not one (the message says what is expected). */
export function parseSmtpUrl(value: string): SmtpConfig | null {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return null;
  }
  const secure = parsed.protocol === "smtps:";
  if ((!secure && parsed.protocol !== "smtp:") || parsed.hostname === "") return null;
  if (parsed.pathname !== "" && parsed.pathname !== "/") return null;
  const params = [...parsed.searchParams.keys()];
  if (params.some((name) => name !== "requireTLS")) return null;
  const requireTLS = parsed.searchParams.get("requireTLS");
  if (requireTLS !== null && requireTLS !== "true" && requireTLS !== "false") return null;
  const port = parsed.port === "" ? (secure ? 465 : 587) : Number(parsed.port);
  const user = decodeURIComponent(parsed.username);
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port,
    secure,
    requireTLS: requireTLS === "true",
    auth: user === "" ? null : { user, pass: decodeURIComponent(parsed.password) },
  };
}

const MAIL_ADDRESS = /^[^\s@<>"(),;:]+@[^\s@<>"(),;:]+\.[^\s@<>"(),;:]+$/;

/** Reads `MAIL_FROM` (`Shop <shop@example.pl>` or `shop@example.pl`); null when it is not one. */
export function parseMailAddress(value: string): MailAddress | null {
  const trimmed = value.trim();
  if (MAIL_ADDRESS.test(trimmed)) return { name: null, address: trimmed };
  const match = /^(.*?)\s*<([^<>]+)>$/.exec(trimmed);
  if (!match || !MAIL_ADDRESS.test(match[2])) return null;
  const name = match[1].trim().replace(/^"(.*)"$/, "$1").trim();
  if (/[\r\n<>"]/.test(name)) return null;
  return { name: name === "" ? null : name, address: match[2] };
}

/** Variables whose value is a secret: a bad one is named, never printed. */
const SECRET_VARIABLES: ReadonlySet<string> = new Set([
  "SMTP_URL",
  "AWS_SECRET_ACCESS_KEY",
  "BACKUP_PASSPHRASE",
]);

const databaseUrl = z.string().refine(
  (value) => /^(file:|https?:\/\/|libsql:\/\/|wss?:\/\/)/.test(value),
  "must start with file:, http://, https://, libsql:// or ws(s)://",
);

const port = z.string().regex(/^\d+$/, "must be a whole number between 1 and 65535")
  .transform(Number).refine(
    (value) => value >= 1 && value <= 65535,
    "must be a whole number between 1 and 65535",
  );

const INTERVAL_UNITS_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses one interval such as `30m`, `6h` or `1d` (1 minute to 30 days) into milliseconds. */
function parseInterval(value: string): number | null {
  const match = /^(\d+)(m|h|d)$/.exec(value.trim());
  if (!match) return null;
  const ms = Number(match[1]) * INTERVAL_UNITS_MS[match[2]];
  return ms >= 60_000 && ms <= 30 * 86_400_000 ? ms : null;
}

function wholeNumberIn(min: number, max: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.string().regex(/^\d+$/, message).transform(Number)
    .refine((value) => value >= min && value <= max, message);
}

const EnvSchema = z.object({
  PAYSTEAD_ENV: z.enum(ENVIRONMENTS, "must be sandbox or production").optional(),
  PORT: port.optional(),
  LISTEN_HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1, "must not be empty").optional(),
  DATABASE_URL: databaseUrl.optional(),
  ACCOUNTS_DATABASE_URL: databaseUrl.optional(),
  PUBLIC_URL: httpUrl.optional(),
  SANDBOX_PUBLIC_URL: httpUrl.optional(),
  PRODUCTION_PUBLIC_URL: httpUrl.optional(),
  QUICKSTART_ACCESS: z.enum(["plan", "role"], "must be plan or role").optional(),
  WEBHOOK_RETRY_SCHEDULE: z.string().refine(
    (value) => parseDurationList(value) !== null,
    "must be a comma-separated list of durations such as 0,5s,5m,2h (at most 50, each up to 7 days)",
  ).optional(),
  RATE_LIMIT_PER_SECOND: z.string().regex(/^\d+$/, "must be a positive whole number")
    .transform(Number).refine((value) => value >= 1, "must be a positive whole number")
    .optional(),
  RATE_LIMIT_PER_ORG_PER_SECOND: z.string().regex(/^\d+$/, "must be a positive whole number")
    .transform(Number).refine((value) => value >= 1, "must be a positive whole number")
    .optional(),
  TRUSTED_PROXIES: z.string().refine(
    (value) => value.split(",").every((address) => /^[0-9a-fA-F.:]+$/.test(address.trim())),
    "must be a comma-separated list of IP addresses",
  ).optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, "must be debug, info, warn or error").optional(),
  METRICS_TOKEN: z.string().regex(
    /^[\x21-\x7e]{32,200}$/,
    "must be 32 to 200 printable characters without spaces (e.g. from openssl rand -hex 32)",
  ).optional(),
  METRICS_LISTEN: z.string().refine(
    (value) => value === "off" || parseListenAddress(value) !== null,
    "must be host:port (such as 127.0.0.1:9464) or off",
  ).optional(),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_INTERVAL: z.string().refine(
    (value) => value === "off" || parseInterval(value) !== null,
    "must be off or a duration from 1m to 30d such as 30m, 6h or 1d",
  ).optional(),
  BACKUP_KEEP: wholeNumberIn(1, 1000).optional(),
  BACKUP_S3_URL: z.string().refine(
    (value) => parseS3Url(value) !== null,
    "must be s3://bucket or s3://bucket/prefix",
  ).optional(),
  BACKUP_S3_ENDPOINT: httpUrl.optional(),
  BACKUP_S3_REGION: z.string().regex(/^[a-z0-9-]{1,40}$/, "must be a region such as eu-central-1")
    .optional(),
  AWS_ACCESS_KEY_ID: z.string().regex(/^\S{1,200}$/, "must be an access key id").optional(),
  AWS_SECRET_ACCESS_KEY: z.string().regex(/^\S{1,200}$/, "must be a secret access key")
    .optional(),
  // Never echoed back: describeIssue leaves out the value of SECRET_VARIABLES.
  BACKUP_PASSPHRASE: z.string().min(
    16,
    "must be at least 16 characters (e.g. from openssl rand -base64 24)",
  ).optional(),
  WEBHOOK_LOG_RETENTION_DAYS: wholeNumberIn(1, 3650).optional(),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(["true", "false"], "must be true or false").optional(),
  SMTP_URL: z.string().refine(
    (value) => parseSmtpUrl(value) !== null,
    "must be smtp://user:password@host:587 (STARTTLS; add ?requireTLS=true to insist on it) " +
      "or smtps://user:password@host:465",
  ).optional(),
  MAIL_FROM: z.string().refine(
    (value) => parseMailAddress(value) !== null,
    "must be an address such as Shop <shop@example.pl> or shop@example.pl",
  ).optional(),
  EMAIL_RETRY_SCHEDULE: z.string().refine(
    (value) => parseDurationList(value) !== null,
    "must be a comma-separated list of durations such as 0,1m,5m,1h (at most 50, each up to 7 days)",
  ).optional(),
  RENEWAL_NOTICE_DAYS: wholeNumberIn(1, 30).optional(),
});

/**
 * PAYMENT_PROVIDER and every provider's variables, checked after the others whichever provider
 * is chosen.
 */
function providerVariables() {
  const names = providers().map((provider) => provider.name);
  return z.object({
    // The message is made only for a wrong value: Intl.ListFormat loads ICU's locale data, about
    // 4 MiB a process would hold from every start on (issue 34, idle memory).
    PAYMENT_PROVIDER: z.enum(names, { error: () => `must be ${orList(names)}` }).optional(),
    ...Object.assign({}, ...providers().map((provider) => provider.variables.shape)),
  });
}

/** Every variable of the settings. */
function configVariables(): string[] {
  return [...Object.keys(EnvSchema.shape), ...Object.keys(providerVariables().shape)];
}

/**
 * A variable that is not ours yet a typo away from one of ours (`BACKUP_INTREVAL`): the setting
 * it was meant to be would silently keep its default (no backups), so it stops the start. Up to
 * one edit per five letters of our name and at most two, so PATH or HOME never look like ours.
 */
function misspelledVariable(env: Record<string, string | undefined>): string | null {
  // Every variable Paystead reads: the settings, and the API key the developer tools take.
  const OUR_VARIABLES = [...configVariables(), "PAYSTEAD_API_KEY"];
  for (const name of Object.keys(env).sort()) {
    if (OUR_VARIABLES.includes(name)) continue;
    const meant = closest(name, OUR_VARIABLES);
    if (distance(name, meant) <= Math.min(2, Math.floor(meant.length / 5))) {
      return `Invalid configuration: ${name} is not a Paystead setting; did you mean ${meant}?`;
    }
  }
  return null;
}

function describeIssue(issue: z.core.$ZodIssue, raw: Record<string, string | undefined>): string {
  const name = String(issue.path[0] ?? "configuration");
  const value = raw[name];
  return `Invalid configuration: ${name} ${issue.message}` +
    (value === undefined || SECRET_VARIABLES.has(name) ? "." : ` (got ${JSON.stringify(value)}).`);
}

/** Builds the configuration from environment variables and flags; throws `ConfigError` on a bad value. */
export function loadConfig(
  env: Record<string, string | undefined>,
  flags: ConfigFlags = {},
): Config {
  const misspelled = misspelledVariable(env);
  if (misspelled) throw new ConfigError(misspelled);
  const raw: Record<string, string | undefined> = {};
  for (const name of configVariables()) {
    const value = env[name];
    if (value !== undefined && value !== "") raw[name] = value;
  }
  if (flags.env !== undefined) raw.PAYSTEAD_ENV = flags.env;
  if (flags.port !== undefined) raw.PORT = flags.port;
  if (flags.dataDir !== undefined) raw.DATA_DIR = flags.dataDir;

  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(describeIssue(parsed.error.issues[0], raw));
  const chosen = providerVariables().safeParse(raw);
  if (!chosen.success) throw new ConfigError(describeIssue(chosen.error.issues[0], raw));
  const vars = parsed.data;

  const environment = vars.PAYSTEAD_ENV ?? "sandbox";
  if (environment === "production" && vars.WEBHOOK_ALLOW_PRIVATE_TARGETS === "true") {
    throw new ConfigError(
      "Invalid configuration: WEBHOOK_ALLOW_PRIVATE_TARGETS=true is for a sandbox only; " +
        "production webhooks always go to public https addresses.",
    );
  }
  const portNumber = vars.PORT ?? DEFAULT_PORTS[environment];
  const dataDir = trimSlash(vars.DATA_DIR ?? "./data") || "/";
  const publicUrl = trimSlash(vars.PUBLIC_URL ?? `http://localhost:${portNumber}`);
  const otherDefault = (env: Environment) =>
    env === environment ? publicUrl : `http://localhost:${DEFAULT_PORTS[env]}`;
  const schedule = vars.WEBHOOK_RETRY_SCHEDULE ??
    (environment === "sandbox" ? SANDBOX_RETRY_SCHEDULE : CONTRACT_RETRY_SCHEDULE);
  if (vars.SMTP_URL !== undefined && vars.MAIL_FROM === undefined) {
    throw new ConfigError(
      "Invalid configuration: MAIL_FROM is required with SMTP_URL (the sender customers see, " +
        "such as Shop <shop@example.pl>).",
    );
  }
  const emailSchedule = vars.EMAIL_RETRY_SCHEDULE ??
    (environment === "sandbox" ? SANDBOX_EMAIL_RETRY_SCHEDULE : EMAIL_RETRY_SCHEDULE);

  return {
    environment,
    port: portNumber,
    listenHost: vars.LISTEN_HOST ?? "0.0.0.0",
    dataDir,
    databaseUrl: vars.DATABASE_URL ?? `file:${dataDir}/${environment}.db`,
    accountsDatabaseUrl: vars.ACCOUNTS_DATABASE_URL ?? `file:${dataDir}/accounts.db`,
    publicUrl,
    sandboxPublicUrl: trimSlash(vars.SANDBOX_PUBLIC_URL ?? otherDefault("sandbox")),
    productionPublicUrl: trimSlash(vars.PRODUCTION_PUBLIC_URL ?? otherDefault("production")),
    quickstartAccess: vars.QUICKSTART_ACCESS ?? "role",
    webhookRetryScheduleMs: parseDurationList(schedule)!,
    rateLimitPerSecond: vars.RATE_LIMIT_PER_SECOND ?? 100,
    // Three keys' worth by default: an organisation may split its traffic, not multiply it.
    rateLimitPerOrgPerSecond: vars.RATE_LIMIT_PER_ORG_PER_SECOND ??
      3 * (vars.RATE_LIMIT_PER_SECOND ?? 100),
    webhookAllowPrivateTargets: vars.WEBHOOK_ALLOW_PRIVATE_TARGETS === "true",
    trustedProxies: (vars.TRUSTED_PROXIES ?? "127.0.0.1,::1").split(",").map((a) => a.trim()),
    logLevel: vars.LOG_LEVEL ?? "info",
    metricsToken: vars.METRICS_TOKEN ?? null,
    metricsListen: vars.METRICS_LISTEN === "off" ? null : parseListenAddress(
      vars.METRICS_LISTEN ?? `127.0.0.1:${DEFAULT_METRICS_PORTS[environment]}`,
    ),
    backupDir: vars.BACKUP_DIR ? trimSlash(vars.BACKUP_DIR) || "/" : `${dataDir}/backups`,
    backupIntervalMs: vars.BACKUP_INTERVAL && vars.BACKUP_INTERVAL !== "off"
      ? parseInterval(vars.BACKUP_INTERVAL)
      : null,
    backupKeep: vars.BACKUP_KEEP ?? 7,
    ...offsiteConfig(vars),
    webhookLogRetentionDays: vars.WEBHOOK_LOG_RETENTION_DAYS ?? 30,
    paymentProvider: providerConfig(environment, raw),
    smtp: vars.SMTP_URL === undefined ? null : parseSmtpUrl(vars.SMTP_URL),
    mailFrom: vars.MAIL_FROM === undefined
      ? { name: "Paystead", address: `no-reply@${mailDomainOf(publicUrl)}` }
      : parseMailAddress(vars.MAIL_FROM)!,
    emailRetryScheduleMs: parseDurationList(emailSchedule)!,
    renewalNoticeDays: vars.RENEWAL_NOTICE_DAYS ?? 3,
  };
}

/** The off-site copies' settings; BACKUP_S3_URL needs scheduled backups and a passphrase. */
function offsiteConfig(
  vars: z.infer<typeof EnvSchema>,
): Pick<Config, "offsite" | "s3" | "backupPassphrase"> {
  if ((vars.AWS_ACCESS_KEY_ID === undefined) !== (vars.AWS_SECRET_ACCESS_KEY === undefined)) {
    const missing = vars.AWS_ACCESS_KEY_ID === undefined
      ? "AWS_ACCESS_KEY_ID"
      : "AWS_SECRET_ACCESS_KEY";
    throw new ConfigError(
      `Invalid configuration: ${missing} is required with the other AWS_* key (the pair of the store's access key).`,
    );
  }
  const location = vars.BACKUP_S3_URL ? parseS3Url(vars.BACKUP_S3_URL)! : null;
  if (location && vars.BACKUP_PASSPHRASE === undefined) {
    throw new ConfigError(
      "Invalid configuration: BACKUP_PASSPHRASE is required with BACKUP_S3_URL (off-site copies are encrypted with it; keep it apart from the backups).",
    );
  }
  if (location && (!vars.BACKUP_INTERVAL || vars.BACKUP_INTERVAL === "off")) {
    throw new ConfigError(
      "Invalid configuration: BACKUP_S3_URL copies the scheduled backups, so it needs BACKUP_INTERVAL (such as 6h).",
    );
  }
  const path = location?.path.replace(/\/+$/, "") ?? "";
  return {
    offsite: location ? { bucket: location.bucket, prefix: path ? `${path}/` : "" } : null,
    s3: {
      endpoint: vars.BACKUP_S3_ENDPOINT ? trimSlash(vars.BACKUP_S3_ENDPOINT) : null,
      region: vars.BACKUP_S3_REGION ?? "us-east-1",
      accessKeyId: vars.AWS_ACCESS_KEY_ID ?? null,
      secretAccessKey: vars.AWS_SECRET_ACCESS_KEY ?? null,
    },
    backupPassphrase: vars.BACKUP_PASSPHRASE ?? null,
  };
}

/** A domain for the sandbox mailbox's sender: the public URL's host, if it has a dot. */
function mailDomainOf(publicUrl: string): string {
  const host = new URL(publicUrl).hostname;
  return host.includes(".") && !/^[\d.]+$/.test(host) ? host : "localhost.localdomain";
}

/**
 * The payment provider as configured; null when production names none or names the simulator,
 * which `requireProvider` then refuses.
 */
function providerConfig(
  environment: Environment,
  raw: Record<string, string | undefined>,
): ProviderConfig | null {
  const chosen = raw.PAYMENT_PROVIDER ?? (environment === "sandbox" ? "sandbox" : undefined);
  const definition = providers().find((provider) => provider.name === chosen);
  if (definition === undefined) return null;
  const set = Object.fromEntries(
    Object.entries(raw).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return definition.settings(set, environment);
}

/**
 * The payment provider a serving process runs with. Production never runs the simulator: it
 * takes no money, so a production process without a real provider refuses to start.
 */
export function requireProvider(config: Config): ProviderConfig {
  if (config.paymentProvider) return config.paymentProvider;
  throw new ConfigError(
    `Invalid configuration: PAYMENT_PROVIDER must be ${
      orList(realProviders().map((provider) => provider.name))
    } in production (${
      realProviders().map((provider) => provider.requirement).join("; ")
    }); the sandbox simulator takes no money.`,
  );
}

/** The definition of the provider named `name` in `providers()`. */
export function providerDefinition(name: string): ProviderDefinitionOf {
  const definition = providers().find((provider) => provider.name === name);
  if (definition === undefined) throw new Error(`No payment provider is named ${name}.`);
  return definition;
}

/** The providers that take real money: production needs one of them. */
export function realProviders(): ProviderDefinitionOf[] {
  return providers().filter((provider) => provider.takesMoney);
}

/** The public API host of an environment, as this process knows it. */
export function publicUrlOf(config: Config, environment: Environment): string {
  return environment === "sandbox" ? config.sandboxPublicUrl : config.productionPublicUrl;
}
