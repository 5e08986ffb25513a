/**
 * The control surface under /__fake, for tests driving a separate fake-payu process: what the
 * fake holds, its switches, and the customer's or PayU's moves (confirm, refuse, pay at the
 * bank, revoke tokens, refuse connections). Not part of PayU: the fake listens on 127.0.0.1 only.
 */
import { Hono } from "hono";
import { z } from "zod";
import { actAtBank } from "./bank.ts";
import type { FakeContext } from "./context.ts";
import { settleOrder } from "./order_status.ts";
import { PAY_METHODS } from "./paymethods.ts";
import { settleRefund } from "./refunds.ts";
import { SwitchesPatch } from "./switches.ts";
import { expireTokens, revokeTokens } from "./tokens.ts";
import { BLIK_RESULT_CODES } from "./wire.ts";

/**
 * Applies a switches change; the error message when it is invalid. `payMethods` merges into the
 * current overrides, method by method; every other switch is replaced.
 */
export function applySwitches(ctx: FakeContext, patch: unknown): string | null {
  const parsed = SwitchesPatch.safeParse(patch);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${issue.path.join(".") || "switches"}: ${issue.message}`;
  }
  const { payMethods, ...rest } = parsed.data;
  const unknown = Object.keys(payMethods ?? {}).find((value) =>
    !PAY_METHODS.some((method) => method.value === value)
  );
  if (unknown !== undefined) return `payMethods.${unknown}: no such pay method`;
  const switches = ctx.switches();
  Object.assign(switches, rest);
  for (const [value, override] of Object.entries(payMethods ?? {})) {
    switches.payMethods[value] = { ...switches.payMethods[value], ...override };
  }
  return null;
}

const BankBody = z.object({ method: z.string().min(1).optional() }).strict();
const RefuseBody = z.object({ ms: z.number().int().min(1).max(3_600_000) }).strict();

/** The /__fake sub-app. */
export function controlRoutes(ctx: FakeContext): Hono {
  const control = new Hono();
  control.get("/orders", (c) => c.json({ orders: [...ctx.state.orders.values()] }));
  control.get("/refunds", (c) => c.json({ refunds: [...ctx.state.refunds.values()] }));
  control.get("/notifications", (c) => c.json({ notifications: ctx.state.notifications }));
  control.get("/switches", (c) => c.json(ctx.switches()));
  control.patch("/switches", async (c) => {
    const patch = await jsonOf(c.req.raw);
    if (patch === undefined) {
      return c.json({ error: "The body must be a JSON object of switches." }, 400);
    }
    const error = applySwitches(ctx, patch);
    return error === null ? c.json(ctx.switches()) : c.json({ error }, 400);
  });
  control.post("/refuse", async (c) => {
    const body = RefuseBody.safeParse(await jsonOf(c.req.raw));
    if (!body.success) return c.json({ error: 'The body must be {"ms": 1..3600000}.' }, 400);
    ctx.refuseFor(body.data.ms);
    return c.json({ refusingForMs: body.data.ms });
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
  // The pay page's buttons, for a test that pays at the bank at a precise moment.
  control.post("/orders/:orderId/:action{pay|decline}", async (c) => {
    const order = ctx.state.orders.get(c.req.param("orderId"));
    if (!order || order.flow === "blik") return c.json({ error: "No such redirect order." }, 404);
    const text = await c.req.text();
    const body = BankBody.safeParse(text === "" ? {} : jsonOrNull(text));
    if (!body.success) return c.json({ error: 'The body must be {"method"?: value}.' }, 400);
    const action = c.req.param("action") as "pay" | "decline";
    const result = actAtBank(ctx, order, action, body.data.method);
    if (result.kind === "decided") return c.json({ error: "Already decided.", order }, 409);
    if (result.kind === "method") {
      return c.json({ error: "The pay wall needs an available method.", order }, 400);
    }
    return c.json({ order, location: result.location });
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

async function jsonOf(request: Request): Promise<unknown> {
  const parsed = jsonOrNull(await request.text());
  return parsed === null ? undefined : parsed;
}

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function decided(
  c: { json: (body: unknown, status?: 200 | 404 | 409) => Response },
  changed: boolean,
  record: unknown,
): Response {
  if (record === undefined) return c.json({ error: "Not found." }, 404);
  return changed ? c.json(record) : c.json({ error: "Already decided.", record }, 409);
}
