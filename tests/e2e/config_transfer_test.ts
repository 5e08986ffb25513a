import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { migrate, openStore, type Store } from "../../db/client.ts";
import { accountsMigrations, environmentMigrations } from "../../db/migrations/mod.ts";
import type { AccountsSchema, EnvironmentSchema } from "../../db/schema.ts";
import { createOrganisation } from "../../lib/accounts/organisations.ts";
import { createApiKey } from "../../lib/api_keys.ts";
import { ManualClock } from "../../lib/clock.ts";
import { type Environment, loadConfig } from "../../lib/config.ts";
import { silentLogger } from "../../lib/log.ts";
import { createApp, type PaysteadApp } from "../../routes/app.ts";
import { addUser } from "../support/panel_helpers.ts";
import { collectErrors, launchBrowser, screenshot } from "../support/browser.ts";

/** One environment of a shared data folder, served on 127.0.0.1. */
interface Served {
  origin: string;
  built: PaysteadApp;
  store: Store<EnvironmentSchema>;
  close(): Promise<void>;
}

async function serveEnvironment(
  dataDir: string,
  environment: Environment,
  clock: ManualClock,
): Promise<Served> {
  const holder: { built?: PaysteadApp } = {};
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request, info) =>
      holder.built ? holder.built.app.fetch(request, info) : new Response("", { status: 503 }),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PAYSTEAD_ENV: environment,
    PUBLIC_URL: origin,
    // Production runs only with a real provider: PayU's public sandbox POS, never called here.
    ...(environment === "production" && {
      PAYMENT_PROVIDER: "payu",
      PAYU_API_URL: "http://127.0.0.1:9",
      PAYU_POS_ID: "300746",
      PAYU_CLIENT_ID: "300746",
      PAYU_CLIENT_SECRET: "2ee86a66e5d97e3fadc400c9f19b065d",
      PAYU_SECOND_KEY: "b6ca15b0d1020e8094d9b5f8d163db54",
    }),
  });
  const accounts = await openStore<AccountsSchema>(config.accountsDatabaseUrl);
  const store = await openStore<EnvironmentSchema>(config.databaseUrl);
  await migrate(accounts, accountsMigrations);
  await migrate(store, environmentMigrations);
  const built = createApp({ config, store, accounts, clock, log: silentLogger });
  holder.built = built;
  return {
    origin,
    built,
    store,
    async close() {
      await server.shutdown();
      await built.services.scheduler.stop();
      await built.webhooks.stop();
      await store.close();
      await accounts.close();
    },
  };
}

Deno.test("[e2e] copy configuration from sandbox to production in the panel, twice", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-config-e2e-" });
  const clock = new ManualClock();
  const sandbox = await serveEnvironment(dataDir, "sandbox", clock);
  const production = await serveEnvironment(dataDir, "production", clock);
  let browser: Browser | undefined;
  try {
    const accounts = sandbox.built.services.accounts;
    const org = await createOrganisation(
      accounts,
      { slug: "shop", name: "Shop", plan: "PRO" },
      clock.now(),
    );
    const owner = await addUser({ accounts, clock }, {
      email: "owner@shop.test",
      role: "OWNER",
      orgSlug: "shop",
    });
    const key = await createApiKey(sandbox.store, {
      orgId: org.id,
      name: "seed",
      environment: "sandbox",
      now: clock.now(),
    });
    const api = async (method: string, path: string, body: unknown) => {
      const response = await sandbox.built.app.request(path, {
        method,
        headers: { authorization: `Bearer ${key.secret}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      assert.ok(response.ok, await response.clone().text());
      return await response.json();
    };
    const coffee = await api("POST", "/api/v1/qr", {
      name: "Coffee",
      amount: 1250,
      currency: "PLN",
    });
    await api("POST", "/api/v1/webhook-endpoints", { url: "https://1.1.1.1/paystead" });
    await api("PUT", "/api/v1/checkout-settings", { allowedOrigins: ["https://shop.example"] });

    browser = await launchBrowser();
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const errors = collectErrors(page);
    const signIn = async (origin: string) => {
      await page.goto(`${origin}/panel`);
      await page.getByLabel("E-mail").fill(owner.email);
      await page.getByLabel("Password").fill(owner.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${origin}/panel`);
    };

    await signIn(sandbox.origin);
    await page.getByRole("link", { name: "Copy configuration" }).click();
    await page.waitForURL(`${sandbox.origin}/panel/developers/config-transfer`);
    await screenshot(page, "config-transfer");
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download configuration" }).click(),
    ]);
    assert.equal(download.suggestedFilename(), "paystead-shop-sandbox-2026-11-21.json");
    const file = `${dataDir}/download.json`;
    await download.saveAs(file);
    assert.equal(JSON.parse(await Deno.readTextFile(file)).offers[0].qrId, coffee.qrId);

    // Sessions live in the shared accounts database: the same sign-in opens production's panel.
    const upload = async () => {
      await page.goto(`${production.origin}/panel/developers/config-transfer`);
      await page.getByLabel("Configuration file").setInputFiles(file);
      await page.getByRole("button", { name: "Show the changes" }).click();
    };
    await upload();
    const plan = await page.locator("#import-plan li").allTextContents();
    assert.deepEqual(plan, [
      `create offer 'Coffee' (PLN\u00a012.50) for ${coffee.qrId}`,
      "create webhook endpoint https://1.1.1.1/paystead (*) with a new signing secret",
      "set checkout allowed origins to https://shop.example (was none)",
    ]);
    await screenshot(page, "config-transfer-plan");
    assert.equal(
      await production.store.db.selectFrom("offers").selectAll().execute().then((r) => r.length),
      0,
    );
    await page.getByRole("button", { name: "Import the ticked changes" }).click();
    await page.getByText("Imported 3 changes.").waitFor();
    assert.match(await page.locator(".once__value").textContent() ?? "", /^whsec_/);
    const offers = await production.store.db.selectFrom("offers").select("public_id").execute();
    assert.equal(offers.length, 1);
    const mapping = await page.locator("#offer-mapping tbody tr td").allTextContents();
    assert.deepEqual(mapping, ["Coffee", coffee.qrId, offers[0].public_id]);
    await screenshot(page, "config-transfer-result");

    // The same file again: nothing to change, and no button to press.
    await upload();
    await page.getByRole("heading", { name: "Nothing to change" }).waitFor();
    assert.equal(await page.getByRole("button", { name: /^Import/ }).count(), 0);
    assert.equal(await page.locator("p.muted").last().textContent(), "3 already match.");
    assert.equal((await production.store.db.selectFrom("offers").selectAll().execute()).length, 1);
    assert.deepEqual(errors, []);
  } finally {
    await browser?.close();
    await production.close();
    await sandbox.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});
