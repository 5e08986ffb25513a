import assert from "node:assert/strict";
import type { Fetch } from "../lib/providers/payu/http.ts";
import type { HostResolver } from "../lib/webhooks/address_policy.ts";
import {
  createTestOffer,
  createTestPayment,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";
import { SHOP_DETAILS } from "./support/customer_helpers.ts";
import { addUser, pageText, PanelAgent } from "./support/panel_helpers.ts";

const resolveHost: HostResolver = () => Promise.resolve(["93.184.216.34"]);

/** The text of the home's "Go live" card in `html`, or null when the page has none. */
function goLiveText(html: string): string | null {
  const card = html.match(/<section class="card " id="go-live"[\s\S]*?<\/section>/)?.[0];
  return card === undefined ? null : pageText(card);
}

const TOKEN_PATH = "/pl/standard/user/oauth/authorize";

/** Counts the token requests that reach the fake PayU. */
function countingTokens(): { requests: number; fetch: (fake: Fetch) => Fetch } {
  const counter = {
    requests: 0,
    fetch: (fake: Fetch): Fetch => (request) => {
      if (request.url.endsWith(TOKEN_PATH)) counter.requests++;
      return fake(request);
    },
  };
  return counter;
}

async function productionOwner(
  options: { payuFetch?: (fake: Fetch) => Fetch } = {},
): Promise<{ t: TestApp; agent: PanelAgent }> {
  // The customer confirms only when a test says so (`decide`): no timer of the fake runs on.
  const t = await makeTestApp({
    environment: "production",
    resolveHost,
    payuSwitches: { confirmTimeoutMs: null },
    ...options,
  });
  const owner = await addUser(t, { email: "owner@acme.test", role: "OWNER", name: "Ada" });
  const agent = new PanelAgent(t);
  await agent.signIn(owner.email, owner.password);
  return { t, agent };
}

Deno.test("[panel go live] Test the PayU connection asks the fake PayU for a token and shows its answer", async () => {
  const tokens = countingTokens();
  const { t, agent } = await productionOwner({ payuFetch: tokens.fetch });
  try {
    assert.equal(t.services.provider.health.lastSuccessAt, null);
    const tokensBefore = tokens.requests;
    const response = await agent.post("/panel/go-live/test-provider");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/html; charset=UTF-8");
    const card = goLiveText(await response.text());
    assert.ok(card, "the checklist is still there: the webhook step is not done");
    assert.match(
      card,
      /✓ Step 1 \(done\): Payment provider PayU, POS 300746 at https:\/\/secure\.snd\.payu\.com\. Last successful call 2026-11-21T10:00:00\.000Z\. PayU answered https:\/\/secure\.snd\.payu\.com issued an OAuth token valid for 43199 seconds: the POS's credentials work\. Test the PayU connection/,
    );
    // A real token request reached PayU (the fake), and the provider's health says so.
    assert.equal(tokens.requests, tokensBefore + 1);
    // Asked again, it asks PayU again rather than showing the token it holds.
    assert.equal((await agent.post("/panel/go-live/test-provider")).status, 200);
    assert.equal(tokens.requests, tokensBefore + 2);
    assert.equal(t.services.provider.health.lastSuccessAt, t.clock.now());
  } finally {
    await t.close();
  }
});

Deno.test("[panel go live] a token PayU refuses is shown with PayU's status, and the step stays undone", async () => {
  // The POS's secret as the merchant mistyped it: the fake PayU answers 401 invalid_client.
  const wrongSecret = (fake: Fetch): Fetch => async (request) => {
    if (!request.url.endsWith(TOKEN_PATH)) return fake(request);
    const form = new URLSearchParams(await request.text());
    form.set("client_secret", "not-the-secret");
    return fake(new Request(request.url, { method: "POST", headers: request.headers, body: form }));
  };
  const { t, agent } = await productionOwner({ payuFetch: wrongSecret });
  try {
    const response = await agent.post("/panel/go-live/test-provider");
    assert.equal(response.status, 200);
    const card = goLiveText(await response.text());
    assert.ok(card);
    assert.match(
      card,
      /1 Step 1: Payment provider .* No successful call since this process started\. PayU did not issue a token PayU refused a token \(HTTP 401\); check PAYU_CLIENT_ID and PAYU_CLIENT_SECRET\. Test the PayU connection/,
    );
    assert.equal(t.services.provider.health.lastSuccessAt, null);
  } finally {
    await t.close();
  }
});

Deno.test("[panel go live] the test is for owners and admins: a member gets 403 and PayU is not asked", async () => {
  const tokens = countingTokens();
  const t = await makeTestApp({ environment: "production", resolveHost, payuFetch: tokens.fetch });
  try {
    const member = await addUser(t, { email: "member@acme.test", role: "MEMBER" });
    const agent = new PanelAgent(t);
    await agent.signIn(member.email, member.password);
    const response = await agent.post("/panel/go-live/test-provider");
    assert.equal(response.status, 403);
    assert.equal(tokens.requests, 0);
    assert.equal(t.services.provider.health.lastSuccessAt, null);
  } finally {
    await t.close();
  }
});

Deno.test("[panel go live] the checklist stays after the first payment until every step is done", async (t) => {
  const { t: app, agent } = await productionOwner();
  try {
    const offer = await createTestOffer(app, { amount: 1250 });
    const { paymentId } = await createTestPayment(app, offer.qrId);
    const entered = await app.app.request(`/pay/${paymentId}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "sec-fetch-site": "same-origin",
      },
      body: JSON.stringify({ code: "123456" }),
    });
    assert.equal(entered.status, 200, await entered.clone().text());
    const [order] = app.payu!.orders();
    assert.equal(app.payu!.decide(order.orderId, "COMPLETED"), true);
    await app.payu!.idle();
    const payment = await (await app.request("GET", `/api/v1/payments/${paymentId}`)).json();
    assert.equal(payment.status, "SUCCEEDED");

    await t.step(
      "paid, no webhook endpoint: the checklist is there, above the figures",
      async () => {
        const page = await (await agent.get("/panel")).text();
        const card = goLiveText(page);
        assert.ok(card, "the checklist vanished after the first payment");
        assert.match(
          card,
          /^Go live Payments have started; finish these steps so that none goes unnoticed: ✓ Step 1 \(done\)/,
        );
        assert.match(card, /3 Step 3: Webhook endpoint No webhook endpoint yet/);
        assert.ok(page.indexOf('id="go-live"') < page.indexOf('id="chart"'));
      },
    );

    await t.step("an endpoint added: only the business details are left", async () => {
      const endpoint = await app.request("POST", "/api/v1/webhook-endpoints", {
        url: "https://shop.example/hooks",
      });
      assert.equal(endpoint.status, 201, await endpoint.clone().text());
      const card = goLiveText(await (await agent.get("/panel")).text());
      assert.match(card ?? "", /✓ Step 3 \(done\): Webhook endpoint/);
      assert.match(card ?? "", /4 Step 4: Business details Not set/);
    });

    await t.step("business details saved: every step done, the checklist is gone", async () => {
      const saved = await app.request("PUT", "/api/v1/business-details", SHOP_DETAILS);
      assert.equal(saved.status, 200, await saved.clone().text());
      const page = await (await agent.get("/panel")).text();
      assert.equal(goLiveText(page), null);
      assert.ok(page.includes('id="chart"'));
    });
  } finally {
    await app.close();
  }
});
