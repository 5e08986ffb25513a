/**
 * The fake PayU's HTTP surface: PayU's paths (OAuth, /api/v2_1/...), the pay page at each
 * redirectUri with the logos it serves, and the test control surface under /__fake. Handlers only
 * turn requests into calls and replies into responses.
 */
import { type Context, Hono } from "hono";
import { type FakeContext, payuError, type Reply } from "./context.ts";
import { controlRoutes } from "./control.ts";
import {
  cancelOrder,
  orderTransactions,
  retrieveByExtOrderId,
  retrieveOrder,
} from "./order_status.ts";
import { createOrder } from "./orders.ts";
import { type PageRequest, showPayPage, submitPayPage } from "./pay_page.ts";
import { listPayMethods, PAY_METHODS } from "./paymethods.ts";
import { createRefund, listRefunds, retrieveRefund } from "./refunds.ts";
import { checkBearer, issueToken } from "./tokens.ts";
import { logoResponse } from "../shared/logos.ts";

/** Builds the fake's Hono app. */
export function fakePayuApp(ctx: FakeContext): Hono {
  const app = new Hono();

  app.post("/pl/standard/user/oauth/authorize", async (c) => {
    const form = isForm(c) ? Object.fromEntries(new URLSearchParams(await c.req.text())) : null;
    return send(c, issueToken(ctx, form));
  });

  const api = new Hono();
  api.use("*", async (c, next) => {
    const failure = injectedFailure(ctx);
    if (failure) return send(c, failure);
    const unauthorized = checkBearer(ctx, c.req.header("authorization") ?? null);
    if (unauthorized) return send(c, unauthorized);
    await next();
    // NOTE: the work is done before this wait: a client that gives up still has its order.
    await ctx.timers.sleep(ctx.switches().responseDelayMs);
  });
  api.get("/paymethods", (c) => send(c, listPayMethods(ctx, c.req.query("lang"))));
  api.post("/orders", async (c) => {
    const body = await jsonBody(c);
    return send(c, body.ok ? createOrder(ctx, body.value) : syntaxError());
  });
  api.get(
    "/orders/ext/:extOrderId",
    (c) => send(c, retrieveByExtOrderId(ctx, c.req.param("extOrderId"))),
  );
  api.get("/orders/:orderId", (c) => send(c, retrieveOrder(ctx, c.req.param("orderId"))));
  api.delete("/orders/:orderId", (c) => send(c, cancelOrder(ctx, c.req.param("orderId"))));
  api.get(
    "/orders/:orderId/transactions",
    (c) => send(c, orderTransactions(ctx, c.req.param("orderId"))),
  );
  api.post("/orders/:orderId/refunds", async (c) => {
    const body = await jsonBody(c);
    return send(c, body.ok ? createRefund(ctx, c.req.param("orderId"), body.value) : syntaxError());
  });
  api.get("/orders/:orderId/refunds", (c) => send(c, listRefunds(ctx, c.req.param("orderId"))));
  api.get(
    "/orders/:orderId/refunds/:refundId",
    (c) => send(c, retrieveRefund(ctx, c.req.param("orderId"), c.req.param("refundId"))),
  );
  app.route("/api/v2_1", api);
  app.route("/__fake", controlRoutes(ctx));

  for (const path of ["/pay", "/pay/"]) {
    app.get(path, (c) => showPayPage(ctx, pageRequest(c)));
    app.post(path, async (c) => {
      const form = isForm(c) ? new URLSearchParams(await c.req.text()) : new URLSearchParams();
      const request = pageRequest(c);
      return submitPayPage(
        ctx,
        { ...request, lang: request.lang ?? form.get("lang") ?? undefined },
        form,
      );
    });
  }
  app.get("/images/mobile/logos/:file{pbl_[a-z]+\\.svg}", (c) => {
    const value = c.req.param("file").slice(4, -4);
    const method = PAY_METHODS.find((candidate) => candidate.value === value);
    return method ? logoResponse(method.name.pl) : send(c, payuError("DATA_NOT_FOUND", "No logo"));
  });

  app.notFound((c) => send(c, payuError("DATA_NOT_FOUND", "Resource not found")));
  app.onError((error, c) => {
    console.error("fake PayU: unexpected error", error);
    return send(c, payuError("GENERAL_ERROR", "Unexpected error. Try again later."));
  });
  return app;
}

/** The 5xx (or 408) the switches ask for, counting down apiErrorRemaining; null when off. */
function injectedFailure(ctx: FakeContext): Reply | null {
  const switches = ctx.switches();
  const status = switches.apiErrorStatus;
  const remaining = switches.apiErrorRemaining;
  if (status === null || remaining === 0) return null;
  if (remaining !== null) switches.apiErrorRemaining = remaining - 1;
  if (status === 503) return payuError("SERVICE_NOT_AVAILABLE", "PayU system is unavailable.");
  if (status === 408) return payuError("TIMEOUT", "Permitted time to process the request expired.");
  return payuError("ERROR_INTERNAL", "PayU system is unavailable. Try again later.");
}

function pageRequest(c: Context): PageRequest {
  return {
    orderId: c.req.query("orderId"),
    token: c.req.query("token"),
    lang: c.req.query("lang") ?? undefined,
    acceptLanguage: c.req.header("accept-language"),
  };
}

function isForm(c: Context): boolean {
  return (c.req.header("content-type") ?? "").toLowerCase()
    .startsWith("application/x-www-form-urlencoded");
}

async function jsonBody(c: Context): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    return { ok: true, value: JSON.parse(await c.req.text()) };
  } catch {
    return { ok: false };
  }
}

function syntaxError(): Reply {
  return payuError("ERROR_SYNTAX", "Incorrect request syntax. Supported format is JSON.");
}

function send(c: Context, reply: Reply): Response {
  return c.newResponse(JSON.stringify(reply.body), reply.status as 200, {
    "content-type": "application/json;charset=UTF-8",
    ...reply.headers,
  });
}
