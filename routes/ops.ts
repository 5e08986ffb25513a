import { createHash, timingSafeEqual } from "node:crypto";
import { Hono, type MiddlewareHandler } from "hono";
import { Registry } from "../lib/prometheus.ts";
import type { Services } from "../lib/context.ts";
import { ApiError } from "../lib/errors.ts";
import type { AppEnv } from "./env.ts";
import { RequestMetrics } from "./request_metrics.ts";

/** Request counts and latencies, the Prometheus text endpoint and its registry. */
export function createMetrics(): {
  requests: RequestMetrics;
  printMetrics: MiddlewareHandler;
  registry: Registry;
} {
  const requests = new RequestMetrics("paystead_");
  // For metrics other than the per-request ones, which are counted by hand on the hot path.
  const registry = new Registry();
  return {
    requests,
    printMetrics: async (c) => c.text(requests.render() + await registry.metrics()),
    registry,
  };
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
      if (!services.store.writable || !services.accounts.writable) {
        return c.json({ status: "unavailable", reason: "the storage cannot take writes" }, 503);
      }
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
