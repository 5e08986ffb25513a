import type { Context, MiddlewareHandler } from "hono";
import type { ApiKeyAuthenticator } from "../../lib/api_keys.ts";
import type { Services } from "../../lib/context.ts";
import type { AppEnv } from "../env.ts";
import { authenticateApiKey } from "./api_auth.ts";
import { readRequestKey } from "./idempotency.ts";
import { readJsonBody } from "./json_body.ts";

/** What a merchant API request passes before its route. */
export interface ApiRequestSteps {
  services: Services;
  authenticator: ApiKeyAuthenticator;
  /** The rate limits of the authenticated request (429). */
  limit: (c: Context<AppEnv>) => void;
  /** The JSON body's cap and what a larger one is told; absent, the route reads its own body. */
  jsonBody?: { maxBytes: number; tooLarge: string };
}

/**
 * A merchant API request's steps before its route, as one middleware: the API key and its
 * organisation (401), the rate limits (429), and for a POST, PUT or PATCH its JSON body read
 * once and, for a POST, its Idempotency-Key. Each step is a function of its own module; one
 * layer instead of six, as every layer of hono's chain is an async call and a dispatch.
 */
export function apiRequest(steps: ApiRequestSteps): MiddlewareHandler<AppEnv> {
  const { services, authenticator, limit, jsonBody } = steps;
  return async (c, next) => {
    await authenticateApiKey(c, services, authenticator);
    limit(c);
    const method = c.req.method;
    if (jsonBody && (method === "POST" || method === "PUT" || method === "PATCH")) {
      await readJsonBody(c, jsonBody.maxBytes, jsonBody.tooLarge);
      if (method === "POST") readRequestKey(c, services);
    }
    await next();
  };
}
