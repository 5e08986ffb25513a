import assert from "node:assert/strict";
import { SHOP_DETAILS } from "./support/customer_helpers.ts";
import { createOrganisation } from "../lib/accounts/organisations.ts";
import { listApiKeysOf, revokeApiKey } from "../lib/api_keys.ts";
import { DEMO_OWNER_EMAIL } from "../lib/demo.ts";
import type { HostResolver } from "../lib/webhooks/address_policy.ts";
import { makeTestApp } from "./support/helpers.ts";
import { PAYU_TEST_ENV } from "./support/processes.ts";
import { addUser, pageText, PanelAgent, signedInApp } from "./support/panel_helpers.ts";
import { paymentOverview } from "../lib/panel/insights.ts";
import { orgContextOnClock } from "../lib/sandbox_clock.ts";
import { createTestOffer, createTestPayment, type TestApp } from "./support/helpers.ts";

/** The home page's heading and the line beneath it. */
async function headerOf(agent: PanelAgent): Promise<{ heading: string; description: string }> {
  const page = await (await agent.get("/panel")).text();
  const heading = page.match(/<h1>([^<]*)<\/h1>/)?.[1];
  const description = page.match(/<p class="page-header__description">([^<]*)<\/p>/)?.[1];
  assert.ok(heading !== undefined && description !== undefined, page);
  return { heading, description };
}

/** The text of the home's content, without the navigation around it. */
async function mainText(agent: PanelAgent): Promise<string> {
  const page = await (await agent.get("/panel")).text();
  return pageText(page.match(/<main[\s\S]*<\/main>/)?.[0] ?? "");
}

/** The text of the home's "Go live" card, or null when the page has none. */
async function goLiveText(agent: PanelAgent): Promise<string | null> {
  const page = await (await agent.get("/panel")).text();
  const card = page.match(/<section class="card " id="go-live"[\s\S]*?<\/section>/)?.[0];
  return card === undefined ? null : pageText(card);
}

Deno.test("[panel home] the heading greets by full name, else by e-mail, with the organisation beneath", async (t) => {
  const app = await makeTestApp();
  try {
    await createOrganisation(
      app.accounts,
      { slug: "demo", name: "Demo shop", plan: "ENTERPRISE" },
      0,
    );
    const people = [
      { email: DEMO_OWNER_EMAIL, name: "Demo owner", orgSlug: "demo" },
      { email: "grace@acme.test", name: "Grace Hopper", orgSlug: "acme" },
      { email: "nameless@acme.test", name: undefined, orgSlug: "acme" },
    ];
    const expected = [
      {
        heading: "Hello, Demo owner",
        description: "Demo shop in the sandbox, last 30 days (UTC).",
      },
      { heading: "Hello, Grace Hopper", description: "Acme in the sandbox, last 30 days (UTC)." },
      {
        heading: "Hello, nameless@acme.test",
        description: "Acme in the sandbox, last 30 days (UTC).",
      },
    ];
    for (const [index, person] of people.entries()) {
      await t.step(person.email, async () => {
        const user = await addUser(app, { ...person, role: "OWNER" });
        const agent = new PanelAgent(app);
        await agent.signIn(user.email, user.password);
        assert.deepEqual(await headerOf(agent), expected[index]);
      });
    }
  } finally {
    await app.close();
  }
});

Deno.test("[panel home] production's empty home lists what to check before going live", async (t) => {
  const resolveHost: HostResolver = () => Promise.resolve(["93.184.216.34"]);
  const app = await makeTestApp({ environment: "production", resolveHost });
  try {
    const owner = await addUser(app, { email: "owner@acme.test", role: "OWNER", name: "Ada" });
    const agent = new PanelAgent(app);
    await agent.signIn(owner.email, owner.password);
    const provider = `PayU, POS ${PAYU_TEST_ENV.PAYU_POS_ID} at https://secure.snd.payu.com.`;

    await t.step("a fresh organisation: its test key, no provider call, no endpoint", async () => {
      const text = await mainText(agent);
      assert.equal(text.includes("Quick Start"), false);
      assert.equal(text.includes("in the production"), false);
      assert.deepEqual(await headerOf(agent), {
        heading: "Hello, Ada",
        description: "Acme in production, last 30 days (UTC).",
      });
      assert.equal(
        await goLiveText(agent),
        "Go live No payments in the last 30 days. Before your customers pay here, check these " +
          `steps: 1 Step 1: Payment provider ${provider} No successful call since this process ` +
          "started. Test the PayU connection Provider status → " +
          "✓ Step 2 (done): Production API key 1 production key in use. API keys → " +
          "3 Step 3: Webhook endpoint No webhook endpoint yet: add one so your server hears when " +
          "a payment succeeds. Webhooks → " +
          "4 Step 4: Business details Not set: customers must be told who they pay (legal name, " +
          "address, NIP, contact) on the payment page and in their e-mails. Business details → " +
          "This production process has no SMTP_URL, so it sends no e-mails: customers get no " +
          "payment confirmation. Set SMTP_URL and MAIL_FROM and restart. Create an offer",
      );
      const page = await (await agent.get("/panel")).text();
      for (
        const link of [
          '<a href="/panel/developers">Provider status →</a>',
          '<a href="/panel/developers/api-keys">API keys →</a>',
          '<a href="/panel/developers/webhooks">Webhooks →</a>',
        ]
      ) assert.ok(page.includes(link), link);
    });

    await t.step("the provider answered, the key revoked, an endpoint added", async () => {
      app.services.provider.health.recordSuccess(app.clock.now() - 60_000);
      const answeredAt = new Date(app.clock.now() - 60_000).toISOString();
      const created = await app.request("POST", "/api/v1/webhook-endpoints", {
        url: "https://shop.example/hooks",
      });
      assert.equal(created.status, 201, await created.clone().text());
      const details = await app.request("PUT", "/api/v1/business-details", SHOP_DETAILS);
      assert.equal(details.status, 200);
      const [key] = await listApiKeysOf(app.store, app.orgId);
      await revokeApiKey(app.store, { orgId: app.orgId, keyId: key.public_id, now: 0 });
      assert.equal(
        await goLiveText(agent),
        "Go live No payments in the last 30 days. Before your customers pay here, check these " +
          `steps: ✓ Step 1 (done): Payment provider ${provider} Last successful call ` +
          `${answeredAt}. Test the PayU connection Provider status → ` +
          "2 Step 2: Production API key No production API key yet: your server needs one to " +
          "create payments. API keys → " +
          "✓ Step 3 (done): Webhook endpoint 1 endpoint receives events. Webhooks → " +
          "✓ Step 4 (done): Business details Customers see your legal name, address and contact " +
          "on the payment page and in their e-mails. Business details → " +
          "This production process has no SMTP_URL, so it sends no e-mails: customers get no " +
          "payment confirmation. Set SMTP_URL and MAIL_FROM and restart. Create an offer",
      );
    });
  } finally {
    await app.close();
  }
});

Deno.test("[panel home] production's empty home: a member is told to create an offer, no checklist", async () => {
  const { t, agent } = await signedInApp({ environment: "production", role: "MEMBER" });
  try {
    const text = await mainText(agent);
    assert.equal(await goLiveText(agent), null);
    assert.match(
      text,
      /No payments in the last 30 days Create an offer and share its QR code or payment link\. Create an offer/,
    );
    assert.equal(text.includes("Quick Start"), false);
  } finally {
    await t.close();
  }
});

Deno.test("[panel home] production on PayU's sandbox or its public POS says no real money moves", async (t) => {
  const strip = /<p class="test-payments-strip" role="alert">([\s\S]*?)<\/p>/;
  const cases: [Record<string, string>, string | null][] = [
    [
      {},
      "Test payments PAYU_API_URL is PayU's sandbox (secure.snd.payu.com): no real money moves, " +
      "whatever this panel shows.",
    ],
    [
      { PAYU_API_URL: "https://secure.payu.com" },
      "Test payments PAYU_POS_ID 300746 is PayU's public sandbox POS: no real money moves, " +
      "whatever this panel shows.",
    ],
    [{ PAYU_API_URL: "https://secure.payu.com", PAYU_POS_ID: "145227" }, null],
  ];
  for (const [env, banner] of cases) {
    await t.step(JSON.stringify(env), async () => {
      const { t: app, agent } = await signedInApp({ environment: "production", env });
      try {
        const page = await (await agent.get("/panel")).text();
        const shown = strip.exec(page)?.[1];
        assert.equal(shown === undefined ? null : pageText(shown), banner);
      } finally {
        await app.close();
      }
    });
  }
});

Deno.test("[panel home] the sandbox's empty home offers the Quick Start, not the checklist", async () => {
  const { t, agent } = await signedInApp();
  try {
    const text = await mainText(agent);
    assert.equal(await goLiveText(agent), null);
    assert.match(
      text,
      /Create an offer and share its QR code or payment link, or run the Quick Start to take a test payment in a minute\. Create an offer Open the Quick Start/,
    );
  } finally {
    await t.close();
  }
});

const DAY = 86_400_000;

async function paid(t: TestApp, qrId: string, code = "777123") {
  const payment = await createTestPayment(t, qrId);
  const response = await t.request("POST", `/api/v1/payments/${payment.paymentId}/complete`, {
    code,
  });
  return await response.json();
}

Deno.test("[panel home] volume and success rate per day, in the busiest currency", async () => {
  const { t, agent } = await signedInApp();
  try {
    const pln = await createTestOffer(t, { amount: 1000 });
    const eur = await createTestOffer(t, { amount: 300, currency: "EUR" });
    t.clock.advance(-DAY);
    await paid(t, pln.qrId);
    await paid(t, pln.qrId, "500500");
    t.clock.advance(DAY);
    await paid(t, pln.qrId);
    await paid(t, pln.qrId);
    await createTestPayment(t, pln.qrId); // pending: counts nowhere
    await paid(t, eur.qrId);

    const overview = await paymentOverview(await orgContextOnClock(t.services, t.orgId), {
      days: 30,
    });
    assert.equal(overview.currency, "PLN");
    assert.deepEqual(overview.currencies, ["PLN", "EUR"]);
    assert.equal(overview.days.length, 30);
    assert.deepEqual(overview.days.at(-1), {
      date: "2026-11-21",
      volume: 2000,
      succeeded: 2,
      failed: 0,
      successRate: 1,
    });
    assert.deepEqual(overview.days.at(-2), {
      date: "2026-11-20",
      volume: 1000,
      succeeded: 1,
      failed: 1,
      successRate: 0.5,
    });
    assert.equal(overview.days[0].successRate, null);
    assert.deepEqual(overview.totals, { volume: 3000, succeeded: 3, failed: 1, successRate: 0.75 });

    const page = await (await agent.get("/panel")).text();
    const text = pageText(page);
    assert.match(text, /Volume PLN 30\.00 succeeded Successful payments 3 Success rate 75\.0%/);
    assert.equal((page.match(/<rect class="chart__bar"/g) ?? []).length, 2);
    assert.match(page, /<title>21 Nov: PLN\s20\.00, 100% succeeded<\/title>/);
    const euros = pageText(await (await agent.get("/panel?currency=eur")).text());
    assert.match(euros, /Volume €3\.00 succeeded Successful payments 1 Success rate 100\.0%/);
  } finally {
    await t.close();
  }
});

Deno.test("[panel home] an empty organisation is told how to start", async () => {
  const { t, agent } = await signedInApp();
  try {
    const text = pageText(await (await agent.get("/panel")).text());
    assert.match(text, /No payments in the last 30 days/);
    assert.match(text, /run the Quick Start to take a test payment in a minute/);
  } finally {
    await t.close();
  }
});
