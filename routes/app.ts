import { Hono } from "hono";
import type { Registry } from "prom-client";
import type { ApiKeyAuthenticator } from "../lib/api_keys.ts";
import type { Services } from "../lib/context.ts";
import { ApiError } from "../lib/errors.ts";
import { registerBackupMetrics } from "../lib/ops/backup_metrics.ts";
import { registerProviderMetrics } from "../lib/providers/metrics.ts";
import { TokenBucketLimiter } from "../lib/rate_limit.ts";
import { buildServices, type ServiceDeps } from "../lib/services.ts";
import type { WebhookDispatcher } from "../lib/webhooks/delivery/dispatcher.ts";
import type { CustomerEmailSender } from "../lib/emails/sender.ts";
import { createApi } from "./api/mod.ts";
import { buildOpenApiDocument } from "./api/openapi_document.ts";
import { createEmbeddedCheckoutPages } from "./checkout.tsx";
import type { AppEnv } from "./env.ts";
import { toApiError } from "./errors.ts";
import { renderError } from "./html.tsx";
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

/** What the app runs on; see `ServiceDeps`. */
type AppDeps = ServiceDeps;

/** A built app: the Hono app and the services behind it. */
export interface PaysteadApp {
  app: Hono<AppEnv>;
  services: Services;
  authenticator: ApiKeyAuthenticator;
  /** The webhook delivery queue: stop it before closing the database. */
  webhooks: WebhookDispatcher;
  /** The customer e-mail sender: stop it before closing the database. */
  emails: CustomerEmailSender;
  /** Requests in flight: drain them before closing the server. */
  drain: RequestDrain;
  /** `/metrics` alone, for the separate metrics listener. */
  metricsApp: Hono;
  /** The registry `/metrics` prints; the server adds its listener's counters to it. */
  metrics: Registry;
}

/** Builds the whole HTTP app (API, operational endpoints, pages, panel) on the given dependencies. */
export function createApp(deps: AppDeps): PaysteadApp {
  const { services, authenticator, webhooks, emails } = buildServices(deps);
  webhooks.start();
  const { clock, log } = services;
  const metrics = createMetrics();
  registerBackupMetrics(metrics.registry, services.backups);
  registerProviderMetrics(metrics.registry, services.provider.health);
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
  // Set before the handler, which may set its own: copying a finished response's headers to add
  // one costs a create about 3% of its time.
  app.use("/api/*", (c, next) => {
    c.header("Cache-Control", "no-store");
    return next();
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
    emails,
    drain,
    metrics: metrics.registry,
    metricsApp,
  };
}
