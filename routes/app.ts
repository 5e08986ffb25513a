import { type ErrorHandler, Hono } from "hono";
import { Gauge, type Registry } from "../lib/prometheus.ts";
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
import type { AppEnv } from "./env.ts";
import { toApiError } from "./errors.ts";
import { renderError } from "./error_pages.ts";
import { LazySurface } from "./lazy_surface.ts";
import { clientAddress } from "./middleware/client_address.ts";
import { rateLimit } from "./middleware/rate_limit.ts";
import { RequestDrain } from "./middleware/drain.ts";
import { requestFrame } from "./middleware/request_frame.ts";
import { createMetrics, createMetricsApp, createOps } from "./ops.ts";
import { createProviderRoutes } from "./providers.ts";
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
  app.use(
    "*",
    requestFrame({ log, metrics: metrics.requests, onRequest: () => webhooks.noteRequest() }),
  );
  const drain = new RequestDrain();
  app.use("*", drain.middleware);
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
  app.post("/sandbox/redirect/*", limitClient);
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
  const onError: ErrorHandler<AppEnv> = (error, c) =>
    renderError(c, toApiError(error, log, c.get("requestId")));
  // NOTE: the pages load at their first request (a string-literal import, which deno compile
  // embeds): an API-only process then holds none of their views and catalogues (issue 34).
  const lazy = <E extends AppEnv>(name: string, load: () => Promise<Hono<E>>) =>
    new LazySurface(name, load, { onError, log });
  const surfaces = [
    lazy(
      "checkout",
      async () => (await import("./checkout.tsx")).createEmbeddedCheckoutPages(services),
    ),
    lazy("pay", async () => (await import("./pay.tsx")).createPayPages(services)),
    lazy(
      "sandbox_inbox",
      async () => (await import("./sandbox_inbox.ts")).createSandboxInbox(services),
    ),
    lazy("panel", async () =>
      (await import("./panel/mod.tsx")).createPanel({
        services,
        authenticator,
        openApi: () => buildOpenApiDocument(api, services),
      })),
  ];
  const [checkout, pay, sandboxInbox, panel] = surfaces;
  app.all("/checkout/*", checkout.handler);
  app.all("/pay/*", pay.handler);
  app.all("/o/*", pay.handler);
  app.all("/sandbox/redirect/*", pay.handler);
  app.all("/sandbox/webhook-inbox/*", sandboxInbox.handler);
  app.route("/", createProviderRoutes(services));
  app.all("/", panel.handler);
  app.all("/panel/*", panel.handler);
  registerSurfaceMetrics(metrics.registry, surfaces);
  app.notFound((c) =>
    renderError(c, new ApiError("route_not_found", `There is no ${c.req.method} ${c.req.path}.`))
  );
  app.onError(onError);
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

/** `paystead_surfaces_loaded{surface}`: 1 once a part of the app loaded at first use has loaded. */
function registerSurfaceMetrics(
  registry: Registry,
  surfaces: { name: string; loaded: boolean }[],
): void {
  new Gauge({
    name: "paystead_surfaces_loaded",
    help: "1 once the part of the app (its pages) has been loaded by its first request, else 0.",
    labelNames: ["surface"],
    registers: [registry],
    collect() {
      for (const surface of surfaces) this.set({ surface: surface.name }, surface.loaded ? 1 : 0);
    },
  });
}
