import assert from "node:assert/strict";
import { SANDBOX_TIMEOUT_MS } from "../../lib/providers/sandbox.ts";
import { createTestOffer, createTestPayment } from "../support/helpers.ts";
import {
  collectErrors,
  launchBrowser,
  screenshot,
  startCheckoutServer,
  startMerchantSite,
} from "../support/browser.ts";

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 860 };

Deno.test("[e2e] the hosted payment page and the offer QR page", async (t) => {
  const browser = await launchBrowser();
  const checkout = await startCheckoutServer();
  const merchant = startMerchantSite(checkout.origin);
  const shopOrigin = `http://localhost:${merchant.port}`;
  try {
    const offer = await createTestOffer(checkout.t, {
      name: "Flat white, large",
      description: "Oat milk, double shot. Collect at the counter.",
      amount: 1850,
    });
    const newPayment = (fields: Record<string, unknown> = {}) =>
      createTestPayment(checkout.t, offer.qrId, fields);
    const paymentStatus = async (
      paymentId: string,
    ) => (await (await checkout.t.request("GET", `/api/v1/payments/${paymentId}`)).json());

    await t.step("on a phone: pays with 777123 and lands on successUrl", async () => {
      const payment = await newPayment({
        quantity: 2,
        successUrl: `${shopOrigin}/thanks`,
        cancelUrl: `${shopOrigin}/cart`,
      });
      const page = await browser.newPage({
        viewport: PHONE,
        isMobile: true,
        hasTouch: true,
        locale: "en-US",
      });
      const errors = collectErrors(page);
      await page.goto(`${checkout.origin}/pay/${payment.paymentId}`);
      await page.getByRole("heading", { name: "Pay with BLIK" }).waitFor();
      // Nothing is wider than the phone.
      assert.equal(
        await page.evaluate(() => document.documentElement.scrollWidth),
        PHONE.width,
      );
      await screenshot(page, "hosted-phone-ready");
      await page.getByLabel("BLIK code").fill("777 123");
      await page.getByRole("button", { name: "Pay PLN 37.00" }).tap();
      await page.getByRole("heading", { name: "Payment successful" }).waitFor();
      await screenshot(page, "hosted-phone-succeeded");
      await page.waitForURL(`${shopOrigin}/thanks`);
      assert.equal((await paymentStatus(payment.paymentId)).status, "SUCCEEDED");
      assert.deepEqual(errors, []);
      await page.close();
    });

    await t.step("on a desktop, by keyboard alone, with a visible focus", async () => {
      const payment = await newPayment();
      const page = await browser.newPage({ viewport: DESKTOP, locale: "en-US" });
      const errors = collectErrors(page);
      await page.goto(`${checkout.origin}/pay/${payment.paymentId}`);
      await page.getByRole("heading", { name: "Pay with BLIK" }).waitFor();
      // First the switch to Polish, then the code.
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Polski");
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.id), "code");
      const outline = await page.locator("#code").evaluate((el) =>
        getComputedStyle(el).outlineStyle
      );
      assert.equal(outline, "solid");
      await page.keyboard.type("12");
      await page.keyboard.press("Enter");
      await page.getByText("Enter the 6 digits of your BLIK code.").waitFor();
      assert.equal(await page.getAttribute("#code", "aria-invalid"), "true");
      await screenshot(page, "hosted-desktop-invalid");
      assert.equal((await paymentStatus(payment.paymentId)).status, "PENDING");
      await page.keyboard.type("3456");
      assert.equal(await page.getByText("Enter the 6 digits of your BLIK code.").count(), 0);
      assert.equal(await page.getAttribute("#code", "aria-invalid"), "false");
      await page.keyboard.press("Tab");
      assert.equal(await page.evaluate(() => document.activeElement?.id), "email");
      await page.keyboard.press("Tab");
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        "Pay PLN\u00a018.50",
      );
      await screenshot(page, "hosted-desktop-focus");
      await page.keyboard.press("Enter");
      await page.getByRole("heading", { name: "Payment failed" }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.tagName), "H2");
      await page.getByText("That BLIK code wasn't recognised.").waitFor();
      await page.getByRole("button", { name: "Try again with a new code" }).waitFor();
      assert.equal(await page.getByLabel("BLIK code").count(), 0);
      await screenshot(page, "hosted-desktop-failed");
      const failed = await paymentStatus(payment.paymentId);
      assert.equal(failed.status, "FAILED");
      assert.equal(failed.failureCode, "invalid_code");
      assert.deepEqual(errors, []);
      await page.close();
    });

    await t.step("the QR code's /o/{qrId} starts a payment on its hosted page", async () => {
      const page = await browser.newPage({ viewport: PHONE, isMobile: true, locale: "en-US" });
      await page.goto(`${checkout.origin}/o/${offer.qrId}`);
      await page.waitForURL(new RegExp(`^${checkout.origin}/pay/pay_[0-9A-Za-z]{30}$`));
      const paymentId = new URL(page.url()).pathname.slice("/pay/".length);
      assert.equal((await paymentStatus(paymentId)).status, "PENDING");
      await page.getByLabel("BLIK code").fill("777123");
      await page.getByLabel("BLIK code").press("Enter");
      await page.getByRole("heading", { name: "Payment successful" }).waitFor();
      await page.getByText("You can close this page.").waitFor();
      assert.equal((await paymentStatus(paymentId)).status, "SUCCEEDED");
      await page.close();
    });

    await t.step("processing, locked and canceled payments say so", async () => {
      const page = await browser.newPage({ viewport: DESKTOP, locale: "en-US" });
      const errors = collectErrors(page);
      const slow = await newPayment();
      await page.goto(`${checkout.origin}/pay/${slow.paymentId}`);
      await page.getByLabel("BLIK code").fill("600600");
      await page.getByLabel("BLIK code").press("Enter");
      await page.getByRole("heading", { name: "Confirm the payment in your banking app" })
        .waitFor();
      await page.getByText(
        "Open your banking app and approve the BLIK payment of PLN 18.50 to Acme.",
      )
        .waitFor();
      await page.getByRole("timer").getByText(/^Time left to confirm: 0:5\d$/).waitFor();
      await screenshot(page, "hosted-processing");
      checkout.t.clock.advance(SANDBOX_TIMEOUT_MS);
      await checkout.t.services.scheduler.runDue();
      await page.getByText("Your bank didn't confirm the payment in time.").waitFor();

      const scripted = await newPayment();
      for (let i = 0; i < 5; i++) {
        const response = await checkout.t.app.request(`/pay/${scripted.paymentId}`, {
          method: "POST",
          headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
          body: JSON.stringify({ code: "0" }),
        });
        assert.equal(response.status, 400);
        await response.body?.cancel();
      }
      await page.goto(`${checkout.origin}/pay/${scripted.paymentId}`);
      await page.getByRole("heading", { name: "Too many attempts" }).waitFor();
      assert.equal(await page.getByLabel("BLIK code").count(), 0);
      await screenshot(page, "hosted-locked");

      const canceled = await newPayment({ cancelUrl: `${shopOrigin}/cart` });
      await checkout.t.request("POST", `/api/v1/payments/${canceled.paymentId}/cancel`);
      await page.goto(`${checkout.origin}/pay/${canceled.paymentId}`);
      await page.getByRole("heading", { name: "This payment was canceled" }).waitFor();
      await screenshot(page, "hosted-canceled");
      assert.deepEqual(errors, []);
      await page.close();
    });

    await t.step(
      "without JavaScript, a processing page reloads itself until the outcome",
      async () => {
        const context = await browser.newContext({
          javaScriptEnabled: false,
          viewport: PHONE,
          locale: "en-US",
        });
        const page = await context.newPage();
        const payment = await newPayment();
        await page.goto(`${checkout.origin}/pay/${payment.paymentId}`);
        await page.getByLabel("BLIK code").fill("600600");
        await page.getByRole("button", { name: "Pay PLN 18.50" }).click();
        await page.getByRole("heading", { name: "Confirm the payment in your banking app" })
          .waitFor();
        await page.getByText("Time left to confirm: 1:00").waitFor();
        await screenshot(page, "hosted-processing-no-script");
        checkout.t.clock.advance(SANDBOX_TIMEOUT_MS);
        await checkout.t.services.scheduler.runDue();
        // No script runs: only the page's own refresh can bring the outcome.
        await page.getByRole("heading", { name: "Payment failed" }).waitFor();
        await page.getByText("Your bank didn't confirm the payment in time.").waitFor();
        await context.close();
      },
    );

    await t.step("expired, unavailable and unknown links show a clear page", async () => {
      const page = await browser.newPage({ viewport: PHONE, isMobile: true, locale: "en-US" });
      const payment = await newPayment({ expiresInMinutes: 1, cancelUrl: `${shopOrigin}/cart` });
      checkout.t.clock.advance(60_000);
      await page.goto(`${checkout.origin}/pay/${payment.paymentId}`);
      await page.getByRole("heading", { name: "This payment link has expired" }).waitFor();
      await page.getByRole("link", { name: "Return to Acme" }).waitFor();
      await screenshot(page, "hosted-expired");

      const gone = await createTestOffer(checkout.t, { name: "Pumpkin spice latte" });
      await checkout.t.request("PATCH", `/api/v1/qr/${gone.qrId}`, { active: false });
      const response = await page.goto(`${checkout.origin}/o/${gone.qrId}`);
      assert.equal(response?.status(), 410);
      await page.getByRole("heading", { name: "This offer is no longer available" }).waitFor();
      await screenshot(page, "offer-unavailable");

      const missing = await page.goto(`${checkout.origin}/pay/pay_000000000000000000000000`);
      assert.equal(missing?.status(), 404);
      await page.getByRole("heading", { name: "We can't find this page" }).waitFor();
      await screenshot(page, "not-found");
      await page.close();
    });
  } finally {
    await browser.close();
    await merchant.close();
    await checkout.close();
  }
});
