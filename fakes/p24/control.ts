/**
 * The control surface under /__fake, for tests driving a separate fake-p24 process: what the
 * fake holds and was asked, its switches, and the customer's or P24's moves (pay or decline on
 * the page, decide a BLIK charge or a refund, refuse connections). Not part of P24: the fake
 * listens on 127.0.0.1 only.
 */
import { Hono } from "hono";
import { z } from "zod";
import { actAtBank } from "./bank.ts";
import { BLIK_OUTCOMES, decideBlik } from "./blik.ts";
import type { P24Context } from "./context.ts";
import { METHODS } from "./methods.ts";
import { decideRefund } from "./refunds.ts";
import { SwitchesPatch } from "./switches.ts";

/**
 * Applies a switches change; the error message when it is invalid. `methods` merges into the
 * current overrides, method by method; every other switch is replaced.
 */
export function applySwitches(ctx: P24Context, patch: unknown): string | null {
  const parsed = SwitchesPatch.safeParse(patch);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${issue.path.join(".") || "switches"}: ${issue.message}`;
  }
  const { methods, ...rest } = parsed.data;
  const unknown = Object.keys(methods ?? {}).find((id) =>
    !METHODS.some((method) => String(method.id) === id)
  );
  if (unknown !== undefined) return `methods.${unknown}: no such method`;
  const switches = ctx.switches();
  Object.assign(switches, rest);
  for (const [id, override] of Object.entries(methods ?? {})) {
    switches.methods[id] = { ...switches.methods[id], ...override };
  }
  return null;
}

const PayBody = z.object({ methodId: z.number().int().positive().optional() }).strict();
const BlikBody = z.object({
  outcome: z.enum(Object.keys(BLIK_OUTCOMES) as [keyof typeof BLIK_OUTCOMES]),
}).strict();
const RefuseBody = z.object({ ms: z.number().int().min(1).max(3_600_000) }).strict();

/** The /__fake sub-app. */
export function controlRoutes(ctx: P24Context): Hono {
  const control = new Hono();
  control.get(
    "/transactions",
    (c) => c.json({ transactions: [...ctx.state.transactions.values()] }),
  );
  control.get("/refunds", (c) => c.json({ refunds: ctx.state.refunds }));
  control.get("/notifications", (c) => c.json({ notifications: ctx.state.notifications }));
  control.get("/verifications", (c) => c.json({ verifications: ctx.state.verifications }));
  control.get("/rejections", (c) => c.json({ rejections: ctx.state.rejections }));
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
  // The page's buttons, by the transaction's sessionId, for a test that pays at a precise moment.
  control.post("/transactions/:sessionId/:action{pay|decline}", async (c) => {
    const t = ctx.state.bySessionId(c.req.param("sessionId"));
    if (!t) return c.json({ error: "No such transaction." }, 404);
    const body = PayBody.safeParse(await jsonOrEmpty(c.req.raw));
    if (!body.success) return c.json({ error: 'The body must be {"methodId"?: id}.' }, 400);
    const action = c.req.param("action") as "pay" | "decline";
    const result = await actAtBank(ctx, t, action, body.data.methodId);
    if (result.kind === "decided") {
      return c.json({ error: "Already decided.", transaction: t }, 409);
    }
    if (result.kind === "method") {
      return c.json({ error: "No available method chosen.", transaction: t }, 400);
    }
    return c.json({ transaction: t, location: result.location });
  });
  // BLIK's answer now, for a charge whose code waits (600600) or any other under way.
  control.post("/transactions/:sessionId/blik", async (c) => {
    const t = ctx.state.bySessionId(c.req.param("sessionId"));
    if (!t) return c.json({ error: "No such transaction." }, 404);
    const body = BlikBody.safeParse(await jsonOf(c.req.raw));
    if (!body.success) {
      return c.json({
        error: `The body must be {"outcome": ${Object.keys(BLIK_OUTCOMES).join("|")}}.`,
      }, 400);
    }
    return decideBlik(ctx, t, body.data.outcome)
      ? c.json({ transaction: t })
      : c.json({ error: "No BLIK charge under way.", transaction: t }, 409);
  });
  control.post("/refunds/:refundId/:outcome{complete|reject}", (c) => {
    const refund = ctx.state.refunds.find((r) => String(r.refundId) === c.req.param("refundId"));
    if (!refund) return c.json({ error: "No such refund." }, 404);
    const outcome = c.req.param("outcome") === "complete" ? "completed" : "rejected";
    return decideRefund(ctx, refund, outcome)
      ? c.json({ refund })
      : c.json({ error: "Already decided.", refund }, 409);
  });
  control.get("/idle", async (c) => {
    await ctx.timers.idle();
    return c.json({ idle: true });
  });
  return control;
}

async function jsonOf(request: Request): Promise<unknown> {
  try {
    const parsed = JSON.parse(await request.text());
    return parsed === null ? undefined : parsed;
  } catch {
    return undefined;
  }
}

async function jsonOrEmpty(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
