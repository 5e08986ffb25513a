import { migrate, openStore, type Store } from "./db/client.ts";
import { accountsMigrations, environmentMigrations } from "./db/migrations/mod.ts";
import type { AccountsSchema, EnvironmentSchema } from "./db/schema.ts";
import { type Config, requireProvider } from "./lib/config.ts";
import { type DemoCredentials, ensureDemoOrganisation } from "./lib/demo.ts";
import { restrictDatabaseFiles } from "./lib/file_modes.ts";
import { holdServerLocks } from "./lib/ops/data_lock.ts";
import { OpsError } from "./lib/ops/errors.ts";
import { createLogger, errorFields, type Logger } from "./lib/log.ts";
import { backupBeforeMigrating } from "./lib/ops/pre_migration_backup.ts";
import { reconcileAtStart } from "./lib/payments/reconcile.ts";
import { collectStartGarbage } from "./lib/start_garbage.ts";
import { Counter } from "./lib/prometheus.ts";
import { Listener } from "./listener.ts";
import { createApp } from "./routes/app.ts";
import { startMetricsListener } from "./routes/metrics_listener.ts";

/** The two databases one environment process uses. */
export interface Databases {
  accounts: Store<AccountsSchema>;
  store: Store<EnvironmentSchema>;
}

/**
 * Opens the accounts database and this environment's database, and migrates both, each after a
 * checked backup when it exists and has migrations to apply.
 */
export async function openDatabases(
  config: Config,
  log: Logger = createLogger(config.logLevel),
): Promise<Databases> {
  const accounts = await openStore<AccountsSchema>(config.accountsDatabaseUrl);
  const store = await openStore<EnvironmentSchema>(config.databaseUrl);
  try {
    await restrictDatabaseFiles(config.accountsDatabaseUrl);
    await restrictDatabaseFiles(config.databaseUrl);
    const deps = { config, log, now: Date.now() };
    await backupBeforeMigrating(accounts, "accounts", accountsMigrations, deps);
    await migrate(accounts, accountsMigrations);
    await backupBeforeMigrating(store, "environment", environmentMigrations, deps);
    await migrate(store, environmentMigrations);
  } catch (error) {
    await closeDatabases({ accounts, store });
    throw error;
  }
  return { accounts, store };
}

/** Closes both databases after their pending writes. */
export async function closeDatabases(databases: Databases): Promise<void> {
  await databases.store.close();
  await databases.accounts.close();
}

function banner(config: Config, demo: DemoCredentials | null): string {
  const url = config.publicUrl;
  const lines = [
    `Paystead ${config.environment} is running on port ${config.port}.`,
    `  Panel:     ${url}/panel`,
    `  API:       ${url}/api/v1   (reference: ${url}/api/v1/openapi.json)`,
    `  Data:      ${config.databaseUrl}, ${config.accountsDatabaseUrl}`,
  ];
  if (demo) {
    lines.push(
      "",
      `First start: created the demo organisation '${demo.orgSlug}' (plan ENTERPRISE).`,
      `  Login:     ${demo.email}   at ${url}/panel`,
      `  Password:  ${demo.oneTimePassword}   (one-time; choose your own at first sign-in)`,
      `  API key:   ${demo.apiKey}`,
      "",
      // The README's commands read API and KEY: this line, pasted, makes them work as shown.
      "Try it: paste this line, then the README's commands (they need curl and jq):",
      `  export API=${url} KEY=${demo.apiKey}`,
      `  curl -s "$API/api/v1/qr" -H "Authorization: Bearer $KEY"`,
    );
  }
  return lines.join("\n");
}

/** Why the port could not be listened on, as the one line the operator reads. */
function listenError(config: Config, error: unknown): OpsError {
  const where = `${config.listenHost}:${config.port}`;
  if (error instanceof Deno.errors.AddrInUse) {
    return new OpsError(
      `Cannot listen on ${where}: the port is already in use (another Paystead or another program listens there). Stop it, or choose a free port with PORT (--port).`,
    );
  }
  return new OpsError(
    `Cannot listen on ${where}: ${(error as Error).message}. Check LISTEN_HOST and PORT (--port).`,
  );
}

/** How long shutdown waits for in-flight requests. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Serves one environment until SIGINT/SIGTERM: migrates, creates the demo organisation on a
 * first sandbox start, starts the scheduler (in-process timers plus a Deno.cron sweep every
 * minute) and stops gracefully. Resolves with the exit code once stopped.
 */
export async function serve(config: Config): Promise<number> {
  // Refused before anything opens: production without a real payment provider never serves.
  requireProvider(config);
  const log = createLogger(config.logLevel);
  // Held while serving: `restore` refuses to replace a database a server has open.
  const locks = await holdServerLocks([config.databaseUrl, config.accountsDatabaseUrl], log);
  const databases = await openDatabases(config, log);
  const { app, services, webhooks, emails, drain, metrics, metricsApp } = createApp({
    ...databases,
    config,
    log,
    timers: true,
  });

  if (config.environment === "production" && config.smtp === null) {
    log.warn("no SMTP_URL: this production process sends no customer e-mails", {
      unsent: "payment confirmations and refund notices are marked not sent",
    });
  }

  const stopCron = new AbortController();
  Deno.cron(
    `paystead-${config.environment}-sweep`,
    "* * * * *",
    { signal: stopCron.signal },
    () => services.scheduler.runAll(),
  );
  await reconcileAtStart(services);
  services.scheduler.runAll();

  const listenerFailures = new Counter({
    name: "paystead_listener_failures_total",
    help: "Times the listening socket failed (accept: it died, e.g. out of file descriptors; " +
      "listen: starting it again failed).",
    labelNames: ["stage"],
    registers: [metrics],
  });
  // Both series exist from the start, so an alert on their increase sees the first failure.
  for (const stage of ["accept", "listen"]) listenerFailures.inc({ stage }, 0);
  // A signal or a request from the moment the port answers waits for the start to finish.
  const started = Promise.withResolvers<void>();
  let handle: Deno.ServeHandler<Deno.NetAddr> = async (request, info) => {
    await started.promise;
    return await app.fetch(request, info);
  };
  const server = new Listener({
    port: config.port,
    hostname: config.listenHost,
    handler: (request, info) => handle(request, info),
    log,
    onFailure: (stage) => listenerFailures.inc({ stage }),
  });
  try {
    server.start();
  } catch (error) {
    stopCron.abort();
    await Promise.all([services.scheduler.stop(), webhooks.stop(), services.eventStreams.close()]);
    await closeDatabases(databases);
    locks.release();
    throw listenError(config, error);
  }

  // NOTE: serve() resolves only once shutdown has finished: main() exits the process when it
  // returns, and must not do so while databases are still being closed.
  const stopped = Promise.withResolvers<number>();
  let metricsServer: ReturnType<typeof startMetricsListener> | null = null;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    await started.promise;
    log.info("shutting down", { signal });
    stopCron.abort();
    const timeout = setTimeout(() => {
      log.warn("in-flight requests did not finish in time", { graceMs: SHUTDOWN_GRACE_MS });
      stopped.resolve(1);
    }, SHUTDOWN_GRACE_MS);
    try {
      // Requests in flight finish while new ones get 503; deliveries in flight are abandoned
      // with their leases given back, so another process retries them.
      await Promise.all([
        drain.drain(),
        services.scheduler.stop(),
        services.offsite?.stop(),
        webhooks.stop(),
        emails.stop(),
        services.eventStreams.close(),
      ]);
      await Promise.all([server.shutdown(), metricsServer?.shutdown()]);
      await closeDatabases(databases);
      locks.release();
      log.info("stopped", { signal });
      stopped.resolve(0);
    } catch (error) {
      log.error("shutdown failed", errorFields(error));
      stopped.resolve(1);
    } finally {
      clearTimeout(timeout);
    }
  };
  Deno.addSignalListener("SIGINT", () => shutdown("SIGINT"));
  Deno.addSignalListener("SIGTERM", () => shutdown("SIGTERM"));

  // NOTE: created only once the port is ours: a start that cannot listen must not create the
  // demo owner's one-time password and key and then exit without having printed them.
  const demo = config.environment === "sandbox"
    ? await ensureDemoOrganisation(databases.accounts, databases.store, Date.now())
    : null;
  console.log(banner(config, demo));
  metricsServer = config.metricsListen &&
    startMetricsListener(config.metricsListen, metricsApp, log);
  // Requests that arrive meanwhile wait for `started`; the collection takes 70-200 ms.
  collectStartGarbage(log);
  handle = app.fetch;
  started.resolve();
  return await stopped.promise;
}
