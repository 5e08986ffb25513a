import { Hono } from "hono";
import type { Services } from "../lib/context.ts";
import { ApiError } from "../lib/errors.ts";
import { INBOX_MAX_BODY_BYTES, receiveAtSandboxInbox } from "../lib/webhooks/sandbox_inbox.ts";
import type { AppEnv } from "./env.ts";
import { errorResponse } from "./errors.ts";
import { limitBody } from "./middleware/body_limit.ts";

/**
 * `POST /sandbox/webhook-inbox/{inboxId}`: the sandbox's built-in webhook receiver (the Quick
 * Start's). It answers like a well-behaved merchant server: 200 at once, whatever it thinks of
 * the signature (the panel shows that), JSON errors only for an unknown inbox or a huge body.
 */
export function createSandboxInbox(services: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post(
    "/sandbox/webhook-inbox/:inboxId",
    limitBody(INBOX_MAX_BODY_BYTES, "An inbox keeps bodies up to 256 KiB."),
    async (c) => {
      const received = await receiveAtSandboxInbox(services, c.req.param("inboxId"), {
        body: await c.req.text(),
        headers: c.req.raw.headers,
      });
      c.header("Cache-Control", "no-store");
      if (!received) {
        return errorResponse(
          c,
          new ApiError("resource_not_found", "No sandbox webhook inbox at this address."),
        );
      }
      return c.json({ received: true });
    },
  );
  return app;
}
