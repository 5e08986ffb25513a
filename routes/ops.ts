import { Hono, type MiddlewareHandler } from "hono";
import { Registry } from "prom-client";
import type { Services } from "../lib/context.ts";
import type { AppEnv } from "./env.ts";
import { RequestMetrics } from "./request_metrics.ts";

/** Request counting and latency middleware, the Prometheus text endpoint and its registry. */
export function createMetrics(): {
  middleware: MiddlewareHandler;
  printMetrics: MiddlewareHandler;
  registry: Registry;
} {
  const requests = new RequestMetrics("paystead_");
  // For metrics other than the per-request ones, which are counted by hand on the hot path.
  const registry = new Registry();
  return {
    middleware: requests.middleware,
    printMetrics: async (c) => c.text(requests.render() + await registry.metrics()),
    registry,
  };
}

/** `/healthz` (process up), `/readyz` (databases answer), `/metrics` (Prometheus text). */
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
    .get("/metrics", printMetrics);
}
