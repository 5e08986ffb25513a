import assert from "node:assert/strict";
import type { Browser, BrowserContext } from "playwright-core";
import { BusinessDetailsInput, putBusinessDetails } from "../../lib/business_details.ts";
import { pageWithoutIslands, seriousViolations } from "../support/axe.ts";
import {
  collectErrors,
  launchBrowser,
  screenshot,
  startCheckoutServer,
  startMerchantSite,
} from "../support/browser.ts";
import { createTestOffer, createTestPayment } from "../support/helpers.ts";

const DESKTOP = { width: 1280, height: 900 };

/** Who the shop is: the footer of every customer page shows it. */
const DETAILS = BusinessDetailsInput.parse({
  legalName: "Palarnia Acme sp. z o.o.",
  address: { line1: "ul. Długa 5", postalCode: "80-827", city: "Gdańsk", country: "PL" },
  taxId: "5260250274",
  contactEmail: "sklep@acme.pl",
  defaultLanguage: "pl",
  invoiceRequests: true,
});

function context(browser: Browser, locale: "pl-PL" | "en-US", javaScriptEnabled = true) {
  return browser.newContext({ locale, javaScriptEnabled, viewport: DESKTOP });
}

/** The page at `url` has no serious or critical axe violation, with and without its islands. */
async function assertAccessible(ctx: BrowserContext, url: string, where: string) {
  const page = await ctx.newPage();
  await page.goto(url);
  await page.locator("[data-phase]").waitFor();
  assert.deepEqual(await seriousViolations(page), [], `${where}, JavaScript on`);
  await page.close();
  const plain = await pageWithoutIslands(ctx);
  await plain.goto(url);
  assert.deepEqual(await seriousViolations(plain), [], `${where}, JavaScript off`);
  await plain.close();
}

Deno.test("[e2e] customers pay in Polish and in English, on the hosted page and in the iframe", async (t) => {
  const browser = await launchBrowser();
  const checkout = await startCheckoutServer();
  const merchant = startMerchantSite(checkout.origin);
  const shopOrigin = `http://localhost:${merchant.port}`;
  try {
    const app = checkout.t;
    await putBusinessDetails(app.accounts, app.orgId, DETAILS, app.clock.now());
    await app.request("PUT", "/api/v1/checkout-settings", { allowedOrigins: [shopOrigin] });
    const offer = await createTestOffer(app, { name: "Kawa Etiopia Guji", amount: 1850 });
    const status = async (paymentId: string) =>
      (await (await app.request("GET", `/api/v1/payments/${paymentId}`)).json()).status;
    const session = async () => {
      const response = await app.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
        embedLink: `${shopOrigin}/shop`,
      });
      return (await response.json()).embedUrl as string;
    };

    await t.step("pl-PL, hosted page: a declined code, then a new code pays", async () => {
      const payment = await createTestPayment(app, offer.qrId, { quantity: 2 });
      const ctx = await context(browser, "pl-PL");
      const page = await ctx.newPage();
      const errors = collectErrors(page);
      await page.goto(`${checkout.origin}/pay/${payment.paymentId}`);
      await page.getByRole("heading", { name: "Zapłać kodem BLIK" }).waitFor();
      assert.equal(await page.getAttribute("html", "lang"), "pl");
      assert.equal(await page.locator(".summary__amount").textContent(), "37,00\u00a0zł");
      await page.getByText("Sprzedawca: Palarnia Acme sp. z o.o.").waitFor();
      await screenshot(page, "hosted-pl-ready");
      if (Deno.env.get("UPDATE_DOCS_SCREENSHOT")) {
        await page.screenshot({
          path: new URL("../../docs/hosted-page-pl.png", import.meta.url).pathname,
          fullPage: true,
        });
      }
      await page.getByLabel("Kod BLIK").fill("500500");
      await page.getByRole("button", { name: "Zapłać 37,00 zł" }).click();
      await page.getByRole("heading", { name: "Płatność nieudana" }).waitFor();
      await page.getByText("Bank odrzucił płatność. Spróbuj ponownie z nowym kodem").waitFor();
      assert.equal(await status(payment.paymentId), "FAILED");
      assert.deepEqual(await seriousViolations(page), [], "the failure, in Polish");
      await page.getByRole("button", { name: "Spróbuj ponownie z nowym kodem" }).click();
      await page.waitForURL(/\/pay\/pay_[0-9A-Za-z]{30}$/);
      const next = new URL(page.url()).pathname.slice("/pay/".length);
      assert.notEqual(next, payment.paymentId);
      await page.getByLabel("Kod BLIK").fill("777 123");
      await page.getByLabel("Adres e-mail (opcjonalnie)").fill("anna@example.pl");
      await page.getByRole("button", { name: "Zapłać 37,00 zł" }).click();
      await page.getByRole("heading", { name: "Płatność zakończona" }).waitFor();
      await page.getByText("Płatność na kwotę 37,00 zł dla Acme została zrealizowana.").waitFor();
      assert.equal(await status(next), "SUCCEEDED");
      assert.deepEqual(await seriousViolations(page), [], "the success, in Polish");
      assert.deepEqual(errors, []);
      await ctx.close();
    });

    await t.step("pl-PL without JavaScript: the same, by plain forms", async () => {
      const payment = await createTestPayment(app, offer.qrId);
      const ctx = await context(browser, "pl-PL", false);
      const page = await ctx.newPage();
      await page.goto(`${checkout.origin}/pay/${payment.paymentId}`);
      await page.getByLabel("Kod BLIK").fill("700701");
      await page.getByRole("button", { name: "Zapłać 18,50 zł" }).click();
      await page.getByText("Kod BLIK wygasł, zanim został użyty.").waitFor();
      await page.getByRole("button", { name: "Spróbuj ponownie z nowym kodem" }).click();
      await page.getByLabel("Kod BLIK").fill("777123");
      await page.getByRole("button", { name: "Zapłać 18,50 zł" }).click();
      await page.getByRole("heading", { name: "Płatność zakończona" }).waitFor();
      await ctx.close();
    });

    await t.step("en-US, hosted page: English words, PLN 18.50", async () => {
      const payment = await createTestPayment(app, offer.qrId);
      const ctx = await context(browser, "en-US");
      const page = await ctx.newPage();
      await page.goto(`${checkout.origin}/pay/${payment.paymentId}`);
      await page.getByRole("heading", { name: "Pay with BLIK" }).waitFor();
      assert.equal(await page.getAttribute("html", "lang"), "en");
      assert.equal(await page.locator(".summary__amount").textContent(), "PLN\u00a018.50");
      // The customer's own switch, a plain link.
      await page.getByRole("link", { name: "Polski" }).click();
      await page.getByRole("heading", { name: "Zapłać kodem BLIK" }).waitFor();
      await page.getByRole("link", { name: "English" }).click();
      await page.getByLabel("BLIK code").fill("777123");
      await page.getByRole("button", { name: "Pay PLN 18.50" }).click();
      await page.getByRole("heading", { name: "Payment successful" }).waitFor();
      await page.getByText("PLN 18.50 paid to Acme.").waitFor();
      await ctx.close();
    });

    for (
      const [locale, lang, words] of [
        ["pl-PL", "pl", {
          pay: "Zapłać 18,50 zł",
          failed: "Płatność nieudana",
          retry: "Spróbuj ponownie z nowym kodem",
          done: "Płatność zakończona",
        }],
        ["en-US", "en", {
          pay: "Pay PLN 18.50",
          failed: "Payment failed",
          retry: "Try again with a new code",
          done: "Payment successful",
        }],
      ] as const
    ) {
      await t.step(`${locale}, iframe: a failed code, then a new code completes`, async () => {
        const embedUrl = await session();
        const ctx = await context(browser, locale);
        const page = await ctx.newPage();
        await page.goto(`${shopOrigin}/shop?embedUrl=${encodeURIComponent(embedUrl)}`);
        const frame = page.frameLocator("#checkout iframe");
        assert.equal(await frame.locator("html").getAttribute("lang"), lang);
        await frame.locator("#code").fill("123456");
        await frame.getByRole("button", { name: words.pay }).click();
        await frame.getByRole("heading", { name: words.failed }).waitFor();
        await frame.getByRole("button", { name: words.retry }).click();
        await frame.locator("#code").fill("777123");
        await frame.getByRole("button", { name: words.pay }).click();
        await frame.getByRole("heading", { name: words.done }).waitFor();
        await ctx.close();
      });
    }

    await t.step(
      "axe: no serious or critical violation, both languages, JavaScript on and off",
      async () => {
        for (const locale of ["pl-PL", "en-US"] as const) {
          const ctx = await context(browser, locale);
          const payment = await createTestPayment(app, offer.qrId);
          await assertAccessible(
            ctx,
            `${checkout.origin}/pay/${payment.paymentId}`,
            `${locale} hosted`,
          );
          // The iframe's page on its own: the same document the shop frames.
          await assertAccessible(ctx, await session(), `${locale} iframe`);
          await ctx.close();
        }
      },
    );
  } finally {
    await browser.close();
    await merchant.close();
    await checkout.close();
  }
});
