import type { MiddlewareHandler } from "hono";
import type { Logger } from "../../lib/log.ts";
import { answeredRoute, type AppEnv } from "../env.ts";

/** Route parameters that are bearer secrets: whoever reads them can use them. */
const SECRET_PARAMS = [":token"];
/** Paths whose segment after this prefix is such a secret, whatever route answers them. */
const SECRET_PREFIX = "/panel/invitations/";
const SECRET_SEGMENT = /^(\/panel\/invitations\/)[^/]+/;

/**
 * The path as the log shows it: a path carrying a bearer secret (an invitation link) is logged
 * as its route pattern, and one no route matched with the secret's segment replaced.
 */
export function loggedPath(path: string, routePath: string): string {
  if (SECRET_PARAMS.some((param) => routePath.includes(param))) return routePath;
  // Every request is logged: the replacement runs only where it can match.
  return path.startsWith(SECRET_PREFIX) ? path.replace(SECRET_SEGMENT, "$1:token") : path;
}

/**
 * Logs one JSON line per request: id, method, route pattern, path, status and latency. Never
 * headers, query strings, bodies or secrets in paths, where keys, tokens and payment codes travel.
 */
export function requestLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const route = answeredRoute(c);
    log.info("request", {
      requestId: c.get("requestId"),
      method: c.req.method,
      route,
      path: loggedPath(c.req.path, route),
      status: c.res.status,
      latencyMs: Math.round((performance.now() - started) * 100) / 100,
    });
  };
}
