import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { migrate, openStore, type Store } from "../../db/client.ts";
import { accountsMigrations, environmentMigrations } from "../../db/migrations/mod.ts";
import type { AccountsSchema, EnvironmentSchema } from "../../db/schema.ts";
import { createOrganisation, createUser } from "../../lib/accounts/organisations.ts";
import { ManualClock } from "../../lib/clock.ts";
import { loadConfig } from "../../lib/config.ts";
import { type DemoCredentials, ensureDemoOrganisation } from "../../lib/demo.ts";
import { silentLogger } from "../../lib/log.ts";
import { createApp, type PaysteadApp } from "../../routes/app.ts";
import { addUser, PASSWORD } from "../support/panel_helpers.ts";
import { verifyWebhook } from "../../examples/verify_webhook.ts";
import { startReceiver } from "../support/webhook_receiver.ts";
import {
  collectErrors,
  launchBrowser,
  screenshot as fullScreenshot,
  signIn,
} from "../support/browser.ts";

const DAY = 86_400_000;

/** The sandbox as a first start leaves it: the demo organisation, its owner and key, served. */
interface DemoServer {
  origin: string;
  built: PaysteadApp;
  clock: ManualClock;
  accounts: Store<AccountsSchema>;
  demo: DemoCredentials;
  /** Calls the API with the demo key. */
  api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Serves a fresh sandbox on 127.0.0.1 (its public URL) after `ensureDemoOrganisation`. */
async function startDemoServer(): Promise<DemoServer> {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-panel-e2e-" });
  const holder: { built?: PaysteadApp } = {};
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request, info) =>
      holder.built
        ? holder.built.app.fetch(request, info)
        : new Response("starting", { status: 503 }),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL: origin,
    SANDBOX_PUBLIC_URL: origin,
    PRODUCTION_PUBLIC_URL: "http://127.0.0.1:1",
  });
  const accounts = await openStore<AccountsSchema>(config.accountsDatabaseUrl);
  const store = await openStore<EnvironmentSchema>(config.databaseUrl);
  await migrate(accounts, accountsMigrations);
  await migrate(store, environmentMigrations);
  const clock = new ManualClock();
  const demo = await ensureDemoOrganisation(accounts, store, clock.now());
  assert.ok(demo, "a first start creates the demo organisation");
  const built = createApp({ config, store, accounts, clock, log: silentLogger });
  holder.built = built;
  return {
    origin,
    built,
    clock,
    accounts,
    demo,
    async api(method, path, body) {
      const response = await built.app.request(path, {
        method,
        headers: {
          authorization: `Bearer ${demo.apiKey}`,
          ...(body !== undefined && { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      assert.ok(response.ok, `${method} ${path}: ${response.status}`);
      return await response.json();
    },
    async close() {
      await server.shutdown();
      await built.services.scheduler.stop();
      await built.webhooks.stop();
      await store.close();
      await accounts.close();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

/** Thirty days of payments: a few a day, most succeeding, some declined, in two currencies. */
async function seedPayments(server: DemoServer) {
  const offer = (fields: Record<string, unknown>) =>
    server.api("POST", "/api/v1/qr", { currency: "PLN", ...fields });
  const coffee = await offer({ name: "Ethiopia Guji, 1 kg", amount: 6900 });
  const box = await offer({
    name: "Monthly coffee box",
    amount: 4900,
    recurring: { interval: "MONTH" },
  });
  const euro = await offer({ name: "Filter papers", amount: 450, currency: "EUR" });
  // Thirty days back in time, then forward a day at a time to today.
  server.clock.advance(-30 * DAY);
  for (let day = 0; day < 30; day++) {
    const count = 1 + ((day * 7) % 5);
    for (let index = 0; index < count; index++) {
      const chosen = index % 3 === 0 ? box : index % 4 === 1 ? euro : coffee;
      const payment = await server.api("POST", "/api/v1/payments", {
        qrId: chosen.qrId,
        customer: { email: `customer${day}-${index}@example.com`, name: "Grace Hopper" },
      });
      const code = (day + index) % 6 === 0 ? "500500" : "777123";
      await server.api("POST", `/api/v1/payments/${payment.paymentId}/complete`, { code });
    }
    server.clock.advance(DAY);
  }
  return { coffee: coffee as { qrId: string } };
}

/**
 * A full-page screenshot from the top, so the sticky header and navigation are drawn where they
 * belong; `viewportOnly` for the very long reference page.
 */
async function screenshot(page: Page, name: string, viewportOnly = false): Promise<void> {
  if (viewportOnly) {
    await page.screenshot({
      path: new URL(`./screenshots/${name}.png`, import.meta.url).pathname,
    });
    return;
  }
  await page.evaluate(() => globalThis.scrollTo(0, 0));
  await fullScreenshot(page, name);
}

/** Elements that stick out of the viewport sideways, outside the parts that scroll on purpose. */
function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((element) => !element.closest(".nav, .table-wrap, .chart, .code pre"))
      .filter((element) => element.getBoundingClientRect().right > width + 0.5)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
  });
}

Deno.test("[e2e] the merchant panel, page by page, in Chromium", async (t) => {
  let browser: Browser | undefined;
  const server = await startDemoServer();
  const receiver = startReceiver();
  try {
    browser = await launchBrowser();
    const { origin } = server;
    const { coffee } = await seedPayments(server);
    const owner = { email: server.demo.email, password: server.demo.oneTimePassword };
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
    const errors = collectErrors(page);

    await t.step("sign in with the one-time password, then choose a password", async () => {
      await page.goto(`${origin}/panel/payments`);
      assert.match(page.url(), /\/panel\/sign-in\?next=%2Fpanel%2Fpayments$/);
      await screenshot(page, "panel-sign-in");
      await page.getByLabel("E-mail").fill(owner.email);
      await page.getByLabel("Password").fill("not the password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByText("That e-mail address and password don't match an account.").waitFor();
      await page.getByLabel("Password").fill(owner.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Choose your password" }).waitFor();
      await screenshot(page, "panel-choose-password");
      await page.getByLabel("New password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Repeat the new password").fill(PASSWORD);
      await page.getByRole("button", { name: "Save and continue" }).click();
      await page.getByText("Your password is set. Welcome to Paystead.").waitFor();
    });

    await t.step("home: 30 days of volume and success rate", async () => {
      assert.equal(await page.locator(".chart__bar").count() > 20, true);
      assert.equal(await page.locator(".chart__line").count() >= 1, true);
      await page.getByRole("link", { name: "EUR" }).waitFor();
      await screenshot(page, "panel-home");
      await page.setViewportSize({ width: 375, height: 800 });
      assert.deepEqual(await overflowing(page), [], "nothing wider than a phone");
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 375);
      await screenshot(page, "panel-home-phone");
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await t.step("payments: list, detail with events, refund", async () => {
      await page.getByRole("link", { name: "Payments" }).first().click();
      await page.getByRole("heading", { name: "Payments" }).waitFor();
      await screenshot(page, "panel-payments");
      await page.locator("select[name=status]").selectOption("SUCCEEDED");
      await page.getByRole("button", { name: "Filter" }).click();
      assert.match(page.url(), /status=SUCCEEDED/);
      await page.locator(".row-link").first().click();
      await page.getByRole("heading", { name: "Events" }).waitFor();
      await page.getByLabel("Reason (optional)").fill("Damaged in transit");
      await page.getByRole("button", { name: "Refund" }).click();
      await page.getByRole("button", { name: /^Refund \d/ }).click();
      await page.getByText("Refund created.").waitFor();
      await page.getByRole("cell", { name: "Damaged in transit" }).waitFor();
      await screenshot(page, "panel-payment");
    });

    await t.step("offers: create one with a mistake, fix it, see its QR code", async () => {
      await page.goto(`${origin}/panel/offers/new`);
      await page.getByLabel("Name").fill("Espresso blend");
      await page.getByLabel("Price").fill("12.505");
      await page.getByRole("button", { name: "Create offer" }).click();
      await page.getByText("Enter an amount like 12.50").waitFor();
      await screenshot(page, "panel-offer-new-error");
      await page.getByLabel("Price").fill("24.90");
      await page.getByRole("button", { name: "Create offer" }).click();
      await page.getByText("Offer created.").waitFor();
      const qr = page.locator("img.qr__image");
      await qr.waitFor();
      // The first QR code a process draws loads its library then: the image may still be loading.
      await qr.evaluate((img) =>
        (img as HTMLImageElement).complete ||
        new Promise((settled) => {
          img.addEventListener("load", settled, { once: true });
          img.addEventListener("error", settled, { once: true });
        })
      );
      assert.ok(await qr.evaluate((img) => (img as HTMLImageElement).naturalWidth > 0));
      await screenshot(page, "panel-offer");
      await page.goto(`${origin}/panel/offers`);
      await screenshot(page, "panel-offers");
    });

    await t.step("team: invite with a one-time link", async () => {
      await page.goto(`${origin}/panel/team`);
      await page.getByLabel("E-mail", { exact: true }).fill("grace@demo.test");
      await page.locator("select[name=role]").last().selectOption("ADMIN");
      await page.getByRole("button", { name: "Create invitation link" }).click();
      await page.getByText("Invitation for grace@demo.test created").waitFor();
      await screenshot(page, "panel-team");
    });

    await t.step("API keys: create, copy, roll", async () => {
      await page.goto(`${origin}/panel/developers`);
      await screenshot(page, "panel-developers");
      await page.getByRole("link", { name: "API keys" }).first().click();
      await page.getByLabel("Name").fill("Shop backend");
      await page.getByRole("button", { name: "Create key" }).click();
      const secret = await page.locator("#new-secret").textContent();
      assert.match(secret ?? "", /^sk_sandbox_[0-9A-Za-z]{32}$/);
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.locator(".once").getByRole("button", { name: "Copy" }).click();
      await page.getByRole("button", { name: "Copied" }).waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
      await screenshot(page, "panel-api-keys");
      const response = await server.built.app.request("/api/v1/qr", {
        headers: { authorization: `Bearer ${secret}` },
      });
      assert.equal(response.status, 200);
      // The page is shown once: a reload has no secret any more.
      await page.goto(`${origin}/panel/developers/api-keys`);
      assert.equal(await page.locator("#new-secret").count(), 0);
      const row = page.locator("tr", { hasText: "Shop backend" });
      await row.getByText("Roll", { exact: true }).click();
      await row.locator("select[name=expiresIn]").selectOption("1h");
      await row.getByRole("button", { name: "Roll key" }).click();
      await page.getByText("Key rolled").waitFor();
      assert.notEqual(await page.locator("#new-secret").textContent(), secret);
      await page.locator("tr", { hasText: "Expiring" }).locator(".key__name", {
        hasText: "Shop backend",
      })
        .waitFor();
      await screenshot(page, "panel-api-keys-rolled");
    });

    await t.step("Quick Start: every step runs and the webhook arrives", async () => {
      await page.goto(`${origin}/panel/developers/quickstart`);
      const step = (index: number) => page.locator(".qs-step").nth(index);
      await step(0).getByRole("button", { name: "Create key" }).click();
      assert.match(await page.locator("#qs-secret").textContent() ?? "", /^sk_sandbox_/);
      await step(1).getByRole("button", { name: "Run" }).click();
      await step(1).getByText("Response · 201").waitFor();
      await step(2).getByRole("button", { name: "Set up" }).click();
      await step(2).getByText("/sandbox/webhook-inbox/inb_").first().waitFor();
      await step(3).getByRole("button", { name: "Run" }).click();
      await step(3).getByRole("link", { name: "Open the hosted payment page" }).waitFor();
      await step(4).getByRole("button", { name: "Run" }).click();
      await step(4).getByRole("link", { name: "See it embedded" }).waitFor();
      await step(5).getByRole("button", { name: "Run" }).click();
      await step(5).getByText("Response · 200").waitFor();
      assert.match(await step(5).locator(".code--live").textContent() ?? "", /"COMPLETED"/);
      await page.getByText("checkout.session.completed reached the inbox with a valid signature.")
        .waitFor({ timeout: 20_000 });
      await screenshot(page, "panel-quickstart");
      await page.locator(".qs-step").nth(6).getByRole("link", { name: "Full delivery log" })
        .click();
      await page.locator(".delivery").getByText("checkout.session.completed").waitFor();
      await screenshot(page, "panel-webhook-inbox");
      await page.goBack();
      await page.getByRole("link", { name: "API reference: create an offer" }).click();
      await page.waitForURL(/\/panel\/reference#createOffer$/);
      assert.ok(await page.locator("#createOffer").isVisible());
      await screenshot(page, "panel-reference", true);
    });

    await t.step("webhooks: add an endpoint, send a test event, see it in the log", async () => {
      await page.goto(`${origin}/panel/developers/webhooks`);
      await page.getByRole("link", { name: "Add endpoint" }).click();
      await page.getByLabel("Endpoint URL").fill(receiver.url);
      await page.getByLabel("Description (optional)").fill("Shop backend");
      await page.getByLabel("Only the events ticked below").check();
      await page.getByRole("checkbox", { name: "payment.*" }).check();
      await page.getByRole("checkbox", { name: "refund.succeeded" }).check();
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await page.getByText("Endpoint added.").waitFor();
      await page.getByText("payment.*, refund.succeeded").waitFor();
      await page.getByRole("button", { name: "Send test event" }).click();
      await page.getByText("webhook.test is on its way").waitFor();
      // The queue sends it after the commit; the log is a page, so look again until it shows.
      for (let tries = 0; tries < 50 && receiver.received.length === 0; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await page.reload();
      await page.locator(".delivery__meta").getByText("HTTP 200").waitFor();
      assert.equal(page.url().includes("notice=test"), false);
      await page.getByText("webhook-signature").first().waitFor();
      await page.getByRole("button", { name: "Reveal" }).click();
      const secret = await page.locator("#signing-secret").textContent() ?? "";
      const [delivered] = receiver.received;
      const event = await verifyWebhook<{ type: string }>(
        delivered.body,
        delivered.headers,
        secret,
        {
          now: server.clock.now(),
        },
      );
      assert.equal(event.type, "webhook.test");
      await page.locator(".delivery summary").first().click();
      await screenshot(page, "panel-webhook");
      await page.goto(`${origin}/panel/developers/webhooks`);
      await screenshot(page, "panel-webhooks");
    });

    await t.step("checkout: allowlist and a live preview embedded in the panel", async () => {
      await page.goto(`${origin}/panel/developers/checkout`);
      await page.getByLabel("Allowed origins, one per line").fill("https://shop.example/path");
      await page.getByRole("button", { name: "Save allowlist" }).click();
      await page.getByText("must be an origin").waitFor();
      await page.getByLabel("Allowed origins, one per line").fill("https://shop.example");
      await page.getByRole("button", { name: "Save allowlist" }).click();
      await page.getByText("Allowlist saved.").waitFor();
      await screenshot(page, "panel-checkout");
      await page.locator("select[name=qrId]").selectOption(coffee.qrId);
      await page.getByRole("button", { name: "Open preview" }).click();
      const frame = page.frameLocator(".preview__mount iframe");
      await frame.getByLabel("BLIK code").fill("777123");
      await frame.getByLabel("BLIK code").press("Enter");
      await frame.getByRole("heading", { name: "Payment successful" }).waitFor();
      await page.locator(".preview__messages").getByText("CHECKOUT_COMPLETED").first().waitFor();
      await screenshot(page, "panel-checkout-preview");
    });

    await t.step("account page and sign-out", async () => {
      await page.goto(`${origin}/panel/account`);
      await screenshot(page, "panel-account");
      await page.locator(".user-menu summary").click();
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByText("You are signed out.").waitFor();
    });

    await t.step("a member sees no Developers; a FREE owner sees the upgrade notice", async () => {
      const member = await addUser(server, {
        email: "member@demo.test",
        role: "MEMBER",
        orgSlug: "demo",
      });
      await signIn(page, origin, member.email, member.password);
      await page.getByRole("heading", { name: /^Hello/ }).waitFor();
      assert.equal(await page.getByRole("link", { name: "API keys" }).count(), 0);
      const refused = await page.goto(`${origin}/panel/developers/api-keys`);
      assert.equal(refused?.status(), 403);
      await screenshot(page, "panel-member-refused");
      await page.context().clearCookies();

      const free = await createOrganisation(
        server.accounts,
        { slug: "corner-shop", name: "Corner shop", plan: "FREE" },
        server.clock.now(),
      );
      const created = await createUser(server.accounts, {
        orgSlug: free.slug,
        email: "owner@corner.test",
        role: "OWNER",
      }, server.clock.now());
      await signIn(page, origin, "owner@corner.test", created.oneTimePassword);
      await page.getByLabel("New password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Repeat the new password").fill(PASSWORD);
      await page.getByRole("button", { name: "Save and continue" }).click();
      const upgrade = await page.goto(`${origin}/panel/developers`);
      assert.equal(upgrade?.status(), 403);
      await page.getByText("Connect your shop to Paystead").waitFor();
      await screenshot(page, "panel-free-upgrade");
    });

    // Refused sign-ins, forms sent back with a mistake and refused pages are answered with their
    // status (401, 400, 403), which Chromium logs; anything else is a real error.
    assert.deepEqual(
      errors.filter((error) =>
        !/^Failed to load resource: the server responded with a status of (400|401|403) .*\/panel\//
          .test(error)
      ),
      [],
    );
    await page.close();
  } finally {
    await browser?.close();
    await receiver.close();
    await server.close();
  }
});
