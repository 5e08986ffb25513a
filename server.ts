import { migrate, openStore, type Store } from "./db/client.ts";
import { accountsMigrations, environmentMigrations } from "./db/migrations/mod.ts";
import type { AccountsSchema, EnvironmentSchema } from "./db/schema.ts";
import { type Config, requireProvider } from "./lib/config.ts";
import { type DemoCredentials, ensureDemoOrganisation } from "./lib/demo.ts";
import { restrictDatabaseFiles } from "./lib/file_modes.ts";
import { holdServerLocks } from "./lib/ops/data_lock.ts";
import { createLogger, errorFields } from "./lib/log.ts";
import { reconcileAtStart } from "./lib/payments/reconcile.ts";
import { Counter } from "prom-client";
import { Listener } from "./listener.ts";
import { createApp } from "./routes/app.ts";
import { startMetricsListener } from "./routes/metrics_listener.ts";

/** The two databases one environment process uses. */
export interface Databases {
  accounts: Store<AccountsSchema>;
  store: Store<EnvironmentSchema>;
}

/** Opens the accounts database and this environment's database, and migrates both. */
export async function openDatabases(config: Config): Promise<Databases> {
  const accounts = await openStore<AccountsSchema>(config.accountsDatabaseUrl);
  const store = await openStore<EnvironmentSchema>(config.databaseUrl);
  await restrictDatabaseFiles(config.accountsDatabaseUrl);
  await restrictDatabaseFiles(config.databaseUrl);
  await migrate(accounts, accountsMigrations);
  await migrate(store, environmentMigrations);
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
      "Try it:",
      `  curl -X POST ${url}/api/v1/qr -H "Authorization: Bearer ${demo.apiKey}" \\`,
      `    -H "Content-Type: application/json" -d '{"name":"Coffee","amount":1250,"currency":"PLN"}'`,
    );
  }
  return lines.join("\n");
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
  const locks = await holdServerLocks([config.databaseUrl, config.accountsDatabaseUrl]);
  const databases = await openDatabases(config);
  const demo = config.environment === "sandbox"
    ? await ensureDemoOrganisation(databases.accounts, databases.store, Date.now())
    : null;
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
  const server = new Listener({
    port: config.port,
    hostname: config.listenHost,
    handler: app.fetch,
    log,
    onListen: () => console.log(banner(config, demo)),
    onFailure: (stage) => listenerFailures.inc({ stage }),
  });
  server.start();
  const metricsServer = config.metricsListen &&
    startMetricsListener(config.metricsListen, metricsApp, log);

  // NOTE: serve() resolves only once shutdown has finished: main() exits the process when it
  // returns, and must not do so while databases are still being closed.
  return await new Promise<number>((stopped) => {
    let stopping = false;
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      log.info("shutting down", { signal });
      stopCron.abort();
      const timeout = setTimeout(() => {
        log.warn("in-flight requests did not finish in time", { graceMs: SHUTDOWN_GRACE_MS });
        stopped(1);
      }, SHUTDOWN_GRACE_MS);
      try {
        // Requests in flight finish while new ones get 503; deliveries in flight are abandoned
        // with their leases given back, so another process retries them.
        await Promise.all([
          drain.drain(),
          services.scheduler.stop(),
          webhooks.stop(),
          emails.stop(),
          services.eventStreams.close(),
        ]);
        await Promise.all([server.shutdown(), metricsServer?.shutdown()]);
        await closeDatabases(databases);
        locks.release();
        log.info("stopped", { signal });
        stopped(0);
      } catch (error) {
        log.error("shutdown failed", errorFields(error));
        stopped(1);
      } finally {
        clearTimeout(timeout);
      }
    };
    Deno.addSignalListener("SIGINT", () => shutdown("SIGINT"));
    Deno.addSignalListener("SIGTERM", () => shutdown("SIGTERM"));
  });
}
