import { createRoute } from "@hono/zod-openapi";
import { createRefund, getRefund, listRefunds, toRefund } from "../../lib/refunds/mod.ts";
import { CreateRefundRequest, Refund } from "../../lib/refunds/schemas.ts";
import { ListQuery } from "../../lib/schemas.ts";
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

const tags = ["Refunds"];
const PaymentIdParam = idParam("paymentId", "pay_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1");

/** `/api/v1/payments/{paymentId}/refunds`: refunding a payment and its refunds. */
export const paymentRefunds = createApiRouter()
  .openapi(
    createRoute({
      method: "post",
      path: "/{paymentId}/refunds",
      operationId: "createRefund",
      summary: "Refund a payment",
      description: "Refunds part or (without `amount`) all of what is left of a SUCCEEDED " +
        "payment. The refund starts PENDING and its amount counts in the payment's " +
        "`amountRefunded` at once; the payment method's answer follows as `refund.succeeded` " +
        "or `refund.failed` (which gives the amount back). Sandbox: amounts ending in 99 " +
        "minor units fail. 400 `refund_exceeds_payment` if the total would exceed the payment; " +
        "409 `payment_not_succeeded` unless the payment SUCCEEDED.",
      tags,
      parameters: [idempotencyHeader],
      request: {
        params: PaymentIdParam,
        body: { required: false, ...json(CreateRefundRequest) },
      },
      responses: {
        201: { description: "The new refund, PENDING.", ...json(Refund) },
        ...errors(400, 401, 403, 404, 409),
      },
    }),
    (c) =>
      answered(
        c,
        201,
        (ctx) => createRefund(ctx, c.req.valid("param").paymentId, c.req.valid("json")),
        toRefund,
      ),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{paymentId}/refunds",
      operationId: "listPaymentRefunds",
      summary: "List a payment's refunds",
      description: "The refunds of one payment, newest first.",
      tags,
      request: { params: PaymentIdParam, query: ListQuery },
      responses: {
        200: listResponse("The refunds, newest first.", Refund, "RefundList"),
        ...errors(400, 401, 403, 404),
      },
    }),
    async (c) => {
      const page = await listRefunds(
        c.get("ctx"),
        c.req.valid("param").paymentId,
        c.req.valid("query"),
      );
      return c.json(listPage(page, toRefund), 200);
    },
  );

/** `/api/v1/refunds`: one refund by id. */
export const refunds = createApiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/{refundId}",
      operationId: "getRefund",
      summary: "Get a refund",
      description: "One refund with its status and failure code.",
      tags,
      request: {
        params: idParam("refundId", "re_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1"),
      },
      responses: { 200: { description: "The refund.", ...json(Refund) }, ...errors(401, 403, 404) },
    }),
    async (c) =>
      c.json(toRefund(await getRefund(c.get("ctx"), c.req.valid("param").refundId)), 200),
  );
