import type { Context, MiddlewareHandler } from "hono";
import { ApiError } from "../../lib/errors.ts";
import type { TokenBucketLimiter } from "../../lib/rate_limit.ts";
import type { AppEnv } from "../env.ts";

/** Refuses a request with 429 and `Retry-After` when its key's bucket is empty. */
export function rateLimit(
  limiter: TokenBucketLimiter,
  keyOf: (c: Context<AppEnv>) => string,
  message: string,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    takeOrRefuse(limiter, keyOf(c), message);
    await next();
  };
}

/** Takes a request from `key`'s bucket, or refuses it with 429 and `Retry-After`. */
export function takeOrRefuse(limiter: TokenBucketLimiter, key: string, message: string): void {
  const decision = limiter.take(key);
  if (!decision.allowed) {
    const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    throw new ApiError("rate_limited", `${message} Retry after ${seconds} s.`, {
      headers: { "Retry-After": String(seconds) },
    });
  }
}
