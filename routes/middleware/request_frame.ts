import type { MiddlewareHandler } from "hono";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/log.ts";
import { answeredRoute, type AppEnv } from "../env.ts";
import type { RequestMetrics } from "../request_metrics.ts";
import { logRequest } from "./request_log.ts";

/**
 * What every request gets around it, as one middleware: a `req_...` id (sent back as
 * `Request-Id`), its count and latency in the metrics, and its log line. `onRequest` hears of
 * each request as it starts. One layer, not four: every layer of hono's chain is an async call
 * and a dispatch, a measurable share of a bare `/healthz`.
 */
export function requestFrame(options: {
  log: Logger;
  metrics: RequestMetrics;
  onRequest: () => void;
}): MiddlewareHandler<AppEnv> {
  const { log, metrics, onRequest } = options;
  return async (c, next) => {
    onRequest();
    const id = newId("request");
    c.set("requestId", id);
    const started = performance.now();
    // Errors never reach here: hono's onError answers them where they are thrown.
    await next();
    const latencyMs = performance.now() - started;
    const route = answeredRoute(c);
    metrics.observe(c.req.method, route, c.res.status, latencyMs);
    logRequest(log, c, { requestId: id, route, latencyMs });
    c.res.headers.set("Request-Id", id);
  };
}
