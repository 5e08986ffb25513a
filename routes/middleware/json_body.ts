import type { Context } from "hono";
import { ApiError } from "../../lib/errors.ts";
import type { AppEnv } from "../env.ts";
import { readBodyUpTo } from "./body_limit.ts";

const MAX_DEPTH = 32;
const utf8 = new TextDecoder("utf-8", { fatal: true });

function tooDeep(value: unknown, depth: number): boolean {
  if (value === null || typeof value !== "object") return false;
  if (depth >= MAX_DEPTH) return true;
  for (const child of Object.values(value)) if (tooDeep(child, depth + 1)) return true;
  return false;
}

/**
 * Reads a JSON request body once, with errors a person can act on: larger than `maxBytes`
 * (413 `tooLarge`, read no further), wrong content type (415), invalid UTF-8, invalid JSON or
 * nesting deeper than 32 levels (400). The parsed value is handed to the route validators
 * through hono's body cache.
 */
export async function readJsonBody(
  c: Context<AppEnv>,
  maxBytes: number,
  tooLarge: string,
): Promise<void> {
  const declared = c.req.header("content-length");
  if (declared !== undefined && Number(declared) > maxBytes) {
    throw new ApiError("body_too_large", tooLarge);
  }
  // A declared length is what the server reads, no more; a chunked body is read up to the cap,
  // and kept where hono's validators look for the body it consumed.
  let raw: Uint8Array;
  if (declared !== undefined) {
    raw = new Uint8Array(await c.req.arrayBuffer());
  } else {
    raw = await readBodyUpTo(c.req.raw, maxBytes);
    // hono keeps each body as its promise, whatever the type of bodyCache says.
    (c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer> }).arrayBuffer = Promise.resolve(
      raw.buffer as ArrayBuffer,
    );
  }
  if (raw.byteLength > maxBytes) throw new ApiError("body_too_large", tooLarge);
  if (raw.byteLength === 0) return;
  const contentType = c.req.header("content-type") ?? "";
  const [mediaType, ...params] = contentType.split(";").map((part) => part.trim().toLowerCase());
  if (mediaType !== "application/json") {
    throw new ApiError(
      "unsupported_media_type",
      `Send the request body as JSON with 'Content-Type: application/json' (got '${
        contentType || "no Content-Type"
      }').`,
    );
  }
  const charset = params.find((param) => param.startsWith("charset="))?.slice(8).replace(/"/g, "");
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    throw new ApiError("unsupported_media_type", "JSON request bodies must be UTF-8.");
  }
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(raw));
  } catch (error) {
    const reason = error instanceof TypeError
      ? "it is not valid UTF-8"
      : `it is not valid JSON (${(error as Error).message})`;
    throw new ApiError("invalid_json", `The request body could not be read: ${reason}.`);
  }
  if (tooDeep(value, 0)) {
    throw new ApiError(
      "invalid_json",
      `The request body is nested deeper than ${MAX_DEPTH} levels.`,
    );
  }
  c.set("jsonBody", value);
  c.req.bodyCache.json = Promise.resolve(value);
}
