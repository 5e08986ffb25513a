import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { completeCheckoutSession } from "../../lib/checkout/attempts.ts";
import {
  createCheckoutSession,
  expireCheckoutSession,
  getCheckoutSession,
  toCheckoutSession,
} from "../../lib/checkout/mod.ts";
import { CheckoutSession, CreateCheckoutSessionRequest } from "../../lib/checkout/schemas.ts";
import { CompleteRequest } from "../../lib/payments/schemas.ts";
import {
  createApiRouter,
  emptyBody,
  errors,
  idempotencyHeader,
  idParam,
  json,
  jsonBody,
} from "./openapi.ts";
import { answered } from "./answers.ts";

const tags = ["Checkout sessions"];
// NOTE: `POST /checkout-sessions/{qrId}` (the specification's) and `GET
// /checkout-sessions/{sessionId}` are one path template to OpenAPI; two names for it are an
// error in every linter. The document names it `{id}` and each operation says which id it takes.
const OfferIdAsId = z.object({
  id: z.string().max(100).meta({
    description: "The offer's id (`qrId`, `qr_...`) to open a session for.",
    example: "qr_4f9TqYcW2mJx8bN3kL6pR1sV",
  }),
});
const SessionIdAsId = z.object({
  id: z.string().max(100).meta({
    description: "The session's id (`sessionId`, `cs_...`).",
    example: "cs_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1",
  }),
});
const SessionIdParam = idParam("sessionId", "cs_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1");

/** `/api/v1/checkout-sessions`: embedded checkout. */
export const checkoutSessions = createApiRouter()
  .openapi(
    createRoute({
      method: "post",
      path: "/{id}",
      operationId: "createCheckoutSession",
      summary: "Create a checkout session for an offer",
      description: "The session's `embedUrl` may only be framed by the origin of `embedLink`, " +
        "which must be on the allowlist (`PUT /api/v1/checkout-settings`), else 400 " +
        "`embed_origin_not_allowed`. For a recurring offer renewed by pay link, the customer's " +
        "code is refused (400 `customer_email_required`) until they give an e-mail address.",
      tags,
      parameters: [idempotencyHeader],
      request: {
        params: OfferIdAsId,
        body: jsonBody(CreateCheckoutSessionRequest),
      },
      responses: {
        201: { description: "The new session, OPEN.", ...json(CheckoutSession) },
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    (c) =>
      answered(
        c,
        201,
        (ctx) => createCheckoutSession(ctx, c.req.valid("param").id, c.req.valid("json")),
        (session) => toCheckoutSession(session, c.get("ctx").services.config.publicUrl),
      ),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{id}",
      operationId: "getCheckoutSession",
      summary: "Get a checkout session",
      description: "The session with its latest payment attempt (`paymentId`).",
      tags,
      request: { params: SessionIdAsId },
      responses: {
        200: { description: "The session.", ...json(CheckoutSession) },
        ...errors(401, 403, 404),
      },
    }),
    async (c) => {
      const ctx = c.get("ctx");
      const session = await getCheckoutSession(ctx, c.req.valid("param").id);
      return c.json(toCheckoutSession(session, ctx.services.config.publicUrl), 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{sessionId}/expire",
      operationId: "expireCheckoutSession",
      summary: "Expire an open checkout session",
      description: "409 `session_already_completed` or `session_expired` when it is no longer " +
        "open; 409 `payment_processing` while a payment attempt awaits the bank.",
      tags,
      parameters: [idempotencyHeader],
      request: { params: SessionIdParam, body: emptyBody },
      responses: {
        200: { description: "The expired session.", ...json(CheckoutSession) },
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    (c) =>
      answered(
        c,
        200,
        (ctx) => expireCheckoutSession(ctx, c.req.valid("param").sessionId),
        (session) => toCheckoutSession(session, c.get("ctx").services.config.publicUrl),
      ),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{sessionId}/complete",
      operationId: "completeCheckoutSession",
      summary: "Pay a checkout session with a test code (sandbox)",
      description: "Sandbox only (403 `sandbox_only` in production). One payment attempt with " +
        "the code (or a redirect `method` with its `result`), exactly as the customer's would " +
        "be: a failing code leaves the session OPEN " +
        "with `paymentId` naming the FAILED payment; 409 `session_already_completed` once paid.",
      tags: [...tags, "Sandbox"],
      parameters: [idempotencyHeader],
      request: {
        params: SessionIdParam,
        body: jsonBody(CompleteRequest),
      },
      responses: {
        200: { description: "The session after the attempt.", ...json(CheckoutSession) },
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    (c) =>
      answered(
        c,
        200,
        (ctx) => completeCheckoutSession(ctx, c.req.valid("param").sessionId, c.req.valid("json")),
        (session) => toCheckoutSession(session, c.get("ctx").services.config.publicUrl),
      ),
  );
