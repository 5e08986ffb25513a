import assert from "node:assert/strict";
import { Hono } from "hono";
import { ApiError } from "../lib/errors.ts";
import { createLogger } from "../lib/log.ts";
import type { AppEnv } from "../routes/env.ts";
import { toApiError } from "../routes/errors.ts";
import { renderError } from "../routes/error_pages.ts";
import { LazySurface } from "../routes/lazy_surface.ts";
import { productionApiKey, startPaystead } from "./support/processes.ts";

const TOKEN = "0123456789abcdef0123456789abcdef";
const LOADED = "a part of the app was loaded at its first request";
const log = createLogger("error");

/** The `paystead_surfaces_loaded` samples, by surface. */
async function surfacesLoaded(url: string): Promise<Record<string, number>> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(response.status, 200);
  const samples: Record<string, number> = {};
  for (
    const match of (await response.text()).matchAll(
      /^paystead_surfaces_loaded\{surface="(\w+)"\} (\d+)$/gm,
    )
  ) {
    samples[match[1]] = Number(match[2]);
  }
  return samples;
}

/** Twenty requests for `path` at once: the first ones of a surface not loaded yet. */
async function twentyAtOnce(url: string, path: string): Promise<string[]> {
  return await Promise.all(Array.from({ length: 20 }, async () => {
    const response = await fetch(`${url}${path}`, { headers: { accept: "text/html" } });
    assert.equal(response.status, 200, path);
    assert.equal(response.headers.get("content-type"), "text/html; charset=UTF-8");
    assert.match(response.headers.get("request-id") ?? "", /^req_/);
    return await response.text();
  }));
}

Deno.test("[surfaces] a production process loads its pages at their first request, each once", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-surfaces-" });
  const key = await productionApiKey(dataDir);
  const server = await startPaystead(dataDir, {
    PAYSTEAD_ENV: "production",
    METRICS_TOKEN: TOKEN,
    LOG_LEVEL: "info",
  });
  try {
    const api = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      assert.ok(response.ok, `${method} ${path}: ${response.status}`);
      return await response.json();
    };
    const offer = await api("POST", "/api/v1/qr", { name: "Tea", amount: 1250, currency: "PLN" });
    const payment = await api("POST", "/api/v1/payments", { qrId: offer.qrId });
    await api("PUT", "/api/v1/checkout-settings", { allowedOrigins: ["https://shop.example"] });
    const session = await api("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
      embedLink: "https://shop.example/checkout",
    });
    // Serving the API loads none of the pages.
    assert.deepEqual(await surfacesLoaded(server.url), {
      checkout: 0,
      pay: 0,
      sandbox_inbox: 0,
      panel: 0,
    });

    const signIn = await twentyAtOnce(server.url, "/panel/sign-in");
    assert.equal(new Set(signIn).size, 1, "every first request got the same sign-in page");
    assert.match(signIn[0], /<form[^>]+action="\/panel\/sign-in"/);
    const pay = await twentyAtOnce(server.url, `/pay/${payment.paymentId}?lang=en`);
    assert.match(pay[0], /12\.50/);
    const checkout = await twentyAtOnce(server.url, `/checkout/${session.sessionId}?lang=en`);
    assert.match(checkout[0], /12\.50/);
    assert.deepEqual(await surfacesLoaded(server.url), {
      checkout: 1,
      pay: 1,
      sandbox_inbox: 0,
      panel: 1,
    });

    const lines = server.logs().split("\n").filter(Boolean).map((line) => JSON.parse(line));
    const loads = lines.filter((line) => line.message === LOADED).map((line) => line.surface)
      .sort();
    assert.deepEqual(loads, ["checkout", "panel", "pay"], "each surface loaded once");
    // The request log names the surface's own route, as when it was mounted at start.
    const routes = new Set(
      lines.filter((line) => line.message === "request").map((line) => line.route),
    );
    for (const route of ["/panel/sign-in", "/pay/:paymentId", "/checkout/:sessionId"]) {
      assert.ok(routes.has(route), `${route} in ${[...routes].join(", ")}`);
    }
  } finally {
    await server.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});

/** An app with the request id, one lazy surface at `/shop/*`, a route after it and a 404. */
function appWith(surface: LazySurface) {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("requestId", "req_lazysurfacetest");
    await next();
    c.res.headers.set("Request-Id", "req_lazysurfacetest");
  });
  app.all("/shop/*", surface.handler);
  app.get("/shop/after", (c) => c.text("the next route"));
  app.notFound((c) =>
    renderError(c, new ApiError("route_not_found", `There is no ${c.req.path}.`))
  );
  app.onError((error, c) => renderError(c, toApiError(error, log, c.get("requestId"))));
  return app;
}

Deno.test("[surfaces] a surface that cannot load is a 503, and the next request loads it", async () => {
  let attempts = 0;
  const surface = new LazySurface(
    "shop",
    () => {
      attempts++;
      if (attempts === 1) return Promise.reject(new Error("the module is broken"));
      return Promise.resolve(
        new Hono<AppEnv>().get(
          "/shop/:item",
          (c) => c.text(`${c.req.param("item")} ${c.get("requestId")}`),
        ),
      );
    },
    { onError: (error, c) => c.text(String(error), 500), log },
  );
  const app = appWith(surface);
  const failed = await app.request("/shop/tea", { headers: { accept: "application/json" } });
  assert.equal(failed.status, 503);
  assert.equal(failed.headers.get("retry-after"), "5");
  const body = await failed.json();
  assert.equal(body.error.code, "service_unavailable");
  assert.equal(
    body.error.message,
    "This page cannot be shown right now; nothing was changed. Retry in a moment.",
  );
  assert.equal(surface.loaded, false);

  const served = await app.request("/shop/tea");
  assert.equal(served.status, 200);
  // The surface's route runs in the request's own context: it sees the app's request id.
  assert.equal(await served.text(), `tea ${served.headers.get("request-id")}`);
  assert.equal(surface.loaded, true);
  assert.equal(attempts, 2);
});

Deno.test("[surfaces] a path the surface has no route for goes on to the app's next route", async () => {
  const surface = new LazySurface(
    "shop",
    () => Promise.resolve(new Hono<AppEnv>().get("/shop/tea", (c) => c.text("tea"))),
    { onError: (error, c) => c.text(String(error), 500), log },
  );
  const app = appWith(surface);
  const next = await app.request("/shop/after");
  assert.equal(next.status, 200);
  assert.equal(await next.text(), "the next route");
  const missing = await app.request("/shop/coffee", { headers: { accept: "application/json" } });
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).error.message, "There is no /shop/coffee.");
  const tea = await app.request("/shop/tea");
  assert.equal(await tea.text(), "tea");
});

/** Specifiers `main.ts` reaches through static imports only: what every process loads at start. */
async function loadedAtStart(): Promise<Set<string>> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: new URL("../", import.meta.url).pathname,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(info.success);
  const graph = JSON.parse(new TextDecoder().decode(info.stdout)) as {
    roots: string[];
    modules: {
      specifier: string;
      dependencies?: { isDynamic?: boolean; code?: { specifier?: string } }[];
    }[];
  };
  const modules = new Map(graph.modules.map((module) => [module.specifier, module]));
  const reached = new Set<string>();
  const pending = [...graph.roots];
  while (pending.length > 0) {
    const specifier = pending.pop()!;
    if (reached.has(specifier)) continue;
    reached.add(specifier);
    for (const dependency of modules.get(specifier)?.dependencies ?? []) {
      if (!dependency.isDynamic && dependency.code?.specifier) {
        pending.push(dependency.code.specifier);
      }
    }
  }
  return reached;
}

Deno.test("[surfaces] the pages, the other commands and the large packages used by few requests load at first use", async () => {
  const reached = [...await loadedAtStart()];
  const root = new URL("../", import.meta.url).href;
  for (
    const page of [
      "routes/panel/mod.tsx",
      "routes/pay.tsx",
      "routes/checkout.tsx",
      "routes/sandbox_inbox.ts",
      // The other commands' modules: a server runs none of them.
      "lib/cli/mod.ts",
      "lib/ops/commands.ts",
      "lib/config_transfer/import.ts",
      "lib/config_transfer/export.ts",
      // The catalogues, Preact and the error page: the first page, e-mail or password loads them.
      "lib/i18n/mod.ts",
      "routes/html.tsx",
      "routes/error_page.tsx",
      "lib/emails/render.tsx",
    ]
  ) {
    assert.ok(!reached.includes(`${root}${page}`), `${page} is imported at start`);
  }
  // The fakes are not even in the graph (tests/compile_test.ts): no process loads them at start.
  assert.deepEqual(reached.filter((specifier) => specifier.startsWith(`${root}fakes/`)), []);
  for (
    const name of [
      "exceljs",
      "nodemailer",
      "@aws-sdk/",
      "age-encryption",
      "@zxcvbn-ts/",
      "intl-messageformat",
      "preact",
      "csv-parse",
      "csv-stringify",
      // Its index: lib/prometheus.ts imports the three classes' own files.
      "prom-client",
    ]
  ) {
    const found = reached.filter((specifier) => specifier.startsWith(`npm:${name}`));
    assert.deepEqual(found, [], `${name} is imported at start`);
  }
  // Node's HTTP client and streams (with its TLS, sockets and DNS: about a hundred of Deno's own
  // modules): the first webhook attempt under the address policy or workbook loads them.
  for (const builtin of ["node:http", "node:https", "node:stream"]) {
    assert.ok(!reached.includes(builtin), `${builtin} is imported at start`);
  }
});
