import type { MiddlewareHandler } from "hono";
import type { Logger } from "../../lib/log.ts";
import type { AppEnv } from "../env.ts";

/** Route parameters that are bearer secrets: whoever reads them can use them. */
const SECRET_PARAMS = [":token"];
/** Paths whose segment after the prefix is such a secret, whatever route answers them. */
const SECRET_SEGMENT = /^(\/panel\/invitations\/)[^/]+/;

/**
 * The path as the log shows it: a path carrying a bearer secret (an invitation link) is logged
 * as its route pattern, and one no route matched with the secret's segment replaced.
 */
export function loggedPath(path: string, routePath: string): string {
  if (SECRET_PARAMS.some((param) => routePath.includes(param))) return routePath;
  return path.replace(SECRET_SEGMENT, "$1:token");
}

/**
 * Logs one JSON line per request: id, method, route pattern, path, status and latency. Never
 * headers, query strings, bodies or secrets in paths, where keys, tokens and payment codes travel.
 */
export function requestLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    log.info("request", {
      requestId: c.get("requestId"),
      method: c.req.method,
      route: c.req.routePath,
      path: loggedPath(c.req.path, c.req.routePath),
      status: c.res.status,
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
    });
  };
}
