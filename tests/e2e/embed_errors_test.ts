import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { translator } from "../../lib/i18n/mod.ts";
import { createTestOffer } from "../support/helpers.ts";
import { collectErrors, launchBrowser, startCheckoutServer } from "../support/browser.ts";

const READY_TIMEOUT_MS = 3000;

/**
 * A shop page that mounts `?embedUrl=` with a short ready timeout and records onReady and
 * onError calls; with `?plain` it passes no onError, so embed.js falls back to console.error.
 */
function startShop(checkoutOrigin: string): { port: number; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/shop") return new Response(null, { status: 204 });
    const embedUrl = JSON.stringify(url.searchParams.get("embedUrl")).replace(/</g, "\\u003c");
    // `?lang=` sets the shop page's own language, which embed.js follows.
    const lang = url.searchParams.get("lang") === "en" ? "en" : "pl";
    const onError = url.searchParams.has("plain")
      ? ""
      : `onError: (error) => calls.push({ name: "error", error }),`;
    return new Response(
      `<!doctype html><html lang="${lang}"><title>Shop</title><div id="checkout"></div>
<script src="${checkoutOrigin}/static/embed.js"></script>
<script>
  window.calls = [];
  Paystead.mountCheckout("#checkout", {
    embedUrl: ${embedUrl},
    readyTimeoutMs: ${READY_TIMEOUT_MS},
    onReady: () => calls.push({ name: "ready" }),
    ${onError}
  });
</script>`,
      { headers: { "content-type": "text/html; charset=utf-8" } },
    );
  });
  return { port: server.addr.port, close: () => server.shutdown() };
}

function calls(page: Page): Promise<{ name: string; error?: unknown }[]> {
  return page.evaluate(() => (globalThis as unknown as { calls: { name: string }[] }).calls);
}

function notReadyMessage(shopOrigin: string, checkoutOrigin: string): string {
  return `Paystead: the checkout did not load within ${READY_TIMEOUT_MS} ms. Most likely this ` +
    `page's origin (${shopOrigin}) may not embed it: it must be the origin of the session's ` +
    "embedLink and be listed in the allowed origins of the checkout settings. Otherwise check " +
    `that embedUrl names an existing session and that the network reaches ${checkoutOrigin}.`;
}

Deno.test("[e2e] embed.js says why a checkout does not load, and stays quiet when it does", async (s) => {
  const browser = await launchBrowser();
  const checkout = await startCheckoutServer();
  const shop = startShop(checkout.origin);
  // One server, two origins: only the localhost one is allowed.
  const allowed = `http://localhost:${shop.port}`;
  const refused = `http://127.0.0.1:${shop.port}`;
  try {
    const t = checkout.t;
    const settings = await t.request("PUT", "/api/v1/checkout-settings", {
      allowedOrigins: [allowed],
    });
    assert.equal(settings.status, 200);
    const offer = await createTestOffer(t);
    const created = await t.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
      embedLink: `${allowed}/shop`,
    });
    assert.equal(created.status, 201);
    const { embedUrl } = await created.json();
    const shopUrl = (origin: string, query = "") =>
      `${origin}/shop?embedUrl=${encodeURIComponent(embedUrl)}${query}`;

    await s.step("an origin that is not allowed: onError with the code and the cause", async () => {
      const page = await browser.newPage();
      await page.goto(shopUrl(refused));
      await page.waitForFunction(() =>
        (globalThis as unknown as { calls: unknown[] }).calls.length > 0
      );
      assert.deepEqual(await calls(page), [{
        name: "error",
        error: {
          code: "embed_not_ready",
          message: translator("pl").t("embed.notReady"),
          language: "pl",
          detail: notReadyMessage(refused, checkout.origin),
        },
      }]);
      await page.close();
    });

    await s.step("the customer's message follows the page's language or ?lang", async () => {
      const page = await browser.newPage();
      await page.goto(shopUrl(refused, "&lang=en"));
      await page.waitForFunction(() =>
        (globalThis as unknown as { calls: unknown[] }).calls.length > 0
      );
      const [call] = await calls(page) as { error: { message: string; language: string } }[];
      assert.equal(call.error.message, translator("en").t("embed.notReady"));
      assert.equal(call.error.language, "en");
      await page.close();
    });

    await s.step("without onError, the same message goes to console.error", async () => {
      const page = await browser.newPage();
      const logged: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && message.text().startsWith("Paystead:")) {
          logged.push(message.text());
        }
      });
      await page.goto(shopUrl(refused, "&plain"));
      await page.waitForTimeout(READY_TIMEOUT_MS + 500);
      assert.deepEqual(logged, [notReadyMessage(refused, checkout.origin)]);
      await page.close();
    });

    await s.step("the allowed origin: onReady, and no onError after the timeout", async () => {
      const page = await browser.newPage();
      const errors = collectErrors(page);
      await page.goto(shopUrl(allowed));
      await page.waitForFunction(() =>
        (globalThis as unknown as { calls: unknown[] }).calls.length > 0
      );
      await page.waitForTimeout(READY_TIMEOUT_MS + 500);
      assert.deepEqual(await calls(page), [{ name: "ready" }]);
      assert.deepEqual(errors, []);
      await page.close();
    });
  } finally {
    await browser.close();
    await shop.close();
    await checkout.close();
  }
});
