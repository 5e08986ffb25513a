import { createRoute } from "@hono/zod-openapi";
import { ListQuery } from "../../lib/schemas.ts";
import { toWebhookDelivery } from "../../lib/webhooks/deliveries.ts";
import {
  recoverEvents,
  RecoverEventsRequest,
  WebhookRecovery,
} from "../../lib/webhooks/recovery.ts";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpointRecords,
  listWebhookEndpoints,
  revealWebhookEndpointSecret,
  rotateWebhookEndpointSecret,
  sendTestWebhook,
  toWebhookEndpoint,
  toWebhookEndpointRecord,
  toWebhookEndpointWithSecret,
  updateWebhookEndpoint,
} from "../../lib/webhooks/endpoints.ts";
import {
  CreateWebhookEndpointRequest,
  DeletedWebhookEndpoint,
  UpdateWebhookEndpointRequest,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointRecord,
  WebhookEndpointSecret,
  WebhookEndpointWithSecret,
} from "../../lib/webhooks/schemas.ts";
import {
  createApiRouter,
  emptyBody,
  errors,
  idempotencyHeader,
  idParam,
  json,
  jsonBody,
  listPage,
  listResponse,
} from "./openapi.ts";
import { answered } from "./answers.ts";

const tags = ["Webhooks"];
const EndpointIdParam = idParam("id", "we_4f9TqYcW2mJx8bN3kL6pR1sV");

/** `/api/v1/webhook-endpoints`: where events are delivered, and their signing secrets. */
export const webhookEndpoints = createApiRouter()
  .openapi(
    createRoute({
      method: "post",
      path: "/",
      operationId: "createWebhookEndpoint",
      summary: "Register a webhook endpoint",
      description: "Returns the signing secret (`whsec_...`). The endpoint receives events " +
        "recorded from now on. Production URLs must be https:// and resolve to public addresses.",
      tags,
      parameters: [idempotencyHeader],
      request: { body: jsonBody(CreateWebhookEndpointRequest) },
      responses: {
        201: {
          description: "The new endpoint and its secret.",
          ...json(WebhookEndpointWithSecret),
        },
        ...errors(400, 401, 403, 409),
      },
    }),
    (c) =>
      answered(
        c,
        201,
        (ctx) => createWebhookEndpoint(ctx, c.req.valid("json")),
        toWebhookEndpointWithSecret,
      ),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/",
      operationId: "listWebhookEndpoints",
      summary: "List webhook endpoints",
      description: "Webhook endpoints newest first, without their secrets.",
      tags,
      request: { query: ListQuery },
      responses: {
        200: listResponse("Endpoints, newest first.", WebhookEndpoint, "WebhookEndpointList"),
        ...errors(400, 401, 403),
      },
    }),
    async (c) => {
      const page = await listWebhookEndpoints(c.get("ctx"), c.req.valid("query"));
      return c.json(listPage(page, toWebhookEndpoint), 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{id}",
      operationId: "getWebhookEndpoint",
      summary: "Get a webhook endpoint",
      description: "One webhook endpoint, without its secret.",
      tags,
      request: { params: EndpointIdParam },
      responses: {
        200: { description: "The endpoint (without its secret).", ...json(WebhookEndpoint) },
        ...errors(401, 403, 404),
      },
    }),
    async (c) => {
      const endpoint = await getWebhookEndpoint(c.get("ctx"), c.req.valid("param").id);
      return c.json(toWebhookEndpoint(endpoint), 200);
    },
  )
  .openapi(
    createRoute({
      method: "patch",
      path: "/{id}",
      operationId: "updateWebhookEndpoint",
      summary: "Update, disable or re-enable a webhook endpoint",
      description:
        "Changes the URL, subscriptions or description; `enabled: false` stops deliveries and cancels pending ones, `enabled: true` delivers events recorded from then on (recover older ones with `POST .../recover`).",
      tags,
      request: { params: EndpointIdParam, body: jsonBody(UpdateWebhookEndpointRequest) },
      responses: {
        200: { description: "The updated endpoint.", ...json(WebhookEndpoint) },
        ...errors(400, 401, 403, 404),
      },
    }),
    async (c) => {
      const endpoint = await updateWebhookEndpoint(
        c.get("ctx"),
        c.req.valid("param").id,
        c.req.valid("json"),
      );
      return c.json(toWebhookEndpoint(endpoint), 200);
    },
  )
  .openapi(
    createRoute({
      method: "delete",
      path: "/{id}",
      operationId: "deleteWebhookEndpoint",
      summary: "Delete a webhook endpoint",
      description: "Cancels its pending deliveries; past deliveries stay visible on their events.",
      tags,
      request: { params: EndpointIdParam },
      responses: {
        200: { description: "The endpoint is deleted.", ...json(DeletedWebhookEndpoint) },
        ...errors(401, 403, 404),
      },
    }),
    async (c) => {
      const endpoint = await deleteWebhookEndpoint(c.get("ctx"), c.req.valid("param").id);
      return c.json({ id: endpoint.public_id, deleted: true as const }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{id}/rotate-secret",
      operationId: "rotateWebhookEndpointSecret",
      summary: "Rotate the signing secret",
      description: "Returns the new secret. For 24 hours every delivery carries two signatures, " +
        "one per secret, so the receiver can switch without rejecting any.",
      tags,
      parameters: [idempotencyHeader],
      request: { params: EndpointIdParam, body: emptyBody },
      responses: {
        200: {
          description: "The endpoint and its new secret.",
          ...json(WebhookEndpointWithSecret),
        },
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    (c) =>
      answered(
        c,
        200,
        (ctx) => rotateWebhookEndpointSecret(ctx, c.req.valid("param").id),
        toWebhookEndpointWithSecret,
      ),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{id}/recover",
      operationId: "recoverWebhookEvents",
      summary: "Queue a window of events again",
      description: "Queues again, for this endpoint, every event of the types it subscribes to " +
        "created in `[since, until)`: for a receiver that was down, an endpoint that was " +
        "disabled, or an organisation whose deliveries were paused. Each delivery shows trigger " +
        "RECOVERY and carries the event's own `webhook-id`. Events the endpoint already " +
        "received are left out unless `includeDelivered` (once an hour per endpoint, 429 " +
        "`recovery_rate_limited` otherwise). At most 10000 events per window and pending per " +
        "endpoint; the same window again answers 200 with the first recovery and queues nothing.",
      tags,
      parameters: [idempotencyHeader],
      request: {
        params: EndpointIdParam,
        body: jsonBody(RecoverEventsRequest),
      },
      responses: {
        201: { description: "The recovery; its deliveries are due now.", ...json(WebhookRecovery) },
        200: { description: "This window was recovered before.", ...json(WebhookRecovery) },
        ...errors(400, 401, 403, 404, 409, 429),
      },
    }),
    (c) =>
      answered(
        c,
        ({ created }: { created: boolean }) => created ? 201 : 200,
        (ctx) => recoverEvents(ctx, c.req.valid("param").id, c.req.valid("json")),
        ({ recovery }) => recovery,
      ),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{id}/secret",
      operationId: "revealWebhookEndpointSecret",
      summary: "Reveal the signing secret",
      description: "The current signing secret, and until when the previous one still signs.",
      tags,
      request: { params: EndpointIdParam },
      responses: {
        200: { description: "The current signing secret.", ...json(WebhookEndpointSecret) },
        ...errors(401, 403, 404),
      },
    }),
    async (c) => {
      const secret = await revealWebhookEndpointSecret(c.get("ctx"), c.req.valid("param").id);
      return c.json(secret, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{id}/test",
      operationId: "sendTestWebhook",
      summary: "Send a webhook.test event",
      description: "Sends `webhook.test` to this endpoint (a disabled one too) once, without " +
        "retries. Follow the result at GET /api/v1/events/{eventId}/deliveries.",
      tags,
      parameters: [idempotencyHeader],
      request: { params: EndpointIdParam, body: emptyBody },
      responses: {
        202: { description: "The delivery, queued.", ...json(WebhookDelivery) },
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    (c) =>
      answered(
        c,
        202,
        (ctx) => sendTestWebhook(ctx, c.req.valid("param").id),
        (delivery) => toWebhookDelivery(delivery, []),
      ),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{id}/records",
      operationId: "listWebhookEndpointRecords",
      summary: "List what Paystead did to an endpoint",
      description: "`webhook_endpoint.disabled` records: after a 410 answer, or after every " +
        "attempt failed for 5 days.",
      tags,
      request: { params: EndpointIdParam, query: ListQuery },
      responses: {
        200: listResponse(
          "Records, newest first.",
          WebhookEndpointRecord,
          "WebhookEndpointRecordList",
        ),
        ...errors(400, 401, 403, 404),
      },
    }),
    async (c) => {
      const endpointId = c.req.valid("param").id;
      const page = await listWebhookEndpointRecords(c.get("ctx"), endpointId, c.req.valid("query"));
      return c.json(listPage(page, (row) => toWebhookEndpointRecord(row, endpointId)), 200);
    },
  );
