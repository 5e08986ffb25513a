import { Hono } from "hono";
import type { Registry } from "prom-client";
import type { Store } from "../db/client.ts";
import type { AccountsSchema, EnvironmentSchema } from "../db/schema.ts";
import { ApiKeyAuthenticator } from "../lib/api_keys.ts";
import { type Clock, systemClock } from "../lib/clock.ts";
import type { Config } from "../lib/config.ts";
import { checkoutPaymentHook } from "../lib/checkout/hooks.ts";
import { checkoutExpiryJob } from "../lib/checkout/jobs.ts";
import type { Services } from "../lib/context.ts";
import { ApiError } from "../lib/errors.ts";
import { EventBroadcaster, type EventStreamOptions } from "../lib/event_stream.ts";
import { idempotencyCleanupJob } from "../lib/idempotency.ts";
import { createLogger, type Logger } from "../lib/log.ts";
import { type PasswordHasher, scryptPasswords } from "../lib/passwords.ts";
import { registerBackupMetrics } from "../lib/ops/backup_metrics.ts";
import { BackupStatus } from "../lib/ops/backup_status.ts";
import { scheduledBackupJob } from "../lib/ops/backups.ts";
import { webhookLogRetentionJob } from "../lib/ops/retention.ts";
import { panelCleanupJob } from "../lib/accounts/sessions.ts";
import { paymentDeadlinesJob } from "../lib/payments/jobs.ts";
import {
  assertProviderAllowed,
  type PayuOptions,
  providerFromConfig,
} from "../lib/providers/from_config.ts";
import type { PaymentProvider } from "../lib/providers/mod.ts";
import { paymentAttemptsJob } from "../lib/payments/reconcile.ts";
import { refundsJob } from "../lib/refunds/jobs.ts";
import { Scheduler } from "../lib/scheduler.ts";
import { logStorageChanges } from "../lib/storage.ts";
import { subscriptionRenewalsJob } from "../lib/subscriptions/renewals.ts";
import { startSubscriptionOnPayment } from "../lib/subscriptions/start.ts";
import { type HostResolver, resolveHostAddresses } from "../lib/webhooks/address_policy.ts";
import {
  webhookDeliveryJob,
  type WebhookDeliveryOptions,
  WebhookDispatcher,
} from "../lib/webhooks/delivery/dispatcher.ts";
import { createApi } from "./api/mod.ts";
import { buildOpenApiDocument } from "./api/openapi_document.ts";
import { createEmbeddedCheckoutPages } from "./checkout.tsx";
import type { AppEnv } from "./env.ts";
import { toApiError } from "./errors.ts";
import { renderError } from "./html.tsx";
import { TokenBucketLimiter } from "../lib/rate_limit.ts";
import { clientAddress } from "./middleware/client_address.ts";
import { rateLimit } from "./middleware/rate_limit.ts";
import { RequestDrain } from "./middleware/drain.ts";
import { requestId } from "./middleware/request_id.ts";
import { requestLog } from "./middleware/request_log.ts";
import { createMetrics, createMetricsApp, createOps } from "./ops.ts";
import { createPanel } from "./panel/mod.tsx";
import { createPayPages } from "./pay.tsx";
import { createProviderRoutes } from "./providers.ts";
import { createSandboxInbox } from "./sandbox_inbox.ts";
import { createStaticRoutes } from "./static.ts";

/** What the app runs on. Tests pass temporary databases, a manual clock and no timers. */
export interface AppDeps {
  config: Config;
  store: Store<EnvironmentSchema>;
  accounts: Store<AccountsSchema>;
  clock?: Clock;
  /** The payment provider; by default built from `config` (production: never the simulator). */
  provider?: PaymentProvider;
  /** How a provider built from `config` reaches its API (tests pass a fake's). */
  payu?: PayuOptions;
  log?: Logger;
  /** Whether the scheduler sets its own timers (the server) or waits to be called (tests). */
  timers?: boolean;
  /** DNS for webhook URLs; tests pass a fake to exercise production's address checks. */
  resolveHost?: HostResolver;
  /** Tuning of the event streams (tests shrink their buffers). */
  eventStreams?: EventStreamOptions;
  /** Tuning of webhook delivery (tests shorten the attempt timeout). */
  webhooks?: WebhookDeliveryOptions;
  /** Panel password hashing; tests wrap scrypt to count the checks. */
  passwords?: PasswordHasher;
}

/** A built app: the Hono app and the services behind it. */
export interface PaysteadApp {
  app: Hono<AppEnv>;
  services: Services;
  authenticator: ApiKeyAuthenticator;
  /** The webhook delivery queue: stop it before closing the database. */
  webhooks: WebhookDispatcher;
  /** Requests in flight: drain them before closing the server. */
  drain: RequestDrain;
  /** `/metrics` alone, for the separate metrics listener. */
  metricsApp: Hono;
  /** The registry `/metrics` prints; the server adds its listener's counters to it. */
  metrics: Registry;
}

/** Builds the whole HTTP app (API, operational endpoints, pages, panel) on the given dependencies. */
export function createApp(deps: AppDeps): PaysteadApp {
  const clock = deps.clock ?? systemClock;
  const log = deps.log ?? createLogger(deps.config.logLevel);
  const scheduler = new Scheduler({ clock, log, timers: deps.timers ?? false });
  const provider = deps.provider ??
    providerFromConfig(deps.config, { clock, payu: deps.payu });
  assertProviderAllowed(deps.config.environment, provider);
  const services: Services = {
    config: deps.config,
    environment: deps.config.environment,
    store: deps.store,
    accounts: deps.accounts,
    clock,
    provider,
    scheduler,
    log,
    paymentHooks: [checkoutPaymentHook],
    resolveHost: deps.resolveHost ?? resolveHostAddresses,
    passwords: deps.passwords ?? scryptPasswords,
    backups: new BackupStatus(),
    eventStreams: new EventBroadcaster(deps.store, log, deps.eventStreams),
  };
  services.paymentHooks.push(startSubscriptionOnPayment);
  logStorageChanges(services);
  scheduler.register(paymentDeadlinesJob(services));
  scheduler.register(idempotencyCleanupJob(deps.store, clock));
  scheduler.register(paymentAttemptsJob(services));
  scheduler.register(refundsJob(services));
  scheduler.register(subscriptionRenewalsJob(services));
  scheduler.register(checkoutExpiryJob(services));
  scheduler.register(panelCleanupJob(deps.accounts, clock));
  scheduler.register(
    webhookLogRetentionJob(deps.store, clock, deps.config.webhookLogRetentionDays),
  );
  if (deps.config.backupIntervalMs !== null) {
    scheduler.register(
      scheduledBackupJob({ config: deps.config, clock, log, status: services.backups }),
    );
  }
  const webhooks = new WebhookDispatcher(services, deps.webhooks);
  scheduler.register(webhookDeliveryJob(webhooks));
  webhooks.start();

  const authenticator = new ApiKeyAuthenticator(services);
  const metrics = createMetrics();
  registerBackupMetrics(metrics.registry, services.backups);
  const app = new Hono<AppEnv>();
  app.use("*", async (_c, next) => {
    webhooks.noteRequest();
    await next();
  });
  app.use("*", requestId);
  app.use("*", requestLog(log));
  const drain = new RequestDrain();
  app.use("*", drain.middleware);
  app.use("*", metrics.middleware);
  // Public forms: a client address may open offers, try codes and sign in only so fast.
  const perClient = new TokenBucketLimiter({ perSecond: 2, burst: 20, clock });
  const limitClient = rateLimit(
    perClient,
    (c) => clientAddress(c, deps.config.trustedProxies),
    "Too many requests from your address.",
  );
  app.get("/o/*", limitClient);
  app.post("/pay/*", limitClient);
  app.post("/checkout/*", limitClient);
  app.post("/panel/sign-in", limitClient);
  // Each sign-up on an invitation link costs a scrypt hash.
  app.post("/panel/invitations/*", limitClient);
  app.use("/api/*", async (c, next) => {
    await next();
    if (!c.res.headers.has("Cache-Control")) c.res.headers.set("Cache-Control", "no-store");
  });
  app.route("/", createOps(services, metrics.printMetrics));
  const api = createApi(services, authenticator);
  app.route("/", api);
  app.route("/", createStaticRoutes());
  app.route("/", createEmbeddedCheckoutPages(services));
  app.route("/", createPayPages(services));
  app.route("/", createSandboxInbox(services));
  app.route("/", createProviderRoutes(services));
  app.route(
    "/",
    createPanel({
      services,
      authenticator,
      openApi: () => buildOpenApiDocument(api, services),
    }),
  );
  app.notFound((c) =>
    renderError(c, new ApiError("route_not_found", `There is no ${c.req.method} ${c.req.path}.`))
  );
  app.onError((error, c) => renderError(c, toApiError(error, log, c.get("requestId"))));
  const metricsApp = createMetricsApp(metrics.printMetrics);
  return {
    app,
    services,
    authenticator,
    webhooks,
    drain,
    metrics: metrics.registry,
    metricsApp,
  };
}
