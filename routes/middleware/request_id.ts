import type { MiddlewareHandler } from "hono";
import { newId } from "../../lib/ids.ts";
import type { AppEnv } from "../env.ts";

/** Gives every request a `req_...` id, sent back as `Request-Id` on every response. */
export const requestId: MiddlewareHandler<AppEnv> = async (c, next) => {
  const id = newId("request");
  c.set("requestId", id);
  await next();
  c.res.headers.set("Request-Id", id);
};
