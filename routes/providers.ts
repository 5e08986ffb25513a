import { Hono } from "hono";
import type { Services } from "../lib/context.ts";
import { ApiError } from "../lib/errors.ts";
import { receiveProviderCallback } from "../lib/payments/callbacks.ts";
import type { AppEnv } from "./env.ts";
import { limitBody } from "./middleware/body_limit.ts";

/**
 * Where the payment provider posts its decisions, `/providers/{name}/notify`; outside /api (a
 * provider has no API key: the callback's signature authenticates it). Any other name, and any
 * name for a provider that posts none, is the root's 404.
 */
export function createProviderRoutes(services: Services): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { provider } = services;
  const notifications = provider.notifications;
  if (notifications === null) return routes;
  return routes.post(
    "/providers/:provider/notify",
    async (c, next) => c.req.param("provider") === provider.name ? await next() : c.notFound(),
    limitBody(
      notifications.maxBytes,
      `A ${provider.status.displayName} notification is at most ${
        notifications.maxBytes / 1024
      } KiB.`,
    ),
    async (c) => {
      const callback = { headers: c.req.raw.headers, body: await c.req.text() };
      if (!await receiveProviderCallback(services, callback)) {
        throw new ApiError("signature_invalid", notifications.signatureProblem);
      }
      return c.text("OK", 200);
    },
  );
}
