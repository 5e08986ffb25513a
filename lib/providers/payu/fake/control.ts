/**
 * The control surface under /__fake, for tests driving a separate fake-payu process: what the
 * fake holds, its switches, and the customer's or PayU's moves (confirm, refuse, revoke tokens).
 * Not part of PayU: the fake listens on 127.0.0.1 only.
 */
import { Hono } from "hono";
import { BLIK_RESULT_CODES } from "../wire.ts";
import type { FakeContext } from "./context.ts";
import { settleOrder } from "./orders.ts";
import { settleRefund } from "./refunds.ts";
import { SwitchesPatch } from "./switches.ts";
import { expireTokens, revokeTokens } from "./tokens.ts";

/** Applies a switches change; the error message when it is invalid. */
export function applySwitches(ctx: FakeContext, patch: unknown): string | null {
  const parsed = SwitchesPatch.safeParse(patch);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${issue.path.join(".") || "switches"}: ${issue.message}`;
  }
  Object.assign(ctx.switches(), parsed.data);
  return null;
}

/** The /__fake sub-app. */
export function controlRoutes(ctx: FakeContext): Hono {
  const control = new Hono();
  control.get("/orders", (c) => c.json({ orders: [...ctx.state.orders.values()] }));
  control.get("/refunds", (c) => c.json({ refunds: [...ctx.state.refunds.values()] }));
  control.get("/notifications", (c) => c.json({ notifications: ctx.state.notifications }));
  control.get("/switches", (c) => c.json(ctx.switches()));
  control.patch("/switches", async (c) => {
    let patch: unknown;
    try {
      patch = await c.req.json();
    } catch {
      return c.json({ error: "The body must be a JSON object of switches." }, 400);
    }
    const error = applySwitches(ctx, patch);
    return error === null ? c.json(ctx.switches()) : c.json({ error }, 400);
  });
  control.post("/tokens/revoke", (c) => c.json({ revoked: revokeTokens(ctx) }));
  control.post("/tokens/expire", (c) => c.json({ expired: expireTokens(ctx) }));
  control.post("/orders/:orderId/complete", (c) => {
    const orderId = c.req.param("orderId");
    return decided(c, settleOrder(ctx, orderId, "COMPLETED", null), ctx.state.orders.get(orderId));
  });
  control.post("/orders/:orderId/cancel", (c) => {
    const orderId = c.req.param("orderId");
    const done = settleOrder(ctx, orderId, "CANCELED", BLIK_RESULT_CODES.declined);
    return decided(c, done, ctx.state.orders.get(orderId));
  });
  control.post("/refunds/:refundId/:outcome{finalize|cancel}", (c) => {
    const refundId = c.req.param("refundId");
    const status = c.req.param("outcome") === "finalize" ? "FINALIZED" : "CANCELED";
    return decided(c, settleRefund(ctx, refundId, status), ctx.state.refunds.get(refundId));
  });
  control.get("/idle", async (c) => {
    await ctx.timers.idle();
    return c.json({ idle: true });
  });
  return control;
}

function decided(
  c: { json: (body: unknown, status?: 200 | 404 | 409) => Response },
  changed: boolean,
  record: unknown,
): Response {
  if (record === undefined) return c.json({ error: "Not found." }, 404);
  return changed ? c.json(record) : c.json({ error: "Already decided.", record }, 409);
}
