import { createRoute } from "@hono/zod-openapi";
import { type ExportFile, exportPayments, exportRefunds } from "../../lib/exports/mod.ts";
import {
  ExportFile as ExportFileSchema,
  PaymentExportQuery,
  RefundExportQuery,
} from "../../lib/exports/schemas.ts";
import type { Context } from "hono";
import { createApiRouter, errors } from "./openapi.ts";

const tags = ["Exports and reconciliation"];

const files = {
  description: "The export, streamed as it is read: CSV (RFC 4180, UTF-8 with a BOM) or xlsx.",
  content: {
    "text/csv": { schema: ExportFileSchema },
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {
      schema: ExportFileSchema,
    },
  },
};

function send(c: Context, file: ExportFile): Response {
  return c.body(file.body, 200, {
    "Content-Type": file.contentType,
    "Content-Disposition": `attachment; filename="${file.filename}"`,
  });
}

/** `/api/v1/exports`: payments and refunds for the accountant, as CSV or a workbook. */
export const exports = createApiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/payments",
      operationId: "exportPayments",
      summary: "Export payments",
      description: "Payments created in the range, oldest first, with the columns createdAt, " +
        "paymentId, providerOrderId (the order id the provider's statement names), status, qrId, " +
        "offerName, quantity, amount, currency, amountRefunded, customerEmail, " +
        "invoiceCompanyName, invoiceTaxId, failureCode, succeededAt, paymentMethod, bank. Amounts in major units; " +
        "CSV times in ISO 8601 UTC, xlsx times as dates in the organisation's time zone.",
      tags,
      request: { query: PaymentExportQuery },
      responses: { 200: files, ...errors(400, 401, 403) },
    }),
    (c) => send(c, exportPayments(c.get("ctx"), c.req.valid("query"))),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/refunds",
      operationId: "exportRefunds",
      summary: "Export refunds",
      description: "Refunds created in the range, oldest first, with the columns createdAt, " +
        "refundId, paymentId, providerRefundId, status, amount, currency, reason.",
      tags,
      request: { query: RefundExportQuery },
      responses: { 200: files, ...errors(400, 401, 403) },
    }),
    (c) => send(c, exportRefunds(c.get("ctx"), c.req.valid("query"))),
  );
