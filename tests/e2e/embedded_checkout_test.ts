import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { SANDBOX_TIMEOUT_MS } from "../../lib/providers/sandbox.ts";
import { createTestOffer } from "../support/helpers.ts";
import {
  type CheckoutServer,
  collectErrors,
  launchBrowser,
  type MerchantSite,
  receivedMessages,
  screenshot,
  startCheckoutServer,
  startMerchantSite,
  waitForCallback,
  waitForResized,
} from "../support/browser.ts";

interface World {
  browser: Browser;
  checkout: CheckoutServer;
  merchant: MerchantSite;
  /** The allowed embedding origin: the merchant's site as http://localhost:<port>. */
  shopOrigin: string;
  qrId: string;
}

async function createSession(world: World, fields: Record<string, unknown> = {}) {
  const response = await world.checkout.t.request(
    "POST",
    `/api/v1/checkout-sessions/${world.qrId}`,
    { embedLink: `${world.shopOrigin}/shop`, ...fields },
  );
  assert.equal(response.status, 201, await response.clone().text());
  return await response.json() as { sessionId: string; embedUrl: string };
}

/**
 * Opens the shop with the session mounted. The viewport is tall enough to hold the whole
 * checkout: full-page screenshots leave a cross-origin iframe unpainted below the viewport.
 */
async function openShop(world: World, embedUrl: string, viewport = { width: 1024, height: 1300 }) {
  const page = await world.browser.newPage({ viewport, locale: "en-US" });
  const errors = collectErrors(page);
  await page.goto(`${world.shopOrigin}/shop?embedUrl=${encodeURIComponent(embedUrl)}`);
  return { page, errors };
}

function checkoutFrame(page: Page) {
  return page.frameLocator("#checkout iframe");
}

async function api(world: World, path: string) {
  return await (await world.checkout.t.request("GET", path)).json();
}

Deno.test("[e2e] embedded checkout on a merchant's page of another origin", async (t) => {
  const browser = await launchBrowser();
  const checkout = await startCheckoutServer();
  const merchant = startMerchantSite(checkout.origin);
  const shopOrigin = `http://localhost:${merchant.port}`;
  try {
    const settings = await checkout.t.request("PUT", "/api/v1/checkout-settings", {
      allowedOrigins: [shopOrigin],
    });
    assert.equal(settings.status, 200);
    const offer = await createTestOffer(checkout.t, { name: "Coffee subscription box" });
    const world: World = { browser, checkout, merchant, shopOrigin, qrId: offer.qrId };

    await t.step("READY, the code 777123, COMPLETED with the paymentId", async () => {
      const session = await createSession(world, {
        lineItems: [
          { name: "Ethiopia Guji, 1 kg", quantity: 2, unitAmount: 6900 },
          { name: "Paper filters", quantity: 1, unitAmount: 1200 },
        ],
      });
      const { page, errors } = await openShop(world, session.embedUrl);
      const [ready] = await waitForCallback(page, "ready");
      assert.deepEqual(ready, { type: "CHECKOUT_READY", sessionId: session.sessionId });
      const frame = checkoutFrame(page);
      await frame.getByRole("heading", { name: "Pay with BLIK" }).waitFor();
      // Hydration took over the server's markup instead of adding a second copy.
      assert.equal(await frame.locator(".code-entry").count(), 1);
      assert.equal(await frame.locator("form").count(), 1);

      // The iframe follows its content's height from CHECKOUT_RESIZE.
      await page.waitForFunction(() =>
        (globalThis as unknown as { received: { data: { type: string } }[] }).received
          .some((entry) => entry.data?.type === "CHECKOUT_RESIZE")
      );
      const resizes = (await receivedMessages(page)).filter((m) =>
        m.data.type === "CHECKOUT_RESIZE"
      );
      const height = resizes.at(-1)!.data.height as number;
      assert.ok(height > 400, `height ${height}`);
      assert.equal(
        await page.locator("#checkout iframe").evaluate((el) => (el as HTMLElement).style.height),
        `${height}px`,
      );
      await waitForResized(page);
      await screenshot(page, "embed-ready");

      await frame.getByLabel("BLIK code").fill("777123");
      await frame.getByLabel("BLIK code").press("Enter");
      const [completed] = await waitForCallback(page, "complete");
      await frame.getByRole("heading", { name: "Payment successful" }).waitFor();
      await waitForResized(page);
      await screenshot(page, "embed-completed");

      const paid = await api(world, `/api/v1/checkout-sessions/${session.sessionId}`);
      assert.equal(paid.status, "COMPLETED");
      assert.deepEqual(completed, {
        type: "CHECKOUT_COMPLETED",
        sessionId: session.sessionId,
        paymentId: paid.paymentId,
      });
      const payment = await api(world, `/api/v1/payments/${paid.paymentId}`);
      assert.equal(payment.status, "SUCCEEDED");
      assert.equal(payment.amount, 15000);

      const messages = await receivedMessages(page);
      assert.ok(messages.every((m) => m.origin === checkout.origin), "only from the checkout");
      assert.deepEqual(
        messages.filter((m) => m.data.type !== "CHECKOUT_RESIZE").map((m) => m.data),
        [
          { type: "CHECKOUT_READY", sessionId: session.sessionId },
          { type: "CHECKOUT_PROCESSING", sessionId: session.sessionId },
          { type: "CHECKOUT_COMPLETED", sessionId: session.sessionId, paymentId: paid.paymentId },
        ],
      );
      for (const resize of messages.filter((m) => m.data.type === "CHECKOUT_RESIZE")) {
        assert.deepEqual(Object.keys(resize.data).sort(), ["height", "sessionId", "type"]);
      }
      assert.deepEqual(errors, []);
      await page.close();
    });

    await t.step("fits a 360 px phone", async () => {
      const session = await createSession(world, {
        lineItems: [
          { name: "Colombia Huila, washed, 250 g whole beans", quantity: 3, unitAmount: 3400 },
        ],
      });
      const { page, errors } = await openShop(world, session.embedUrl, {
        width: 360,
        height: 1300,
      });
      await waitForCallback(page, "ready");
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      await frame.waitForSelector("#code");
      const overflow = await frame.evaluate(() =>
        document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      assert.equal(overflow, 0, "nothing wider than the iframe");
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 360);
      await waitForResized(page);
      await screenshot(page, "embed-phone");
      assert.deepEqual(errors, []);
      await page.close();
    });

    await t.step("a failing code shows the failure; another code completes", async () => {
      const session = await createSession(world);
      const { page, errors } = await openShop(world, session.embedUrl);
      await waitForCallback(page, "ready");
      const frame = checkoutFrame(page);
      await frame.getByLabel("BLIK code").fill("500500");
      await frame.getByRole("button", { name: /^Pay / }).click();
      const [failed] = await waitForCallback(page, "fail");
      await frame.getByRole("heading", { name: "Payment failed" }).waitFor();
      await frame.getByText("Your bank declined the payment.").waitFor();
      await waitForResized(page);
      await screenshot(page, "embed-failed");
      const open = await api(world, `/api/v1/checkout-sessions/${session.sessionId}`);
      assert.equal(open.status, "OPEN");
      assert.deepEqual(failed, {
        type: "CHECKOUT_FAILED",
        sessionId: session.sessionId,
        paymentId: open.paymentId,
        failureCode: "declined",
      });
      assert.equal((await api(world, `/api/v1/payments/${open.paymentId}`)).status, "FAILED");

      await frame.getByRole("button", { name: "Try again with a new code" }).click();
      const input = frame.getByLabel("BLIK code");
      assert.equal(await input.evaluate((el) => el === document.activeElement), true);
      await input.fill("777");
      await input.press("Enter");
      await frame.getByText("Enter the 6 digits of your BLIK code.").waitFor();
      await input.fill("777999");
      await input.press("Enter");
      const [completed] = await waitForCallback(page, "complete");
      assert.notEqual(completed.paymentId, open.paymentId);
      assert.deepEqual(errors, []);
      await page.close();
    });

    await t.step(
      "a processing payment counts down, survives a reload, then times out",
      async () => {
        const session = await createSession(world);
        const { page, errors } = await openShop(world, session.embedUrl);
        await waitForCallback(page, "ready");
        const frame = checkoutFrame(page);
        await frame.getByLabel("BLIK code").fill("600600");
        await frame.getByLabel("BLIK code").press("Enter");
        await waitForCallback(page, "processing");
        await frame.getByRole("heading", { name: "Confirm the payment in your banking app" })
          .waitFor();
        await frame.getByRole("timer").getByText(/^Time left to confirm: (1:00|0:5\d)$/).waitFor();
        // The countdown runs in the browser between the server's answers.
        await frame.getByRole("timer").getByText(/^Time left to confirm: 0:5\d$/).waitFor();
        await waitForResized(page);
        await screenshot(page, "embed-processing");

        // The shop reloads while the bank decides: the checkout says it is still processing.
        await page.reload();
        await waitForCallback(page, "ready");
        await waitForCallback(page, "processing");
        await frame.getByRole("heading", { name: "Confirm the payment in your banking app" })
          .waitFor();
        checkout.t.clock.advance(SANDBOX_TIMEOUT_MS);
        await checkout.t.services.scheduler.runDue();
        const [failed] = await waitForCallback(page, "fail");
        assert.equal(failed.failureCode, "timeout");
        await frame.getByText("Your bank didn't confirm the payment in time.").waitFor();
        assert.deepEqual(
          (await receivedMessages(page)).filter((m) => m.data.type !== "CHECKOUT_RESIZE")
            .map((m) => m.data.type),
          ["CHECKOUT_READY", "CHECKOUT_PROCESSING", "CHECKOUT_FAILED"],
        );
        assert.deepEqual(errors, []);
        await page.close();
      },
    );

    await t.step("five wrong codes lock code entry", async () => {
      const session = await createSession(world);
      const path = new URL(session.embedUrl).pathname;
      for (let i = 0; i < 4; i++) {
        const response = await checkout.t.app.request(path, {
          method: "POST",
          headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
          body: JSON.stringify({ code: "123456" }),
        });
        assert.equal(response.status, 200);
        await response.body?.cancel();
      }
      const { page, errors } = await openShop(world, session.embedUrl);
      await waitForCallback(page, "ready");
      const frame = checkoutFrame(page);
      await frame.getByRole("button", { name: "Try again with a new code" }).click();
      await frame.getByLabel("BLIK code").fill("700701");
      await frame.getByLabel("BLIK code").press("Enter");
      await frame.getByRole("heading", { name: "Too many attempts" }).waitFor();
      const [failed] = await waitForCallback(page, "fail");
      assert.equal(failed.failureCode, "code_expired");
      await waitForResized(page);
      await screenshot(page, "embed-locked");
      assert.deepEqual(errors, []);
      await page.close();
    });

    await t.step("cancel tells the merchant and goes to cancelUrl", async () => {
      const session = await createSession(world, { cancelUrl: `${shopOrigin}/cart` });
      const { page, errors } = await openShop(world, session.embedUrl);
      await waitForCallback(page, "ready");
      await checkoutFrame(page).getByRole("link", { name: "Cancel" }).click();
      await page.waitForURL(`${shopOrigin}/cart`);
      const callbacks = JSON.parse(
        await page.evaluate(() => sessionStorage.getItem("callbacks") ?? "[]"),
      );
      assert.deepEqual(callbacks.at(-1), {
        name: "cancel",
        message: { type: "CHECKOUT_CANCELED", sessionId: session.sessionId },
      });
      assert.deepEqual(errors, []);
      await page.close();
    });

    await t.step("success sends the whole page to successUrl", async () => {
      const session = await createSession(world, { successUrl: `${shopOrigin}/thanks` });
      const { page, errors } = await openShop(world, session.embedUrl);
      await waitForCallback(page, "ready");
      const frame = checkoutFrame(page);
      await frame.getByLabel("BLIK code").fill("777123");
      await frame.getByLabel("BLIK code").press("Enter");
      await page.waitForURL(`${shopOrigin}/thanks`);
      const callbacks = JSON.parse(
        await page.evaluate(() => sessionStorage.getItem("callbacks") ?? "[]"),
      );
      assert.equal(callbacks.at(-1).name, "complete");
      assert.deepEqual(errors, []);
      await page.close();
    });

    await t.step("an expired session tells the merchant", async () => {
      const session = await createSession(world, { expiresInMinutes: 1 });
      checkout.t.clock.advance(60_000);
      await checkout.t.services.scheduler.runDue();
      const { page, errors } = await openShop(world, session.embedUrl);
      const [expired] = await waitForCallback(page, "expire");
      assert.deepEqual(expired, { type: "CHECKOUT_EXPIRED", sessionId: session.sessionId });
      await checkoutFrame(page).getByRole("heading", { name: "This checkout has expired" })
        .waitFor();
      await waitForResized(page);
      await screenshot(page, "embed-expired");
      assert.deepEqual(errors, []);
      await page.close();
    });

    await t.step("a parent page on another origin is blocked by frame-ancestors", async () => {
      const session = await createSession(world);
      const page = await world.browser.newPage({
        viewport: { width: 1024, height: 900 },
        locale: "en-US",
      });
      const refusals: string[] = [];
      page.on("console", (message) => {
        if (/frame-ancestors/.test(message.text())) refusals.push(message.text());
      });
      // The same shop, reached as 127.0.0.1: another origin than the allowed localhost one.
      await page.goto(
        `http://127.0.0.1:${merchant.port}/shop?embedUrl=${encodeURIComponent(session.embedUrl)}`,
      );
      for (let i = 0; i < 50 && refusals.length === 0; i++) await page.waitForTimeout(100);
      assert.equal(refusals.length > 0, true, "Chromium reports the frame-ancestors refusal");
      assert.match(refusals[0], new RegExp(`frame-ancestors ${shopOrigin}`));
      await page.waitForTimeout(500);
      assert.deepEqual(await receivedMessages(page), []);
      assert.deepEqual(
        await page.evaluate(() => (globalThis as unknown as { callbacks: [] }).callbacks),
        [],
      );
      const frame = page.frames().find((f) => f !== page.mainFrame())!;
      assert.equal(await frame.locator(".code-entry").count(), 0);
      await screenshot(page, "embed-blocked");
      await page.close();
    });
  } finally {
    await browser.close();
    await merchant.close();
    await checkout.close();
  }
});
