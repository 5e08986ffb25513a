import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import { MessagePage } from "../components/MessagePage.tsx";
import type { ApiError } from "../lib/errors.ts";
import type { AppEnv } from "./env.ts";
import { errorResponse } from "./errors.ts";

/**
 * The Content-Security-Policy of every page: only this origin's scripts, styles and requests
 * (no inline script or style at all), forms posting back here, and framing by `frameAncestor`
 * alone, or by nobody. A page frames nothing unless `frameSelf` lets it frame this origin (the
 * panel's checkout preview).
 */
function contentSecurityPolicy(frameAncestor: string | null, frameSelf: boolean): string {
  return [
    "default-src 'none'",
    ...(frameSelf ? ["frame-src 'self'"] : []),
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${frameAncestor ?? "'none'"}`,
  ].join("; ");
}

/**
 * Renders a server-side page with the security headers every page carries. `frameAncestor` is
 * the one origin allowed to frame it (a checkout session's embedLink origin); without it the
 * page may not be framed at all, which X-Frame-Options repeats for old browsers.
 */
export function renderPage<E extends AppEnv>(
  c: Context<E>,
  page: VNode,
  options: { status?: number; frameAncestor?: string; frameSelf?: boolean } = {},
): Response {
  const frameAncestor = options.frameAncestor ?? null;
  c.header(
    "Content-Security-Policy",
    contentSecurityPolicy(frameAncestor, options.frameSelf === true),
  );
  if (frameAncestor === null) {
    c.header("X-Frame-Options", "DENY");
    c.header("Cross-Origin-Opener-Policy", "same-origin");
  }
  c.header("Referrer-Policy", "same-origin");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  // Pages show live payment state: never serve one from a cache.
  c.header("Cache-Control", "no-store");
  return c.html(
    `<!doctype html>${renderToString(page)}`,
    (options.status ?? 200) as ContentfulStatusCode,
  );
}

/**
 * Paths whose errors are always the contract's JSON: the API, the operational endpoints and the
 * sandbox's webhook receiver.
 */
function isMachinePath(path: string): boolean {
  return path === "/api" || path.startsWith("/api/") || path === "/payments" ||
    path === "/healthz" || path === "/readyz" || path === "/metrics" ||
    path.startsWith("/sandbox/webhook-inbox/");
}

/** Tells whether an error should be a page: a browser asking for one rather than JSON. */
function wantsPage(c: Context<AppEnv>): boolean {
  if (isMachinePath(c.req.path)) return false;
  const accept = c.req.header("accept") ?? "";
  return accept.includes("text/html") || !accept.includes("application/json");
}

const PAGE_TEXT: Record<number, [string, string]> = {
  400: ["Check what you entered", ""],
  403: ["This page is out of date", "Go back, reload the page and try again."],
  404: [
    "We can't find this page",
    "The link may be incomplete or out of date. Check it, or ask the merchant for a new one.",
  ],
  409: [
    "This payment has already changed",
    "Go back and reload the payment page to see where it stands.",
  ],
  429: ["Too many attempts", ""],
};

function errorPage(c: Context<AppEnv>, error: ApiError): Response {
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  const [title, text] = PAGE_TEXT[error.status] ??
    ["Something went wrong", "It wasn't anything you did. Please try again in a moment."];
  // 400 and 429 messages are written for people; others may name internals, so they stay out.
  const detail = error.status === 400 || error.status === 429 ? error.message : text;
  const reference = error.status >= 500 ? c.get("requestId") : undefined;
  return renderPage(
    c,
    <MessagePage title={title} tone="error" reference={reference}>
      <p>{detail}</p>
    </MessagePage>,
    { status: error.status },
  );
}

/**
 * Answers an error in the form the client asked for: the contract's JSON body for the API and
 * for scripts (`Accept: application/json`), a plain page for people, never a trace.
 */
export function renderError(c: Context<AppEnv>, error: ApiError): Response {
  return wantsPage(c) ? errorPage(c, error) : errorResponse(c, error);
}
