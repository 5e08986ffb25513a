import type { Context } from "hono";
import type { ApiError } from "../lib/errors.ts";
import { type Language, translator } from "../lib/i18n/mod.ts";

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

/** The statuses a customer's error page explains in its own words; others are "went wrong". */
const CUSTOMER_STATUSES = [400, 403, 404, 409, 429] as const;

/**
 * What a customer's error page for `error` says, in `language`. Never the error's own message,
 * which is written for developers and may name internals.
 */
export function customerErrorText(
  error: ApiError,
  language: Language,
): { title: string; text: string } {
  const { t } = translator(language);
  const status = CUSTOMER_STATUSES.find((known) => known === error.status);
  if (status === undefined) return { title: t("error.other.title"), text: t("error.other.text") };
  return { title: t(`error.${status}.title`), text: t(`error.${status}.text`) };
}
