import assert from "node:assert/strict";
import { createOrganisation } from "../../lib/accounts/organisations.ts";
import { DEMO_OWNER_EMAIL } from "../../lib/demo.ts";
import { addUser } from "../support/panel_helpers.ts";
import {
  collectErrors,
  launchBrowser,
  screenshot,
  signIn,
  startCheckoutServer,
} from "../support/browser.ts";

Deno.test("[e2e] the home: the demo owner's greeting and Quick Start, production's Go live list", async (s) => {
  const browser = await launchBrowser();
  try {
    await s.step(
      "sandbox: the demo owner is greeted by name and offered the Quick Start",
      async () => {
        const server = await startCheckoutServer("sandbox");
        try {
          await createOrganisation(
            server.t.accounts,
            { slug: "demo", name: "Demo shop", plan: "ENTERPRISE" },
            server.t.clock.now(),
          );
          const demo = await addUser(server.t, {
            email: DEMO_OWNER_EMAIL,
            name: "Demo owner",
            role: "OWNER",
            orgSlug: "demo",
          });
          const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
          const errors = collectErrors(page);
          await signIn(page, server.origin, demo.email, demo.password);
          const heading = page.getByRole("heading", { level: 1 });
          await heading.waitFor();
          assert.equal(await heading.textContent(), "Hello, Demo owner");
          assert.equal(
            await page.locator(".page-header__description").textContent(),
            "Demo shop in the sandbox, last 30 days (UTC).",
          );
          await page.getByRole("link", { name: "Open the Quick Start" }).waitFor();
          assert.equal(await page.getByRole("heading", { name: "Go live" }).count(), 0);
          await screenshot(page, "panel-home-sandbox-empty");
          assert.deepEqual(errors, []);
          await page.close();
        } finally {
          await server.close();
        }
      },
    );

    await s.step("production: a checklist with links, no Quick Start", async () => {
      const server = await startCheckoutServer("production");
      try {
        const owner = await addUser(server.t, {
          email: "owner@acme.test",
          name: "Ada Lovelace",
          role: "OWNER",
        });
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        const errors = collectErrors(page);
        await signIn(page, server.origin, owner.email, owner.password);
        await page.getByRole("heading", { name: "Hello, Ada Lovelace" }).waitFor();
        const card = page.locator("#go-live");
        assert.deepEqual(
          await card.locator(".qs-step__title").allTextContents(),
          [
            "Step 1: Payment provider",
            "Step 2 (done): Production API key",
            "Step 3: Webhook endpoint",
            "Step 4: Business details",
          ],
        );
        assert.equal(await page.getByRole("link", { name: "Open the Quick Start" }).count(), 0);
        await screenshot(page, "panel-home-production-empty");
        await card.getByRole("link", { name: "Webhooks →" }).click();
        await page.waitForURL(`${server.origin}/panel/developers/webhooks`);
        assert.deepEqual(errors, []);
        await page.close();
      } finally {
        await server.close();
      }
    });
  } finally {
    await browser.close();
  }
});
