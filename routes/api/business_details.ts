import { createRoute } from "@hono/zod-openapi";
import {
  BusinessDetailsInput,
  BusinessDetailsResource,
  putBusinessDetails,
  requireBusinessDetails,
} from "../../lib/business_details.ts";
import { createApiRouter, errors, json, jsonBody } from "./openapi.ts";

const tags = ["Business details"];

/** `/api/v1/business-details`: who customers pay (shared by both environments). */
export const businessDetails = createApiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/",
      operationId: "getBusinessDetails",
      summary: "Get the business details",
      description: "The seller's identity customers are shown. 404 until they are first set " +
        "with PUT: there is nothing half-filled to show.",
      tags,
      responses: {
        200: { description: "The business details.", ...json(BusinessDetailsResource) },
        ...errors(401, 403, 404),
      },
    }),
    async (c) => {
      const { services, orgId } = c.get("ctx");
      return c.json(await requireBusinessDetails(services.accounts, orgId), 200);
    },
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/",
      operationId: "putBusinessDetails",
      summary: "Set the business details",
      description: "Replaces them whole (a field left out is removed). `taxId` is a Polish " +
        "NIP: 10 digits with a valid checksum, dashes and spaces allowed (400 `param: taxId` " +
        "otherwise). Shared by the sandbox and production: a change shows in both at once.",
      tags,
      request: { body: jsonBody(BusinessDetailsInput) },
      responses: {
        200: { description: "The saved details, normalised.", ...json(BusinessDetailsResource) },
        ...errors(400, 401, 403),
      },
    }),
    async (c) => {
      const { services, orgId } = c.get("ctx");
      const saved = await putBusinessDetails(
        services.accounts,
        orgId,
        c.req.valid("json"),
        services.clock.now(),
      );
      return c.json(saved, 200);
    },
  );
