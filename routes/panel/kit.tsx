import { timingSafeEqual } from "node:crypto";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { ComponentChildren } from "preact";
import { MessagePage } from "../../components/MessagePage.tsx";
import { type NavKey, type PanelChrome, Shell } from "../../components/panel/Shell.tsx";
import type { ApiKeyAuthenticator } from "../../lib/api_keys.ts";
import type { Config } from "../../lib/config.ts";
import { publicUrlOf } from "../../lib/config.ts";
import type { OrgContext, Services } from "../../lib/context.ts";
import { ApiError } from "../../lib/errors.ts";
import { decide, type PanelAction } from "../../lib/panel/access.ts";
import {
  authenticateSession,
  type ClientInfo,
  type PanelSession,
  SESSION_ABSOLUTE_MS,
  type SignedIn,
  touchSessionIfDue,
  userOrganisations,
} from "../../lib/panel/sessions.ts";
import { orgContextOnClock } from "../../lib/sandbox_clock.ts";
import type { AppEnv } from "../env.ts";
import { clientAddress } from "../middleware/client_address.ts";
import { errorResponse } from "../errors.ts";
import { renderPage } from "../html.tsx";

/** What the panel's routes are built on. */
export interface PanelDeps {
  services: Services;
  /** Forgotten keys must stop working at once in this process (the API caches keys briefly). */
  authenticator: ApiKeyAuthenticator;
  /** The API's OpenAPI document, as `/api/v1/openapi.json` serves it. */
  openApi: () => Promise<unknown>;
}

/** Variables of a signed-in panel request. */
export interface PanelEnv {
  Bindings: AppEnv["Bindings"];
  Variables: AppEnv["Variables"] & { session: PanelSession };
}

export type PanelContext = Context<PanelEnv>;

const DAY_MS = 86_400_000;

// ---------------------------------------------------------------------------------------------
// The session cookie

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

// ---------------------------------------------------------------------------------------------
// Who is asking

/** Who signs in: the client's address (behind a trusted proxy, the one it vouches for) and agent. */
export function clientInfo(c: Context<PanelEnv>, trustedProxies: string[]): ClientInfo {
  const address = clientAddress(c, trustedProxies);
  return {
    address: address === "unknown" ? null : address.slice(0, 64),
    userAgent: c.req.header("user-agent") ?? null,
  };
}

/** Tells whether the client asked for JSON rather than a page (the islands' fetches). */
export function wantsJson(c: Context): boolean {
  const accept = c.req.header("accept") ?? "";
  return accept.includes("application/json") && !accept.includes("text/html");
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
      if (wantsJson(c)) {
        throw new ApiError("not_signed_in", "Your session has ended; sign in again.");
      }
      const next = safe ? c.req.path + (new URL(c.req.url).search) : "/panel";
      const query = next === "/panel" ? "" : `?next=${encodeURIComponent(next)}`;
      return c.redirect(`/panel/sign-in${query}`, 303);
    }
    if (session.passwordChangeRequired && !PASSWORD_PAGES.includes(c.req.path)) {
      if (!safe || wantsJson(c)) {
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

/** The organisation context of a signed-in request. */
export function orgCtx(c: PanelContext): OrgContext {
  return c.get("ctx");
}

/** Who asks, for the access rules. */
export function subjectOf(session: PanelSession) {
  return { role: session.role, plan: session.org.plan };
}

// ---------------------------------------------------------------------------------------------
// Rendering

async function chromeOf(services: Services, c: PanelContext): Promise<PanelChrome> {
  const session = c.get("session");
  const { config } = services;
  const other = services.environment === "sandbox" ? "production" : "sandbox";
  const subject = subjectOf(session);
  const developers = decide("developers", subject, config.quickstartAccess);
  const offset = c.get("ctx").now() - services.clock.now();
  return {
    environment: services.environment,
    otherPanelUrl: `${publicUrlOf(config, other)}/panel`,
    clockAheadDays: Math.round(offset / DAY_MS),
    csrf: session.csrfToken,
    user: { email: session.email, name: session.name, role: session.role },
    org: { name: session.org.name, slug: session.org.slug, plan: session.org.plan },
    organisations: await userOrganisations(services.accounts, session.userId),
    developers: developers.allowed ? "open" : developers.reason === "plan" ? "upgrade" : "hidden",
    quickstart: decide("quickstart", subject, config.quickstartAccess).allowed,
    backupFailure: session.role === "OWNER" && services.backups.failure
      ? {
        at: new Date(services.backups.failure.at).toISOString(),
        message: services.backups.failure.message,
      }
      : null,
  };
}

/** Renders a signed-in page in the panel's frame. */
export async function renderPanel(
  services: Services,
  c: PanelContext,
  page: {
    title: string;
    current: NavKey;
    status?: number;
    scripts?: string[];
    frameSelf?: boolean;
    body: ComponentChildren;
  },
): Promise<Response> {
  const chrome = await chromeOf(services, c);
  return renderPage(
    c as unknown as Context<AppEnv>,
    <Shell title={page.title} current={page.current} chrome={chrome} scripts={page.scripts}>
      {page.body}
    </Shell>,
    { status: page.status, frameSelf: page.frameSelf },
  );
}

const ERROR_TITLES: Record<number, string> = {
  400: "Check what you entered",
  401: "Sign in again",
  403: "You can't do this here",
  404: "Not found",
  409: "That didn't work",
  413: "That was too much at once",
  429: "Too many attempts",
};

/**
 * The panel's error answer: JSON for the islands, else a page in the panel's frame (or a plain
 * one when nobody is signed in). Messages of 4xx errors are written for the merchant and shown;
 * a 500 shows only the request id.
 */
export function renderPanelError(
  services: Services,
  c: PanelContext,
  error: ApiError,
): Promise<Response> {
  if (wantsJson(c)) return Promise.resolve(errorResponse(c as unknown as Context<AppEnv>, error));
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  const title = ERROR_TITLES[error.status] ?? "Something went wrong";
  const text = error.status < 500
    ? error.message
    : "It wasn't anything you did. Try again in a moment; if it keeps happening, quote the reference below.";
  const reference = error.status >= 500 ? c.get("requestId") : undefined;
  const session = c.get("session") as PanelSession | undefined;
  if (session) {
    return renderPanel(services, c, {
      title,
      current: "none",
      status: error.status,
      body: (
        <div class="error-page">
          <h1>{title}</h1>
          <p>{text}</p>
          {reference && (
            <p class="muted">
              Reference: <code>{reference}</code>
            </p>
          )}
          <p>
            <a href="/panel">Back to the home page</a>
          </p>
        </div>
      ),
    });
  }
  return Promise.resolve(renderPage(
    c as unknown as Context<AppEnv>,
    <MessagePage title={title} tone="error" reference={reference}>
      <p>{text}</p>
      <p>
        <a href="/panel">Go to the panel</a>
      </p>
    </MessagePage>,
    { status: error.status },
  ));
}

// ---------------------------------------------------------------------------------------------
// Access

/**
 * Guards routes with an access rule. A page refused for the plan shows `upgrade` (what the plan
 * would give) with 403; anything else refused is the 403 error.
 */
export function allow(
  services: Services,
  action: PanelAction,
  upgrade?: (c: PanelContext) => Promise<Response>,
): MiddlewareHandler<PanelEnv> {
  return (c, next) => {
    const session = c.get("session");
    const decision = decide(action, subjectOf(session), services.config.quickstartAccess);
    if (decision.allowed) return next();
    if (
      decision.reason === "plan" && upgrade && c.req.method === "GET" && !wantsJson(c)
    ) {
      return upgrade(c);
    }
    if (decision.reason === "role") {
      const roles = decision.roles.map((role) => `${role.toLowerCase()}s`).join(" and ");
      throw new ApiError(
        "role_required",
        `This part of the panel is for ${roles}; you are a ${session.role.toLowerCase()} of ` +
          `${session.org.name}. Ask an owner if you need it.`,
      );
    }
    throw new ApiError(
      "plan_required",
      `This needs plan ${decision.plan} or higher; ${session.org.name} is on ${session.org.plan}.`,
    );
  };
}

// ---------------------------------------------------------------------------------------------
// Forms

/** A submitted form, field by field. */
export type Form = Record<string, string | string[]>;

/** Reads a form post (urlencoded or multipart), every field as text. */
export async function readForm(c: Context): Promise<Form> {
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/")) {
    throw new ApiError("unsupported_media_type", "Send this form from its page.");
  }
  const body = await c.req.parseBody({ all: true });
  const form: Form = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === "string") form[name] = value;
    else if (Array.isArray(value)) {
      form[name] = value.filter((item): item is string => typeof item === "string");
    }
  }
  return form;
}

/** One text field ("" when absent). */
export function field(form: Form, name: string): string {
  const value = form[name];
  return typeof value === "string" ? value : Array.isArray(value) ? value[0] ?? "" : "";
}

/** Every value of a repeated field (checkboxes). */
export function fields(form: Form, name: string): string[] {
  const value = form[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** A problem to show next to a form: the field it is about, if any, and the message. */
export interface FormProblem {
  param: string | null;
  message: string;
  status: number;
  headers?: Record<string, string>;
}

/**
 * Runs a form's action; an error the person can fix (400, 401, 404, 409, 429) comes back as a
 * problem to show with the form, anything else is thrown on.
 */
export async function attempt<T>(
  run: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; problem: FormProblem }> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (error instanceof ApiError && [400, 401, 404, 409, 429].includes(error.status)) {
      return {
        ok: false,
        problem: {
          param: error.param ?? null,
          message: error.message,
          status: error.status,
          headers: error.headers,
        },
      };
    }
    throw error;
  }
}

/** The message of a problem for one field, or null. */
export function problemFor(problem: FormProblem | null | undefined, ...params: string[]) {
  if (!problem || problem.param === null) return null;
  return params.some((param) => problem.param === param || problem.param!.startsWith(`${param}.`))
    ? problem.message
    : null;
}

/** The message of a problem that belongs to no field shown, or null. */
export function problemOfForm(problem: FormProblem | null | undefined, shown: string[]) {
  if (!problem) return null;
  if (problem.param !== null && shown.some((param) => problem.param!.startsWith(param))) {
    return null;
  }
  return problem.message;
}

/** Sends the browser back to a page after an action, with a notice the page knows by key. */
export function redirectWith(c: Context, path: string, notice?: string): Response {
  const separator = path.includes("?") ? "&" : "?";
  return c.redirect(notice ? `${path}${separator}notice=${notice}` : path, 303);
}

/** The notice a page was sent back with, if it is one of `known` (never reflected text). */
export function noticeOf<K extends string>(
  c: Context,
  known: Record<K, string>,
): string | null {
  const key = c.req.query("notice");
  return key !== undefined && key in known ? known[key as K] : null;
}
