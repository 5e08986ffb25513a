import type { Context } from "hono";
import type { Services } from "../../lib/context.ts";
import { ApiError } from "../../lib/errors.ts";
import { isWellFormedKey, requestFingerprint } from "../../lib/idempotency.ts";
import type { AppEnv } from "../env.ts";

/**
 * Reads a POST's `Idempotency-Key`: a malformed one is 400; a well-formed one is the request's
 * `requestKey`, which its route's write carries (`keyed` and `answered`, routes/api/answers.ts).
 * Runs after authentication and JSON parsing, before validation. Writes nothing.
 */
export function readRequestKey(c: Context<AppEnv>, services: Services): void {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return;
  if (!isWellFormedKey(key)) {
    throw new ApiError(
      "parameter_invalid",
      "Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.",
      { param: "Idempotency-Key" },
    );
  }
  c.set("requestKey", {
    orgId: c.get("ctx").orgId,
    key,
    fingerprint: requestFingerprint("POST", c.req.path, c.get("jsonBody")),
    at: services.clock.now(),
  });
}
