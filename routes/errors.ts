import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { StorageUnavailableError } from "../db/storage_health.ts";
import { ApiError } from "../lib/errors.ts";
import { errorFields, type Logger } from "../lib/log.ts";
import type { AppEnv } from "./env.ts";

/** How long a client is asked to wait when the storage cannot take writes. */
const STORAGE_RETRY_AFTER_S = 5;

/** The contract's error body for an `ApiError`. */
function errorBody(error: ApiError, requestId: string) {
  return {
    error: {
      type: error.type,
      code: error.code,
      message: error.message,
      ...(error.param !== undefined && { param: error.param }),
      requestId,
    },
  };
}

/** Renders an `ApiError` as a JSON response with its status and headers. */
export function errorResponse<E extends AppEnv>(c: Context<E>, error: ApiError): Response {
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  return c.json(errorBody(error, c.get("requestId")), error.status as ContentfulStatusCode);
}

/** Turns anything thrown into an `ApiError`; unexpected errors are logged and become a 500. */
export function toApiError(error: unknown, log: Logger, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    switch (error.status) {
      case 400:
        return new ApiError("invalid_json", "The request body is not valid JSON.");
      case 413:
        return new ApiError("body_too_large", "The request body is larger than 1 MiB.");
      case 415:
        return new ApiError(
          "unsupported_media_type",
          "Send the request body as JSON with 'Content-Type: application/json'.",
        );
    }
  }
  // The store logs a storage failure once, when it starts; it is no news per request.
  if (error instanceof StorageUnavailableError) {
    return new ApiError(
      "storage_unavailable",
      "The server cannot store anything right now; nothing of this request was kept. Retry later.",
      { headers: { "Retry-After": String(STORAGE_RETRY_AFTER_S) } },
    );
  }
  log.error("unhandled error", { requestId, ...errorFields(error) });
  return new ApiError(
    "internal_error",
    `Something went wrong on our side; nothing you did caused it. Quote ${requestId} if you contact support.`,
  );
}

function paramOf(path: PropertyKey[]): string {
  return path.map(String).join(".");
}

/**
 * The issue to report: for a body that fits none of a union's shapes, the first issue of the
 * shape it comes closest to (the fewest issues; the first shape on a tie), so a sandbox complete
 * without a code still says `code` is missing.
 */
function reportedIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return issue;
  const closest = issue.errors.reduce((best, branch) =>
    branch.length < best.length ? branch : best
  );
  const inner = reportedIssue(closest[0]);
  return { ...inner, path: [...issue.path, ...inner.path] };
}

/** Turns a zod failure into the 400 for its first problem, with `param` naming the field. */
export function validationError(error: z.ZodError, target: string): ApiError {
  const issue = reportedIssue(error.issues[0]);
  const where = target === "query"
    ? "query parameter"
    : target === "param"
    ? "path parameter"
    : "field";
  if (issue.code === "unrecognized_keys") {
    const param = paramOf([...issue.path, issue.keys[0]]);
    return new ApiError("parameter_unknown", `Unknown ${where} '${param}'.`, { param });
  }
  const param = paramOf(issue.path);
  if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) {
    return new ApiError("parameter_missing", `Missing required ${where} '${param}'.`, { param });
  }
  const subject = param === "" ? "The request body" : `'${param}'`;
  return new ApiError("parameter_invalid", `${subject}: ${issue.message}.`, {
    ...(param !== "" && { param }),
  });
}
