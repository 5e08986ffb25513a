import type { Context } from "hono";
import { ApiError } from "../lib/errors.ts";
import type { AppEnv } from "./env.ts";
import { limitBody } from "./middleware/body_limit.ts";

/** A code form is a few bytes; anything bigger is not one. */
const MAX_FORM_BYTES = 4096;

/** Caps the body of a code submission. */
export const limitCodeForm = limitBody(
  MAX_FORM_BYTES,
  "The form is larger than a payment code can be.",
);

/** A submitted code, and whether it came from the plain HTML form (no JavaScript). */
export interface CodeSubmission {
  code: string;
  fromForm: boolean;
}

/**
 * Reads the code of a submission: JSON `{"code": "..."}` from the page's island, or the
 * `code` field of the HTML form when the browser runs no JavaScript.
 */
export async function readCodeSubmission(c: Context<AppEnv>): Promise<CodeSubmission> {
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  let value: unknown;
  if (type === "application/json") {
    const body = await c.req.json().catch(() => {
      throw new ApiError("invalid_json", "The request body is not valid JSON.");
    });
    value = (body as { code?: unknown } | null)?.code;
  } else if (type === "application/x-www-form-urlencoded" || type === "multipart/form-data") {
    value = (await c.req.parseBody()).code;
  } else {
    throw new ApiError(
      "unsupported_media_type",
      "Send the code as JSON or as an HTML form.",
    );
  }
  if (typeof value !== "string" || value.length > 32) {
    throw new ApiError("parameter_missing", "Enter the 6-digit code.", { param: "code" });
  }
  return { code: value, fromForm: type !== "application/json" };
}
