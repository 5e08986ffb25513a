import { createRoute } from "@hono/zod-openapi";
import {
  advanceSandboxClock,
  AdvanceSandboxClockRequest,
  getSandboxClock,
  SandboxClock,
} from "../../lib/sandbox_clock.ts";
import { listSandboxEmails, SandboxEmail, toSandboxEmail } from "../../lib/emails/mailbox.ts";
import { ListQuery } from "../../lib/schemas.ts";
import {
  createApiRouter,
  errors,
  idempotencyHeader,
  json,
  jsonBody,
  listPage,
  listResponse,
} from "./openapi.ts";
import { answered } from "./answers.ts";

const tags = ["Sandbox"];

/** `/api/v1/sandbox`: sandbox-only tools (403 `sandbox_only` in production). */
export const sandbox = createApiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/clock",
      operationId: "getSandboxClock",
      summary: "Get this organisation's sandbox clock (sandbox)",
      description:
        "How far this organisation's sandbox clock runs ahead of real time. Sandbox only (production: 403 `sandbox_only`).",
      tags,
      responses: {
        200: { description: "The sandbox clock.", ...json(SandboxClock) },
        ...errors(401, 403),
      },
    }),
    async (c) => c.json(await getSandboxClock(c.get("ctx")), 200),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/clock/advance",
      operationId: "advanceSandboxClock",
      summary: "Move this organisation's sandbox clock forward (sandbox)",
      description: "Sandbox only (403 `sandbox_only` in production). Moves this " +
        "organisation's time forward by `days`, for good; what became due (renewals, their " +
        "retries, expiries) runs right after, with its events and webhooks. Other " +
        "organisations keep their own time.",
      tags,
      parameters: [idempotencyHeader],
      request: { body: jsonBody(AdvanceSandboxClockRequest) },
      responses: {
        200: { description: "The sandbox clock after the move.", ...json(SandboxClock) },
        ...errors(400, 401, 403, 409),
      },
    }),
    (c) =>
      answered(c, 200, (ctx) => advanceSandboxClock(ctx, c.req.valid("json")), (moved) => moved),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/emails",
      operationId: "listSandboxEmails",
      summary: "List the sandbox mailbox (sandbox)",
      description: "Without SMTP_URL the sandbox sends no e-mail: each payment confirmation " +
        "and refund notice lands here instead, newest first, exactly as the customer would " +
        "have received it. Sandbox only (production: 403 `sandbox_only`).",
      tags,
      request: { query: ListQuery },
      responses: {
        200: listResponse("Mailbox messages, newest first.", SandboxEmail, "SandboxEmailList"),
        ...errors(400, 401, 403),
      },
    }),
    async (c) => {
      const page = await listSandboxEmails(c.get("ctx"), c.req.valid("query"));
      return c.json(listPage(page, toSandboxEmail), 200);
    },
  );
