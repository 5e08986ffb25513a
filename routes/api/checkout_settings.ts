import { createRoute } from "@hono/zod-openapi";
import { CheckoutSettings } from "../../lib/checkout/schemas.ts";
import { getCheckoutSettings, putCheckoutSettings } from "../../lib/checkout/settings.ts";
import { createApiRouter, errors, json, jsonBody } from "./openapi.ts";

const tags = ["Checkout sessions"];

/** `/api/v1/checkout-settings`: the origins allowed to embed checkout (frame-ancestors). */
export const checkoutSettings = createApiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/",
      operationId: "getCheckoutSettings",
      summary: "Get the checkout settings",
      description: "The origins allowed to embed this organisation's checkout sessions.",
      tags,
      responses: {
        200: { description: "The allowed embedding origins.", ...json(CheckoutSettings) },
        ...errors(401, 403),
      },
    }),
    async (c) => c.json(await getCheckoutSettings(c.get("ctx")), 200),
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/",
      operationId: "putCheckoutSettings",
      summary: "Replace the allowed embedding origins",
      description: "Each origin is scheme://host[:port] with no path and no wildcard; https:// " +
        "only (http:// for localhost in the sandbox). Sessions created earlier stop rendering " +
        "once their origin is removed.",
      tags,
      request: { body: jsonBody(CheckoutSettings) },
      responses: {
        200: { description: "The saved settings, normalised.", ...json(CheckoutSettings) },
        ...errors(400, 401, 403),
      },
    }),
    async (c) => c.json(await putCheckoutSettings(c.get("ctx"), c.req.valid("json")), 200),
  );
