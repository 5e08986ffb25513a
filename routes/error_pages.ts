import type { Context } from "hono";
import type { ApiError } from "../lib/errors.ts";

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

/** Who reads an error page: a customer on a public page, or a merchant in the panel. */
export type ErrorReader = "customer" | "merchant";

/** A page's title, and its text when the error's own message is not the one to show. */
interface ErrorPageText {
  title: string;
  text?: string;
}

const ERROR_PAGES: Record<number, Partial<Record<ErrorReader, ErrorPageText>>> = {
  400: {
    customer: { title: "Check what you entered" },
    merchant: { title: "Check what you entered" },
  },
  401: { merchant: { title: "Sign in again" } },
  403: {
    customer: {
      title: "This page is out of date",
      text: "Go back, reload the page and try again.",
    },
    merchant: { title: "You can't do this here" },
  },
  404: {
    customer: {
      title: "We can't find this page",
      text:
        "The link may be incomplete or out of date. Check it, or ask the merchant for a new one.",
    },
    merchant: { title: "Not found" },
  },
  409: {
    customer: {
      title: "This payment has already changed",
      text: "Go back and reload the payment page to see where it stands.",
    },
    merchant: { title: "That didn't work" },
  },
  413: { merchant: { title: "That was too much at once" } },
  429: {
    customer: { title: "Too many attempts" },
    merchant: { title: "Too many attempts" },
  },
};

const UNEXPECTED: Record<ErrorReader, string> = {
  customer: "It wasn't anything you did. Please try again in a moment.",
  merchant:
    "It wasn't anything you did. Try again in a moment; if it keeps happening, quote the reference below.",
};

/**
 * What the error page for `error` says to `reader`. A merchant reads the message of any 4xx
 * (written for them); a customer reads only those the table lets through, since other messages
 * may name internals. A 5xx never shows its message.
 */
export function errorPageText(
  error: ApiError,
  reader: ErrorReader,
): { title: string; text: string } {
  const entry = ERROR_PAGES[error.status]?.[reader];
  const title = entry?.title ?? "Something went wrong";
  if (entry) return { title, text: entry.text ?? error.message };
  if (reader === "merchant" && error.status < 500) return { title, text: error.message };
  return { title, text: UNEXPECTED[reader] };
}
