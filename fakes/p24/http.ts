/**
 * The fake Przelewy24's HTTP surface: P24's REST paths under /api/v1 (HTTP Basic posId:API
 * key), the transaction panel at /trnRequest/{token} with the logos it serves, and the test
 * control surface under /__fake. Handlers only turn requests into calls and replies into
 * responses.
 */
import { type Context, Hono } from "hono";
import { chargeByCode } from "./blik.ts";
import { invalid, type P24Context, p24Error, type Reply } from "./context.ts";
import { controlRoutes } from "./control.ts";
import { listMethods, METHODS } from "./methods.ts";
import { type PageRequest, showTransactionPage, submitTransactionPage } from "./pay_page.ts";
import { createRefunds, refundsByOrderId } from "./refunds.ts";
import { history, historyPage } from "./report.ts";
import { bySessionId, register, verify } from "./transactions.ts";
import { INCORRECT_AUTHENTICATION, UNDEFINED_ERROR } from "./wire.ts";
import { logoResponse } from "../shared/logos.ts";

/** Builds the fake's Hono app. */
export function fakeP24App(ctx: P24Context): Hono {
  const app = new Hono();
  const api = new Hono();
  api.use("*", async (c, next) => {
    const failure = injectedFailure(ctx);
    if (failure) return send(c, failure);
    if (ctx.switches().hang === "before") {
      await ctx.timers.hang();
      return send(c, p24Error(503, "Service unavailable"));
    }
    if (!authorized(ctx, c.req.header("authorization"))) {
      // The payment methods list documents 403 where the others document 401.
      const status = c.req.path.startsWith("/api/v1/payment/methods/") ? 403 : 401;
      return send(c, p24Error(status, INCORRECT_AUTHENTICATION));
    }
    await next();
    // NOTE: the work is done before these waits: a client that gives up still has its charge.
    if (ctx.switches().hang === "after") await ctx.timers.hang();
    await ctx.timers.sleep(ctx.switches().responseDelayMs);
  });
  api.get("/testAccess", (c) => send(c, { status: 200, body: { data: true, error: "" } }));
  api.post("/transaction/register", async (c) => {
    const body = await jsonBody(c);
    return send(c, body.ok ? register(ctx, body.value) : bad(ctx, c));
  });
  api.put("/transaction/verify", async (c) => {
    const body = await jsonBody(c);
    return send(c, body.ok ? verify(ctx, body.value) : bad(ctx, c));
  });
  api.get("/transaction/by/sessionId/:sessionId", (c) => {
    return send(c, bySessionId(ctx, c.req.param("sessionId")));
  });
  api.post("/paymentMethod/blik/chargeByCode", async (c) => {
    const body = await jsonBody(c);
    return send(c, body.ok ? chargeByCode(ctx, body.value) : bad(ctx, c));
  });
  api.get("/payment/methods/:lang", (c) => {
    const reply = listMethods(ctx, c.req.param("lang"), {
      amount: c.req.query("amount"),
      currency: c.req.query("currency"),
    });
    return send(
      c,
      reply === "invalid" ? invalid(ctx, c.req.path, "lang, amount or currency") : reply,
    );
  });
  api.post("/transaction/refund", async (c) => {
    const body = await jsonBody(c);
    return send(c, createRefunds(ctx, body.ok ? body.value : null));
  });
  api.get(
    "/refund/by/orderId/:orderId",
    (c) => send(c, refundsByOrderId(ctx, c.req.param("orderId"))),
  );
  api.get("/report/history", (c) => {
    return send(
      c,
      history(ctx, {
        dateFrom: c.req.query("dateFrom"),
        dateTo: c.req.query("dateTo"),
        type: c.req.query("type"),
      }),
    );
  });
  api.get("/report/history/:token", (c) => send(c, historyPage(ctx, c.req.param("token"))));
  app.route("/api/v1", api);
  app.route("/__fake", controlRoutes(ctx));

  app.get(
    "/trnRequest/:token",
    (c) => showTransactionPage(ctx, c.req.param("token"), pageRequest(c)),
  );
  app.post("/trnRequest/:token", async (c) => {
    const form = isForm(c) ? new URLSearchParams(await c.req.text()) : new URLSearchParams();
    const request = pageRequest(c);
    return await submitTransactionPage(ctx, c.req.param("token"), {
      ...request,
      lang: request.lang ?? form.get("lang") ?? undefined,
    }, form);
  });
  app.get("/storage/methods/:file{\\d+\\.svg}", (c) => {
    const id = Number(c.req.param("file").slice(0, -4));
    const method = METHODS.find((candidate) => candidate.id === id);
    return method ? logoResponse(method.name.pl) : send(c, p24Error(404, "Not found"));
  });

  app.notFound((c) => send(c, p24Error(404, "Not found")));
  app.onError((error, c) => {
    console.error("fake Przelewy24: unexpected error", error);
    return send(c, p24Error(500, UNDEFINED_ERROR));
  });
  return app;
}

/** HTTP Basic with the POS id as the user and the API key as the password. */
function authorized(ctx: P24Context, header: string | undefined): boolean {
  const encoded = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? "")?.[1];
  if (encoded === undefined) return false;
  let decoded: string;
  try {
    decoded = atob(encoded);
  } catch {
    return false;
  }
  const at = decoded.indexOf(":");
  return at > 0 && decoded.slice(0, at) === String(ctx.credentials.posId) &&
    decoded.slice(at + 1) === ctx.credentials.apiKey;
}

/** The 5xx the switches ask for, counting down apiErrorRemaining; null when off. */
function injectedFailure(ctx: P24Context): Reply | null {
  const switches = ctx.switches();
  const status = switches.apiErrorStatus;
  const remaining = switches.apiErrorRemaining;
  if (status === null || remaining === 0) return null;
  if (remaining !== null) switches.apiErrorRemaining = remaining - 1;
  return p24Error(status, status === 503 ? "Service unavailable" : UNDEFINED_ERROR);
}

function pageRequest(c: Context): PageRequest {
  return {
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

function bad(ctx: P24Context, c: Context): Reply {
  return invalid(ctx, c.req.path, "the body is not JSON");
}

function send(c: Context, reply: Reply): Response {
  return c.newResponse(JSON.stringify(reply.body), reply.status as 200, {
    "content-type": "application/json",
  });
}
