import { createHash, timingSafeEqual } from "node:crypto";
import { prometheus } from "@hono/prometheus";
import { Hono, type MiddlewareHandler } from "hono";
import { type HistogramConfiguration, Registry } from "prom-client";
import type { Services } from "../lib/context.ts";
import { ApiError } from "../lib/errors.ts";
import type { AppEnv } from "./env.ts";

/** Latency buckets in seconds, fine-grained below 10 ms where the API should live. */
const LATENCY_BUCKETS = [
  0.0005,
  0.001,
  0.0025,
  0.005,
  0.01,
  0.025,
  0.05,
  0.1,
  0.25,
  0.5,
  1,
  2.5,
  5,
];

const requestDuration: Partial<HistogramConfiguration<string>> = { buckets: LATENCY_BUCKETS };

/** Request counting and latency middleware, the Prometheus text endpoint and its registry. */
export function createMetrics(): {
  middleware: MiddlewareHandler;
  printMetrics: MiddlewareHandler;
  registry: Registry;
} {
  const registry = new Registry();
  const { registerMetrics, printMetrics } = prometheus({
    registry,
    prefix: "paystead_",
    // The option type omits histogram fields, but they are passed through to prom-client.
    metricOptions: { requestDuration: requestDuration as Record<string, never> },
  });
  return { middleware: registerMetrics, printMetrics, registry };
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** Whether a request carries `Authorization: Bearer <token>`, compared in constant time. */
export function hasMetricsToken(authorization: string | undefined, token: string | null): boolean {
  if (token === null || !authorization?.startsWith("Bearer ")) return false;
  return timingSafeEqual(digest(authorization.slice("Bearer ".length)), digest(token));
}

/**
 * `/metrics` on the public port: for the bearer of `METRICS_TOKEN` only; to anyone else it is
 * the 404 of any unknown path, so its existence tells nothing.
 */
function guardedMetrics(services: Services, printMetrics: MiddlewareHandler): MiddlewareHandler {
  return (c, next) => {
    if (!hasMetricsToken(c.req.header("authorization"), services.config.metricsToken)) {
      throw new ApiError("route_not_found", `There is no ${c.req.method} ${c.req.path}.`);
    }
    return printMetrics(c, next);
  };
}

/** The metrics listener's app (`METRICS_LISTEN`): `/metrics` and nothing else. */
export function createMetricsApp(printMetrics: MiddlewareHandler): Hono {
  return new Hono().get("/metrics", printMetrics);
}

/**
 * `/healthz` (process up), `/readyz` (databases answer), `/metrics` (Prometheus text, with the
 * metrics token only).
 */
export function createOps(services: Services, printMetrics: MiddlewareHandler): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .get("/healthz", (c) => c.json({ status: "ok", environment: services.environment }))
    .get("/readyz", async (c) => {
      try {
        await Promise.all([services.store.ping(), services.accounts.ping()]);
        return c.json({ status: "ready" });
      } catch (error) {
        services.log.warn("readiness check failed", { error: String(error) });
        return c.json({ status: "unavailable", reason: "a database does not answer" }, 503);
      }
    })
    .get("/metrics", guardedMetrics(services, printMetrics));
}
