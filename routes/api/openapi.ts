import { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import { ErrorBody, listOf, type Page } from "../../lib/schemas.ts";
import type { AppEnv } from "../env.ts";
import { validationError } from "../errors.ts";

/** A router for one API resource whose validation failures become the contract's 400. */
export function createApiRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error, result.target);
    },
  });
}

/** A JSON content entry for a request or response. */
export function json<T extends z.ZodType>(schema: T) {
  return { content: { "application/json": { schema } } };
}

/** A required JSON request body. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, ...json(schema) };
}

/** An optional JSON body that must be an empty object when sent (no unknown fields). */
export const emptyBody = { required: false, ...json(z.strictObject({})) };

/** What each error status of the API means, in every operation that can answer it. */
export const ERROR_DESCRIPTIONS = {
  400: "Invalid request: malformed JSON, a failed validation (`param` names the field), an " +
    "unknown field, or a path id longer than 100 characters.",
  401: "Missing, unknown, revoked or expired API key, or a key of the other environment.",
  403: "The organisation's plan or the caller's role does not allow this.",
  404: "No such resource in this organisation.",
  409: "The resource's state does not allow this, or an Idempotency-Key conflict.",
  413: "The request body is larger than 1 MiB.",
  415: "The request body is not JSON (send Content-Type: application/json, UTF-8).",
  429: "Too many requests for this API key or its organisation (or too many open event " +
    "streams, or recoveries); see Retry-After.",
  503: "The server is stopping or its storage cannot take writes; nothing was changed, the " +
    "Idempotency-Key is released. Retry after Retry-After.",
} as const;

/** The documented error responses of an operation. */
export function errors<S extends keyof typeof ERROR_DESCRIPTIONS>(...statuses: S[]) {
  return Object.fromEntries(
    statuses.map((
      status,
    ) => [status, { description: ERROR_DESCRIPTIONS[status], ...json(ErrorBody) }]),
  ) as unknown as Record<
    S,
    { description: string; content: { "application/json": { schema: typeof ErrorBody } } }
  >;
}

/** The 200 of a list operation: a page of `item` resources (`id` names the page's schema). */
export function listResponse<T extends z.ZodType>(description: string, item: T, id: string) {
  return { description, ...json(listOf(item, id)) };
}

/** A list operation's body: the page of domain results, each mapped to its resource. */
export function listPage<T, R>(page: Page<T>, toResource: (item: T) => R): Page<R> {
  return { data: page.data.map((item) => toResource(item)), hasMore: page.hasMore };
}

/** The path parameter `name`: a resource's id, like `example`. */
export function idParam<N extends string>(name: N, example: string) {
  return z.object({ [name]: z.string().max(100).meta({ example }) } as { [K in N]: z.ZodString });
}

/**
 * The `Idempotency-Key` header every POST accepts, as the OpenAPI document names it. Documented,
 * not validated here: the idempotency middleware checks it (400, `param: Idempotency-Key`), and
 * a zod header validator would gather and parse every header of every POST again.
 */
export const idempotencyHeader = {
  name: "idempotency-key",
  in: "header",
  required: false,
  description:
    "Makes a retry safe: the first response is replayed for 24 hours (Idempotent-Replayed: true).",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
} as const;
