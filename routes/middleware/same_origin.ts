import type { MiddlewareHandler } from "hono";
import type { Services } from "../../lib/context.ts";
import { ApiError } from "../../lib/errors.ts";
import type { AppEnv } from "../env.ts";

/**
 * CSRF protection for the public pages' forms. The pages have no cookies or sessions to ride
 * on, so what matters is that only a page of this origin can submit: the browser's own
 * `Sec-Fetch-Site` must say same-origin, or, from a browser that does not send it, `Origin` must
 * be this service's public origin. A request with neither is refused too; scripts use the API.
 */
export function sameOriginOnly(services: Services): MiddlewareHandler<AppEnv> {
  const publicOrigin = new URL(services.config.publicUrl).origin;
  return async (c, next) => {
    const site = c.req.header("sec-fetch-site");
    const allowed = site !== undefined
      ? site === "same-origin"
      : c.req.header("origin") === publicOrigin;
    if (!allowed) {
      throw new ApiError(
        "csrf_failed",
        "This form can only be sent from its own page; reload the page and try again.",
      );
    }
    await next();
  };
}
