import type { Context } from "hono";
import type { ApiError } from "../lib/errors.ts";
import type { AppEnv } from "./env.ts";
import { errorResponse } from "./errors.ts";

/**
 * Paths whose errors are always the contract's JSON: the API, the operational endpoints, and
 * what machines post to (the sandbox's webhook receiver, the providers' notifications).
 */
function isMachinePath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/") || path === "/payments" ||
    path === "/healthz" || path === "/readyz" || path === "/metrics" ||
    path.startsWith("/sandbox/webhook-inbox/") || path.startsWith("/providers/");
}

/**
 * Tells whether a request should be answered with a page rather than JSON: a browser asking for
 * one, or a client saying nothing. Scripts (the panel's islands among them) ask for
 * `application/json` alone; machine paths always get JSON.
 */
export function wantsPage(c: Context): boolean {
  if (isMachinePath(c.req.path)) return false;
  const accept = c.req.header("accept") ?? "";
  return accept.includes("text/html") || !accept.includes("application/json");
}

/**
 * Answers an error in the form the client asked for: the contract's JSON body for the API and
 * for scripts (`Accept: application/json`), a plain page for people, never a trace.
 * NOTE: the page's module (Preact, the catalogues) is imported at the first error a person is
 * shown, by a string literal that `deno compile` embeds: a process serving the API never holds
 * it (issue 34). Should that import fail, the person gets the contract's JSON body instead.
 */
export function renderError(c: Context<AppEnv>, error: ApiError): Response | Promise<Response> {
  if (!wantsPage(c)) return errorResponse(c, error);
  return import("./error_page.tsx").then(
    ({ errorPage }) => errorPage(c, error),
    () => errorResponse(c, error),
  );
}
