import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { createOrganisation } from "../../lib/accounts/organisations.ts";
import type { Environment } from "../../lib/config.ts";
import { DEMO_OWNER_EMAIL } from "../../lib/demo.ts";
import { makeTestApp, type TestApp } from "../helpers.ts";
import { addUser } from "../panel_helpers.ts";
import { collectErrors, launchBrowser, screenshot } from "./helpers.ts";

/** A test app of `environment` served on 127.0.0.1, which is its public URL. */
async function startPanelServer(
  environment: Environment,
): Promise<{ t: TestApp; origin: string; close(): Promise<void> }> {
  const built: { app?: TestApp } = {};
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) =>
      built.app ? built.app.app.fetch(request) : new Response("starting", { status: 503 }),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const own = environment === "sandbox" ? "SANDBOX_PUBLIC_URL" : "PRODUCTION_PUBLIC_URL";
  const t = await makeTestApp({ environment, env: { PUBLIC_URL: origin, [own]: origin } });
  built.app = t;
  return {
    t,
    origin,
    async close() {
      await server.shutdown();
      await t.close();
    },
  };
}

async function signIn(page: Page, origin: string, email: string, password: string) {
  await page.goto(`${origin}/panel`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

Deno.test("[e2e] the home: the demo owner's greeting and Quick Start, production's Go live list", async (s) => {
  const browser = await launchBrowser();
  try {
    await s.step(
      "sandbox: the demo owner is greeted by name and offered the Quick Start",
      async () => {
        const server = await startPanelServer("sandbox");
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
      const server = await startPanelServer("production");
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
