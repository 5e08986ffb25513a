import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestOffer } from "../support/helpers.ts";
import {
  collectErrors,
  launchBrowser,
  type Received,
  startCheckoutServer,
  startMerchantSite,
  waitForCallback,
} from "../support/browser.ts";

/** A page of another origin that posts a forged CHECKOUT_COMPLETED to its parent. */
function startForger(): { origin: string; close(): Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const sessionId = JSON.stringify(new URL(request.url).searchParams.get("sessionId"));
    return new Response(
      `<!doctype html><title>Forger</title><script>
parent.postMessage({ type: "CHECKOUT_COMPLETED", sessionId: ${sessionId}, paymentId: "pay_forged" }, "*");
</script>`,
      { headers: { "content-type": "text/html; charset=utf-8" } },
    );
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/**
 * Waits until the shop page got `count` messages from `origin`. The page's own listener was
 * added before the embed script's, and both run in one dispatch: once the message is recorded,
 * the embed script has already decided about it.
 */
async function waitForMessagesFrom(page: Page, origin: string, count: number): Promise<void> {
  await page.waitForFunction(
    ([from, n]) =>
      (globalThis as unknown as { received: Received[] }).received
        .filter((entry) => entry.origin === from).length >= (n as number),
    [origin, count] as const,
  );
}

function completions(page: Page): Promise<unknown[]> {
  return page.evaluate(() =>
    (globalThis as unknown as { callbacks: { name: string; message: unknown }[] }).callbacks
      .filter((entry) => entry.name === "complete").map((entry) => entry.message)
  );
}

Deno.test("[e2e] the embed script runs callbacks only for its own checkout iframe's messages", async (s) => {
  const browser = await launchBrowser();
  const checkout = await startCheckoutServer();
  const merchant = startMerchantSite(checkout.origin);
  const forger = startForger();
  const shopOrigin = `http://localhost:${merchant.port}`;
  try {
    const t = checkout.t;
    assert.equal(
      (await t.request("PUT", "/api/v1/checkout-settings", { allowedOrigins: [shopOrigin] }))
        .status,
      200,
    );
    const offer = await createTestOffer(t);
    const created = await t.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
      embedLink: `${shopOrigin}/shop`,
    });
    assert.equal(created.status, 201);
    const session = await created.json();
    const forgery = `${forger.origin}/?sessionId=${session.sessionId}`;

    const page = await browser.newPage({ locale: "en-US" });
    const errors = collectErrors(page);
    await page.goto(`${shopOrigin}/shop?embedUrl=${encodeURIComponent(session.embedUrl)}`);
    await waitForCallback(page, "ready");

    await s.step("a second iframe of another origin is ignored", async () => {
      await page.evaluate((url) => {
        const frame = document.createElement("iframe");
        frame.src = url;
        document.body.appendChild(frame);
      }, forgery);
      await waitForMessagesFrom(page, forger.origin, 1);
      assert.deepEqual(await completions(page), []);
    });

    await s.step("the genuine checkout iframe's completion runs onComplete", async () => {
      const frame = page.frameLocator("#checkout iframe");
      await frame.getByLabel("BLIK code").fill("777123");
      await frame.getByLabel("BLIK code").press("Enter");
      const [completed] = await waitForCallback(page, "complete");
      const paid = await (await t.request("GET", `/api/v1/checkout-sessions/${session.sessionId}`))
        .json();
      assert.equal(paid.status, "COMPLETED");
      assert.deepEqual(completed, {
        type: "CHECKOUT_COMPLETED",
        sessionId: session.sessionId,
        paymentId: paid.paymentId,
      });
    });

    await s.step("the checkout iframe, navigated to another origin, is ignored", async () => {
      // Same window as the mounted iframe, other origin: only the origin check refuses it.
      await page.evaluate((url) => {
        (globalThis as unknown as { checkout: { iframe: HTMLIFrameElement } }).checkout.iframe
          .src = url;
      }, forgery);
      await waitForMessagesFrom(page, forger.origin, 2);
      const all = await completions(page);
      assert.equal(all.length, 1, "only the genuine completion");
      assert.notEqual((all[0] as { paymentId: string }).paymentId, "pay_forged");
    });
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await browser.close();
    await forger.close();
    await merchant.close();
    await checkout.close();
  }
});
