import { createRoute } from "@hono/zod-openapi";
import { ListQuery } from "../../lib/schemas.ts";
import { listEventDeliveries, resendEvent } from "../../lib/webhooks/deliveries.ts";
import { ResendEventRequest, ResendResult, WebhookDelivery } from "../../lib/webhooks/schemas.ts";
import {
  createApiRouter,
  errors,
  idempotencyHeader,
  idParam,
  json,
  listResponse,
} from "./openapi.ts";
import { answered } from "./answers.ts";

const tags = ["Webhooks"];
const EventIdParam = idParam("id", "evt_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1");

/** `/api/v1/events/{id}/deliveries` and `/resend`: an event's webhook deliveries. */
export const webhookDeliveries = createApiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/{id}/deliveries",
      operationId: "listEventDeliveries",
      summary: "List an event's webhook deliveries",
      description: "One delivery per endpoint (plus resends and tests), each with every " +
        "attempt: status, latency and the first 1 KiB of the answer.",
      tags,
      request: { params: EventIdParam, query: ListQuery },
      responses: {
        200: listResponse("Deliveries, newest first.", WebhookDelivery, "WebhookDeliveryList"),
        ...errors(400, 401, 403, 404),
      },
    }),
    async (c) => {
      const page = await listEventDeliveries(
        c.get("ctx"),
        c.req.valid("param").id,
        c.req.valid("query"),
      );
      return c.json(page, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{id}/resend",
      operationId: "resendEvent",
      summary: "Resend an event",
      description: "To one endpoint (`endpointId`) or to every enabled endpoint subscribed to " +
        "the event's type. A delivery still retrying is brought forward rather than duplicated.",
      tags,
      parameters: [idempotencyHeader],
      request: {
        params: EventIdParam,
        body: { required: false, ...json(ResendEventRequest) },
      },
      responses: {
        202: { description: "The deliveries now due.", ...json(ResendResult) },
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    (c) =>
      answered(
        c,
        202,
        (ctx) => resendEvent(ctx, c.req.valid("param").id, c.req.valid("json") ?? {}),
        (deliveries) => ({ data: deliveries }),
      ),
  );
