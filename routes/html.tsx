import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";
import type { AppEnv } from "./env.ts";

/**
 * The Content-Security-Policy of every page: only this origin's scripts, styles and requests
 * (no inline script or style at all), forms posting back here, and framing by `frameAncestor`
 * alone, or by nobody. A page frames nothing unless `frameSelf` lets it frame this origin (the
 * panel's checkout preview). A page whose forms are answered with a redirect to a payment
 * provider's page names the provider's origins in `formTargets`: browsers hold a form's
 * redirects to form-action too.
 */
function contentSecurityPolicy(
  frameAncestor: string | null,
  frameSelf: boolean,
  formTargets: readonly string[],
): string {
  return [
    "default-src 'none'",
    ...(frameSelf ? ["frame-src 'self'"] : []),
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    ["form-action 'self'", ...formTargets].join(" "),
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
  options: {
    status?: number;
    frameAncestor?: string;
    frameSelf?: boolean;
    formTargets?: readonly string[];
  } = {},
): Response {
  const frameAncestor = options.frameAncestor ?? null;
  c.header(
    "Content-Security-Policy",
    contentSecurityPolicy(frameAncestor, options.frameSelf === true, options.formTargets ?? []),
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
