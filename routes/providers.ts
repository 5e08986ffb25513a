import { Hono } from "hono";
import type { Services } from "../lib/context.ts";
import { ApiError } from "../lib/errors.ts";
import {
  MAX_NOTIFICATION_BYTES,
  receivePayuNotification,
} from "../lib/providers/payu/notifications.ts";
import { PayuProvider } from "../lib/providers/payu/provider.ts";
import { SIGNATURE_HEADER } from "../lib/providers/payu/wire.ts";
import type { AppEnv } from "./env.ts";
import { limitBody } from "./middleware/body_limit.ts";

/**
 * Where payment providers post their decisions; outside /api (PayU has no API key: the
 * notification's signature authenticates it). Mounted only when PayU is the provider.
 */
export function createProviderRoutes(services: Services): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const payu = services.provider;
  if (!(payu instanceof PayuProvider)) return routes;
  return routes.post(
    "/providers/payu/notify",
    limitBody(MAX_NOTIFICATION_BYTES, "A PayU notification is at most 64 KiB."),
    async (c) => {
      const body = await c.req.text();
      if (!await receivePayuNotification(services, payu, body, c.req.header(SIGNATURE_HEADER))) {
        throw new ApiError(
          "signature_invalid",
          "The OpenPayu-Signature header is missing or does not match the body.",
        );
      }
      return c.text("OK", 200);
    },
  );
}
