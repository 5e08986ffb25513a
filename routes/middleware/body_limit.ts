import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../../lib/errors.ts";

/** Caps a request body at `maxBytes`; a bigger one is a 413 `body_too_large` saying `message`. */
export function limitBody(maxBytes: number, message: string): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError("body_too_large", message);
    },
  });
}
