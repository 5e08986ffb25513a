import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { setOrganisationPlan } from "../../lib/accounts/organisations.ts";
import { addUser } from "../support/panel_helpers.ts";
import { collectErrors, launchBrowser, startCheckoutServer } from "../support/browser.ts";

async function signIn(page: Page, origin: string, email: string, password: string) {
  await page.goto(`${origin}/panel`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: /^Hello/ }).waitFor();
}

/** How much wider than the window the page is, in CSS pixels (0: no sideways scrolling). */
function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
}

Deno.test("[e2e] the Quick Start's long commands stay inside the page, wide and narrow", async () => {
  const server = await startCheckoutServer();
  const browser = await launchBrowser();
  try {
    const user = await addUser(server.t, { email: "ada@acme.test", role: "OWNER" });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = collectErrors(page);
    await signIn(page, server.origin, user.email, user.password);
    await page.goto(`${server.origin}/panel/developers/quickstart`);
    const step = (index: number) => page.locator(".qs-step").nth(index);
    await step(1).getByRole("button", { name: "Run" }).click();
    await step(1).getByText("Response · 201").waitFor();
    await step(4).getByRole("button", { name: "Run" }).click();
    await step(4).getByRole("link", { name: "See it embedded" }).waitFor();
    const curl = await page.locator("#qs-curl-checkout").textContent() ?? "";
    const embedLink = `${server.origin}/panel/developers/checkout/preview`;
    assert.ok(curl.endsWith(`-d '{"embedLink":"${embedLink}"}' | jq -r .sessionId)`), curl);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      assert.equal(await pageOverflow(page), 0, `no sideways scrolling at ${width}px`);
    }

    // The session the curl describes is framed on the panel's preview page, its allowed origin.
    await page.setViewportSize({ width: 1280, height: 900 });
    await step(4).getByRole("link", { name: "See it embedded" }).click();
    await page.frameLocator("iframe").getByText("Quick Start coffee").first().waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});

Deno.test("[e2e] a FREE owner is offered Developers, and reads the API reference", async () => {
  const server = await startCheckoutServer();
  const browser = await launchBrowser();
  try {
    await setOrganisationPlan(server.t.accounts, "acme", "FREE", server.t.clock.now());
    const user = await addUser(server.t, { email: "ada@acme.test", role: "OWNER" });
    const page = await browser.newPage();
    await signIn(page, server.origin, user.email, user.password);
    const nav = page.getByRole("navigation", { name: "Panel" });
    assert.deepEqual(
      await nav.locator("a").allTextContents(),
      ["Home", "Payments", "Offers", "Team and plan", "OverviewUpgrade", "API reference"],
    );
    await nav.getByRole("link", { name: "Overview" }).click();
    const perks = await page.locator(".upgrade .ticks li").allTextContents();
    assert.deepEqual(perks, [
      "API keys for your server, in sandbox and production",
      "Signed webhooks with a delivery log, resends and test events",
      "Embedded checkout on your own pages, with a live preview",
      "The interactive Quick Start",
    ]);
    await page.locator(".upgrade").getByRole("link", { name: "API reference" }).click();
    await page.waitForURL(`${server.origin}/panel/reference`);
    await page.locator("#createOffer").waitFor();
    // Its longest schema names break on a small phone rather than widen the page.
    await page.setViewportSize({ width: 320, height: 900 });
    assert.equal(await pageOverflow(page), 0);
  } finally {
    await browser.close();
    await server.close();
  }
});
