import type { MiddlewareHandler } from "hono";
import { newId } from "../../lib/ids.ts";
import type { AppEnv } from "../env.ts";

/**
 * Gives every request a `req_...` id, sent back as `Request-Id` on every response. Set before
 * the handler, so every response made through the context carries it (a handler's own Response,
 * the event stream's, names it itself): adding it to a finished response would copy its headers.
 */
export const requestId: MiddlewareHandler<AppEnv> = (c, next) => {
  const id = newId("request");
  c.set("requestId", id);
  c.header("Request-Id", id);
  return next();
};
