import { createRoute } from "@hono/zod-openapi";
import {
  cancelSubscription,
  getSubscription,
  listSubscriptions,
  toSubscription,
} from "../../lib/subscriptions/mod.ts";
import {
  CancelSubscriptionRequest,
  ListSubscriptionsQuery,
  Subscription,
} from "../../lib/subscriptions/schemas.ts";
import {
  createApiRouter,
  errors,
  idempotencyHeader,
  idParam,
  json,
  listPage,
  listResponse,
} from "./openapi.ts";
import { answered } from "./answers.ts";

const tags = ["Subscriptions"];
const SubscriptionIdParam = idParam("subscriptionId", "sub_4f9TqYcW2mJx8bN3kL6pR1sV");

/** `/api/v1/subscriptions`: subscriptions started by payments for recurring offers. */
export const subscriptions = createApiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/",
      operationId: "listSubscriptions",
      summary: "List subscriptions",
      description: "Subscriptions newest first, optionally by status or offer.",
      tags,
      request: { query: ListSubscriptionsQuery },
      responses: {
        200: listResponse("Subscriptions, newest first.", Subscription, "SubscriptionList"),
        ...errors(400, 401, 403),
      },
    }),
    async (c) => {
      const page = await listSubscriptions(c.get("ctx"), c.req.valid("query"));
      return c.json(listPage(page, toSubscription), 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{subscriptionId}",
      operationId: "getSubscription",
      summary: "Get a subscription",
      description: "One subscription with its current period and next charge.",
      tags,
      request: { params: SubscriptionIdParam },
      responses: {
        200: { description: "The subscription.", ...json(Subscription) },
        ...errors(401, 403, 404),
      },
    }),
    async (c) => {
      const subscription = await getSubscription(c.get("ctx"), c.req.valid("param").subscriptionId);
      return c.json(toSubscription(subscription), 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{subscriptionId}/cancel",
      operationId: "cancelSubscription",
      summary: "Cancel a subscription",
      description: "Cancels now (`subscription.canceled`), or with `atPeriodEnd: true` at the " +
        "end of the paid period instead of renewing. No refund is made; refund the latest " +
        "payment if you owe one. An unpaid renewal link is canceled with it (`payment.canceled`), " +
        "so the customer can no longer pay it. 409 if already CANCELED, if `atPeriodEnd` is " +
        "asked of a PAST_DUE subscription, or while a renewal is being charged or paid.",
      tags,
      parameters: [idempotencyHeader],
      request: {
        params: SubscriptionIdParam,
        body: { required: false, ...json(CancelSubscriptionRequest) },
      },
      responses: {
        200: { description: "The subscription after the cancellation.", ...json(Subscription) },
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    (c) =>
      answered(
        c,
        200,
        (ctx) => cancelSubscription(ctx, c.req.valid("param").subscriptionId, c.req.valid("json")),
        toSubscription,
      ),
  );
