import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { createPayment } from "../../lib/payments/create.ts";
import { listPaymentAttempts, toPaymentAttempt } from "../../lib/payments/attempt_list.ts";
import { getApiPayment, listPayments, toPayment } from "../../lib/payments/mod.ts";
import { cancelPayment, completePayment } from "../../lib/payments/pay.ts";
import {
  CompleteRequest,
  CreatePaymentRequest,
  ListPaymentsQuery,
  Payment,
  PaymentAttempt,
} from "../../lib/payments/schemas.ts";
import type { AppEnv } from "../env.ts";
import { answered, jsonText, keyed } from "./answers.ts";
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

const tags = ["Payments"];
const PaymentIdParam = idParam("paymentId", "pay_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1");

function createPaymentRoute(path: string, operationId: string, summary: string) {
  return createRoute({
    method: "post",
    path,
    operationId,
    summary,
    description:
      "Creates a hosted payment link for an offer. `POST /payments` is the same operation. " +
      "400 `customer_email_required` (`param: customer.email`) for a recurring offer renewed " +
      "by pay link (the provider cannot charge a stored method) without `customer.email`.",
    tags,
    parameters: [idempotencyHeader],
    request: { body: jsonBody(CreatePaymentRequest) },
    responses: {
      201: { description: "The new payment, PENDING, with its paymentUrl.", ...json(Payment) },
      ...errors(400, 401, 403, 404, 409),
    },
  });
}

const createPaymentV1 = createPaymentRoute("/", "createPayment", "Create a hosted payment link");

// One write: the payment, its event and the request's key with this answer (lib/payments/create.ts).
const createPaymentHandler: RouteHandler<typeof createPaymentV1, AppEnv> = (c) =>
  keyed(c, async (key) => {
    const { answer } = await createPayment(c.get("ctx"), c.req.valid("json"), { key });
    return jsonText<Payment, 201>(c, answer, 201);
  });

/** `POST /payments`: the specification's path for creating a hosted payment link. */
export const paymentsAlias = createApiRouter().openapi(
  createPaymentRoute(
    "/payments",
    "createPaymentAlias",
    "Create a hosted payment link (short path)",
  ),
  createPaymentHandler as RouteHandler<ReturnType<typeof createPaymentRoute>, AppEnv>,
);

/** `/api/v1/payments`: hosted payments and the sandbox complete operation. */
export const payments = createApiRouter()
  .openapi(createPaymentV1, createPaymentHandler)
  .openapi(
    createRoute({
      method: "get",
      path: "/",
      operationId: "listPayments",
      summary: "List payments",
      description: "Payments newest first, optionally by status or offer.",
      tags,
      request: { query: ListPaymentsQuery },
      responses: {
        200: listResponse("Payments, newest first.", Payment, "PaymentList"),
        ...errors(400, 401, 403),
      },
    }),
    async (c) => {
      const page = await listPayments(c.get("ctx"), c.req.valid("query"));
      const publicUrl = c.get("ctx").services.config.publicUrl;
      return c.json(listPage(page, (row) => toPayment(row, publicUrl)), 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{paymentId}",
      operationId: "getPayment",
      summary: "Get a payment",
      description: "One payment with its status, amount refunded and failure code.",
      tags,
      request: { params: PaymentIdParam },
      responses: {
        200: { description: "The payment.", ...json(Payment) },
        ...errors(401, 403, 404),
      },
    }),
    async (c) => {
      const payment = await getApiPayment(c.get("ctx"), c.req.valid("param").paymentId);
      return c.json(toPayment(payment, c.get("ctx").services.config.publicUrl), 200);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{paymentId}/cancel",
      operationId: "cancelPayment",
      summary: "Cancel a pending payment",
      description:
        "Cancels a PENDING payment (payment.canceled). A payment being processed or already final answers 409.",
      tags,
      parameters: [idempotencyHeader],
      request: { params: PaymentIdParam, body: emptyBody },
      responses: {
        200: { description: "The canceled payment.", ...json(Payment) },
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    (c) =>
      answered(
        c,
        200,
        (ctx) => cancelPayment(ctx, c.req.valid("param").paymentId),
        (payment) => toPayment(payment, c.get("ctx").services.config.publicUrl),
      ),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/{paymentId}/complete",
      operationId: "completePayment",
      summary: "Complete a payment with a test code or method (sandbox)",
      description: "Sandbox only (403 `sandbox_only` in production). With a BLIK `code`: " +
        "`777xxx` succeeds; `500500` declines; `700701`/`700702`/`700703` fail as " +
        "expired/canceled/already used; `600600` stays PROCESSING, then fails with `timeout`; " +
        "any other 6 digits fail with `invalid_code`. With a redirect `method` and `result` " +
        "(`succeeded` or `declined`): as the customer would on the sandbox's page.",
      tags: [...tags, "Sandbox"],
      parameters: [idempotencyHeader],
      request: {
        params: PaymentIdParam,
        body: jsonBody(CompleteRequest),
      },
      responses: {
        200: { description: "The payment after the attempt.", ...json(Payment) },
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    (c) =>
      answered(
        c,
        200,
        (ctx) => completePayment(ctx, c.req.valid("param").paymentId, c.req.valid("json")),
        (payment) => toPayment(payment, c.get("ctx").services.config.publicUrl),
      ),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{paymentId}/attempts",
      operationId: "listPaymentAttempts",
      summary: "List a payment's attempts",
      description: "Every try at paying it, oldest first: the method (and bank), the provider, " +
        "its status and failure code. The attempt id is the order id a provider's statement shows.",
      tags,
      request: { params: PaymentIdParam },
      responses: {
        200: listResponse("The payment's attempts, oldest first.", PaymentAttempt, "AttemptList"),
        ...errors(401, 403, 404),
      },
    }),
    async (c) => {
      const attempts = await listPaymentAttempts(c.get("ctx"), c.req.valid("param").paymentId);
      return c.json({ data: attempts.map(toPaymentAttempt), hasMore: false }, 200);
    },
  );
