import type { Context } from "hono";
import type { Logger } from "../../lib/log.ts";
import type { AppEnv } from "../env.ts";

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
 * Logs one JSON line for a finished request: id, method, route pattern, path, status and latency.
 * Never headers, query strings, bodies or secrets in paths, where keys, tokens and payment codes
 * travel.
 */
export function logRequest(
  log: Logger,
  c: Context<AppEnv>,
  request: { requestId: string; route: string; latencyMs: number },
): void {
  log.info("request", {
    requestId: request.requestId,
    method: c.req.method,
    route: request.route,
    path: loggedPath(c.req.path, request.route),
    status: c.res.status,
    latencyMs: Math.round(request.latencyMs * 100) / 100,
  });
}
