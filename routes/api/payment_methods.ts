import { createRoute } from "@hono/zod-openapi";
import { offeredMethods } from "../../lib/payments/methods.ts";
import { OfferedMethod, PaymentMethodsQuery } from "../../lib/payments/schemas.ts";
import { createApiRouter, errors, json } from "./openapi.ts";
import { z } from "zod";

/** `/api/v1/payment-methods`: what the configured provider offers now. */
export const paymentMethods = createApiRouter().openapi(
  createRoute({
    method: "get",
    path: "/",
    operationId: "listPaymentMethods",
    summary: "List the payment methods offered now",
    description: "What the payment provider offers now, kept at most 5 minutes: BLIK (a code on " +
      "Paystead's page) and the methods paid on the provider's page, a transfer with its banks. " +
      "Disabled methods and those outside their amount range are left out; temporarily disabled " +
      "ones are shown as such. 503 when the provider cannot be asked.",
    tags: ["Payments"],
    request: { query: PaymentMethodsQuery },
    responses: {
      200: {
        description: "The methods, in the order the hosted page shows them.",
        ...json(z.strictObject({ data: z.array(OfferedMethod) }).meta({ id: "PaymentMethodList" })),
      },
      ...errors(400, 401, 403, 503),
    },
  }),
  async (c) =>
    c.json({ data: await offeredMethods(c.get("ctx").services, c.req.valid("query")) }, 200),
);
