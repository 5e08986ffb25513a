import { timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { Config } from "../../../lib/config.ts";
import type { Services } from "../../../lib/context.ts";
import { ApiError } from "../../../lib/errors.ts";
import {
  authenticateSession,
  type ClientInfo,
  SESSION_ABSOLUTE_MS,
  type SignedIn,
  touchSessionIfDue,
} from "../../../lib/accounts/sessions.ts";
import { orgContextOnClock } from "../../../lib/sandbox_clock.ts";
import { clientAddress } from "../../middleware/client_address.ts";
import { wantsPage } from "../../error_pages.ts";
import type { PanelEnv } from "./context.ts";

/** Tells whether a URL is plain http on this machine, the only place a cookie may lack Secure. */
function isLocalHttp(url: URL): boolean {
  return url.protocol === "http:" &&
    ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

/**
 * The session cookie: host-only (no Domain), HttpOnly, SameSite=Lax and Secure, with the
 * `__Host-` prefix that makes browsers enforce all of that, except for http://localhost, where
 * Secure cannot work. Both environment processes use the same name, so on one host (localhost
 * ports, or one host behind a path-routing proxy) a sign-in serves both; on two hosts each
 * asks for its own sign-in.
 */
export function sessionCookie(config: Config): { name: string; secure: boolean } {
  const secure = !isLocalHttp(new URL(config.publicUrl));
  return { name: secure ? "__Host-paystead_session" : "paystead_session", secure };
}

/** Sets the session cookie of a new sign-in; it lasts as long as the session can. */
export function setSessionCookie(c: Context, config: Config, signedIn: SignedIn): void {
  const { name, secure } = sessionCookie(config);
  setCookie(c, name, signedIn.token, {
    path: "/",
    httpOnly: true,
    secure,
    sameSite: "Lax",
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  });
}

/** Clears the session cookie. */
export function clearSessionCookie(c: Context, config: Config): void {
  const { name, secure } = sessionCookie(config);
  deleteCookie(c, name, { path: "/", secure, httpOnly: true, sameSite: "Lax" });
}

/** Reads the session cookie. */
export function sessionToken(c: Context, config: Config): string | undefined {
  return getCookie(c, sessionCookie(config).name);
}

/** Who signs in: the client's address (behind a trusted proxy, the one it vouches for) and agent. */
export function clientInfo(c: Context<PanelEnv>, trustedProxies: string[]): ClientInfo {
  const address = clientAddress(c, trustedProxies);
  return {
    address: address === "unknown" ? null : address.slice(0, 64),
    userAgent: c.req.header("user-agent") ?? null,
  };
}

/** A same-site path to return to after signing in, or the home page (no open redirects). */
export function safeNext(value: string | undefined): string {
  if (!value || !value.startsWith("/panel") || value.startsWith("//") || /[\\\s]/.test(value)) {
    return "/panel";
  }
  return value;
}

const PASSWORD_PAGES = ["/panel/password", "/panel/sign-out"];

/**
 * Requires a live session on every page it guards: unknown or ended sessions go to the sign-in
 * page (or get a 401 as JSON). A user who still has a one-time password can only choose a new
 * one. A page view records activity at most once a minute; actions never write for it, so a
 * request still performs at most one write.
 */
export function requireSession(services: Services): MiddlewareHandler<PanelEnv> {
  return async (c, next) => {
    const now = services.clock.now();
    const token = sessionToken(c, services.config);
    const session = await authenticateSession(services.accounts, token, now);
    const safe = c.req.method === "GET" || c.req.method === "HEAD";
    if (!session) {
      if (token !== undefined) clearSessionCookie(c, services.config);
      if (!wantsPage(c)) {
        throw new ApiError("not_signed_in", "Your session has ended; sign in again.");
      }
      const next = safe ? c.req.path + (new URL(c.req.url).search) : "/panel";
      const query = next === "/panel" ? "" : `?next=${encodeURIComponent(next)}`;
      return c.redirect(`/panel/sign-in${query}`, 303);
    }
    if (session.passwordChangeRequired && !PASSWORD_PAGES.includes(c.req.path)) {
      if (!safe || !wantsPage(c)) {
        throw new ApiError("not_signed_in", "Choose your own password first.");
      }
      return c.redirect("/panel/password", 303);
    }
    if (safe) await touchSessionIfDue(services.accounts, session, now);
    c.set("session", session);
    c.set("ctx", await orgContextOnClock(services, session.org.id));
    await next();
  };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * CSRF protection of every state-changing panel request: the session's synchroniser token, in
 * the form's `_csrf` field or the islands' `X-CSRF-Token` header, must match; and a browser that
 * says where the request comes from (Sec-Fetch-Site) must say this very origin.
 */
export const verifyCsrf: MiddlewareHandler<PanelEnv> = async (c, next) => {
  if (c.req.method === "GET" || c.req.method === "HEAD") return next();
  const site = c.req.header("sec-fetch-site");
  let given = c.req.header("x-csrf-token");
  if (given === undefined) {
    const type = (c.req.header("content-type") ?? "").toLowerCase();
    if (type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/")) {
      const field = (await c.req.parseBody({ all: true }))._csrf;
      if (typeof field === "string") given = field;
    }
  }
  const expected = c.get("session").csrfToken;
  if ((site !== undefined && site !== "same-origin") || !given || !sameToken(given, expected)) {
    throw new ApiError(
      "csrf_failed",
      "This page was open too long or came from somewhere else. Reload it and try again.",
    );
  }
  await next();
};
