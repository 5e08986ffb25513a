import type { MiddlewareHandler } from "hono";
import type { Services } from "../../lib/context.ts";
import { ApiError } from "../../lib/errors.ts";
import {
  claimIdempotencyKey,
  IdempotentRequest,
  isWellFormedKey,
  requestFingerprint,
} from "../../lib/idempotency.ts";
import type { AppEnv } from "../env.ts";

/**
 * Makes a POST with an `Idempotency-Key` safe to retry: the first response is replayed with
 * `Idempotent-Replayed: true`; the same key with another request, or while the first is still
 * running, is a 409. Runs after authentication and JSON parsing, before validation.
 */
export function idempotency(services: Services): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // The method first: reading a header costs more than comparing a string.
    if (c.req.method !== "POST") return next();
    const key = c.req.header("idempotency-key");
    if (key === undefined) return next();
    if (!isWellFormedKey(key)) {
      throw new ApiError(
        "parameter_invalid",
        "Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.",
        { param: "Idempotency-Key" },
      );
    }
    const ctx = c.get("ctx");
    const claim = await claimIdempotencyKey(services.store, {
      orgId: ctx.orgId,
      key,
      fingerprint: requestFingerprint("POST", c.req.path, c.get("jsonBody")),
      now: services.clock.now(),
    });
    if (claim.kind === "replay") {
      return c.body(claim.response.body, claim.response.status as 200, {
        "Content-Type": claim.response.contentType,
        "Idempotent-Replayed": "true",
      });
    }
    const request = new IdempotentRequest(services.store, claim);
    c.set("ctx", { ...ctx, write: request.write });
    await next();
    await request.finish({
      status: c.res.status,
      contentType: c.res.headers.get("content-type") ?? "application/json",
      body: await c.res.clone().text(),
    });
  };
}
