import { prometheus } from "@hono/prometheus";
import { Hono, type MiddlewareHandler } from "hono";
import { type HistogramConfiguration, Registry } from "prom-client";
import type { Services } from "../lib/context.ts";
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

/** `/healthz` (process up), `/readyz` (databases answer), `/metrics` (Prometheus text). */
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
    .get("/metrics", printMetrics);
}
