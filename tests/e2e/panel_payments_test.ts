import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createTestOffer, createTestPayment, type TestApp } from "../helpers.ts";
import { addUser } from "../panel_helpers.ts";
import { collectErrors, launchBrowser, startCheckoutServer } from "./helpers.ts";

const CONFIRMATION = "Refund 12.50 PLN to the customer? This cannot be undone.";

/** What the API says was refunded of a payment: its total and each refund's amount. */
async function refundedOf(t: TestApp, paymentId: string) {
  const payment = await (await t.request("GET", `/api/v1/payments/${paymentId}`)).json();
  const refunds = await (await t.request("GET", `/api/v1/payments/${paymentId}/refunds`)).json();
  return {
    amountRefunded: payment.amountRefunded,
    refunds: refunds.data.map((refund: { amount: number }) => refund.amount),
  };
}

/** Opens a succeeded payment of 12.50 PLN, asks for its refund and cancels, then confirms. */
async function refundTwice(page: Page, t: TestApp, origin: string, paymentId: string) {
  await page.goto(`${origin}/panel/payments?status=SUCCEEDED`);
  await page.locator(`a.row-link[href="/panel/payments/${paymentId}"]`).click();
  await page.getByRole("heading", { name: "Events" }).waitFor();

  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await page.getByText(CONFIRMATION, { exact: true }).waitFor();
  assert.deepEqual(await refundedOf(t, paymentId), { amountRefunded: 0, refunds: [] });
  await page.getByRole("link", { name: "Cancel", exact: true }).click();
  await page.waitForURL(`${origin}/panel/payments/${paymentId}#refunds`);
  await page.getByText("No refunds.").waitFor();
  assert.equal(await page.getByText(CONFIRMATION).count(), 0);
  assert.equal(await page.getByLabel("Amount (PLN)").inputValue(), "12.50");
  assert.deepEqual(await refundedOf(t, paymentId), { amountRefunded: 0, refunds: [] });

  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await page.getByText(CONFIRMATION, { exact: true }).waitFor();
  await page.getByRole("button", { name: "Refund 12.50 PLN", exact: true }).click();
  await page.getByText("Refund created.").waitFor();
  await page.locator("#refunds").getByRole("cell", { name: "PLN 12.50" }).waitFor();
  await page.getByText("Refunded in full.").waitFor();
  assert.deepEqual(await refundedOf(t, paymentId), { amountRefunded: 1250, refunds: [1250] });
}

Deno.test("[e2e] a refund asks first, saying the exact amount, with and without JavaScript", async (t) => {
  const browser = await launchBrowser();
  const checkout = await startCheckoutServer();
  try {
    const { origin } = checkout;
    const owner = await addUser(checkout.t, { email: "owner@acme.test", role: "OWNER" });
    const offer = await createTestOffer(checkout.t, { name: "Espresso beans", amount: 1250 });
    for (const javaScriptEnabled of [true, false]) {
      await t.step(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, async () => {
        const payment = await createTestPayment(checkout.t, offer.qrId);
        await checkout.t.request("POST", `/api/v1/payments/${payment.paymentId}/complete`, {
          code: "777123",
        });
        const context = await browser.newContext({
          viewport: { width: 1280, height: 900 },
          javaScriptEnabled,
        });
        const page = await context.newPage();
        const errors = collectErrors(page);
        await page.goto(`${origin}/panel/sign-in`);
        await page.getByLabel("E-mail").fill(owner.email);
        await page.getByLabel("Password").fill(owner.password);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL(`${origin}/panel`);
        await refundTwice(page, checkout.t, origin, payment.paymentId);
        assert.deepEqual(errors, []);
        await context.close();
      });
    }
  } finally {
    await browser.close();
    await checkout.close();
  }
});
