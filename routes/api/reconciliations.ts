import { createRoute } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors.ts";
import {
  listReconciliations,
  reconcile,
  statementDialect,
  toReconciliation,
} from "../../lib/reconciliations/mod.ts";
import { Reconciliation, StatementFile } from "../../lib/reconciliations/schemas.ts";
import { ErrorBody, ListQuery } from "../../lib/schemas.ts";
import { createApiRouter, errors, json, listPage, listResponse } from "./openapi.ts";

const tags = ["Exports and reconciliation"];

/** `/api/v1/reconciliations`: the provider's statements matched against the payments, and the list. */
export const reconciliations = createApiRouter()
  .openapi(
    createRoute({
      method: "post",
      path: "/",
      operationId: "createReconciliation",
      summary: "Reconcile a provider's statement",
      description: "Matches the payment provider's operation statement with this environment's " +
        "payments and " +
        "refunds and keeps the result: purchases by order id, refunds with refunds, " +
        "commissions summed as fees, payouts as payouts, and every payment that succeeded in " +
        "the statement's days but is missing from it. 400 `statement_invalid`, naming the line, " +
        "for a file that is not such a statement or is over 10 MiB; nothing is kept then. At most two statements are reconciled at once per process: a third is 429 with Retry-After. The first 100 problems are kept, all of them counted by kind.",
      tags,
      request: {
        body: { required: true, content: { "text/csv": { schema: StatementFile } } },
      },
      responses: {
        201: { description: "The reconciliation, kept.", ...json(Reconciliation) },
        ...errors(400, 401, 403, 429),
        415: { description: "The body is not sent as text/csv.", ...json(ErrorBody) },
      },
    }),
    async (c) => {
      const mediaType = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
      if (mediaType !== "text/csv") {
        throw new ApiError(
          "unsupported_media_type",
          `Send ${
            statementDialect(c.get("ctx")).source
          }'s statement as the body with 'Content-Type: text/csv'.`,
        );
      }
      const body = c.req.raw.body ?? ReadableStream.from<Uint8Array>([]);
      return c.json(await reconcile(c.get("ctx"), body), 201);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/",
      operationId: "listReconciliations",
      summary: "List reconciliations",
      description: "The reconciliations of the provider's statements, newest first.",
      tags,
      request: { query: ListQuery },
      responses: {
        200: listResponse("Reconciliations, newest first.", Reconciliation, "ReconciliationList"),
        ...errors(400, 401, 403),
      },
    }),
    async (c) => {
      const page = await listReconciliations(c.get("ctx"), c.req.valid("query"));
      return c.json(listPage(page, toReconciliation), 200);
    },
  );
