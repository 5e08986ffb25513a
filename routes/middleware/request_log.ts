import type { MiddlewareHandler } from "hono";
import type { Logger } from "../../lib/log.ts";
import type { AppEnv } from "../env.ts";

/**
 * Logs one JSON line per request: id, method, route pattern, path, status and latency. Never
 * headers, query strings or bodies, where keys, secrets and payment codes travel.
 */
export function requestLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    log.info("request", {
      requestId: c.get("requestId"),
      method: c.req.method,
      route: c.req.routePath,
      path: c.req.path,
      status: c.res.status,
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
    });
  };
}
