import type { Context } from "hono";
import { ApiError } from "../../../lib/errors.ts";
import type { MessageKey } from "../../../lib/i18n/mod.ts";
import { translateError } from "../../../lib/panel/error_text.ts";
import { translatorOf } from "./context.ts";

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
}

/**
 * Runs a form's action; an error the person can fix (400, 401, 404, 409, 429) comes back as a
 * problem to show with the form, its headers (a 429's Retry-After) already on the response;
 * anything else is thrown on.
 */
export async function runFormAction<T>(
  c: Context,
  run: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; problem: FormProblem }> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (error instanceof ApiError && [400, 401, 404, 409, 429].includes(error.status)) {
      for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
      return {
        ok: false,
        problem: {
          param: error.param ?? null,
          message: translateError(translatorOf(c), error.message),
          status: error.status,
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

/**
 * Sends the browser back to a page after an action, with a notice the page knows by key. The
 * page shows it once: the islands' client drops `notice` from the address bar (islands/enhance.ts).
 */
export function redirectWith(c: Context, path: string, notice?: string): Response {
  const separator = path.includes("?") ? "&" : "?";
  return c.redirect(notice ? `${path}${separator}notice=${notice}` : path, 303);
}

/**
 * The notice a page was sent back with, if it is one of `known` (never reflected text), in the
 * request's language: `known` maps each notice to its message's key.
 */
export function noticeOf<K extends string>(
  c: Context,
  known: Record<K, MessageKey>,
): string | null {
  const key = c.req.query("notice");
  return key !== undefined && key in known ? translatorOf(c).t(known[key as K]) : null;
}
