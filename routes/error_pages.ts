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

/** A page's title, and its text when the error's own message is not the one to show. */
interface ErrorPageText {
  title: string;
  text?: string;
}

/** A merchant's error pages (the panel, in English). */
const MERCHANT_PAGES: Record<number, ErrorPageText> = {
  400: { title: "Check what you entered" },
  401: { title: "Sign in again" },
  403: { title: "You can't do this here" },
  404: { title: "Not found" },
  409: { title: "That didn't work" },
  413: { title: "That was too much at once" },
  429: { title: "Too many attempts" },
};

const MERCHANT_UNEXPECTED =
  "It wasn't anything you did. Try again in a moment; if it keeps happening, quote the reference below.";

/**
 * What the panel's error page for `error` says to a merchant: the message of any 4xx (written
 * for them); a 5xx never shows its message.
 */
export function merchantErrorText(error: ApiError): { title: string; text: string } {
  const title = MERCHANT_PAGES[error.status]?.title ?? "Something went wrong";
  return { title, text: error.status < 500 ? error.message : MERCHANT_UNEXPECTED };
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
