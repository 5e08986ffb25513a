import assert from "node:assert/strict";
import { createOrganisation } from "../lib/accounts/organisations.ts";
import { createApiKey } from "../lib/api_keys.ts";
import { verifyWebhook } from "../examples/verify_webhook.ts";
import { startCheckoutServer } from "./support/browser.ts";
import { createTestOffer, expectError, makeTestApp, type TestApp } from "./support/helpers.ts";
import { addUser, pageText, PanelAgent, signedInApp } from "./support/panel_helpers.ts";
import { startReceiver } from "./support/webhook_receiver.ts";

const HOUR = 3_600_000;

function secretIn(html: string): string {
  const match = /<code class="once__value" id="new-secret">(sk_sandbox_[0-9A-Za-z]{32})<\/code>/
    .exec(html);
  assert.ok(match, "the secret is on the page");
  return match[1];
}

async function apiStatus(t: TestApp, secret: string): Promise<Response> {
  return await t.app.request("/api/v1/qr", { headers: { authorization: `Bearer ${secret}` } });
}

/** The text of the element with `id`, as a browser shows it. */
function textOf(html: string, id: string): string {
  const match = new RegExp(`<code id="${id}">([\\s\\S]*?)</code>`).exec(html);
  assert.ok(match, `#${id} is on the page`);
  return match[1].replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** The texts of the list items of the first list with `listClass`. */
function listItems(html: string, listClass: string): string[] {
  const list = new RegExp(`<ul class="${listClass}">([\\s\\S]*?)</ul>`).exec(html);
  assert.ok(list, `a ${listClass} list is on the page`);
  return [...list[1].matchAll(/<li>([\s\S]*?)<\/li>/g)].map((item) => pageText(item[1]));
}

async function waitFor<T>(read: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let tries = 0; tries < 100; tries++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

Deno.test("[panel api keys] a new key's secret is shown once and works at once", async () => {
  const { t, agent } = await signedInApp();
  try {
    const empty = await agent.post("/panel/developers/api-keys", { name: "  " });
    assert.equal(empty.status, 400);
    assert.match(pageText(await empty.text()), /name must not be empty\./);

    const created = await agent.post("/panel/developers/api-keys", { name: "Shop backend" });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get("cache-control"), "no-store");
    const html = await created.text();
    const secret = secretIn(html);
    assert.match(pageText(html), /Paystead keeps only a hash: it can't show it again\./);
    assert.equal((await apiStatus(t, secret)).status, 200);

    const list = await (await agent.get("/panel/developers/api-keys")).text();
    assert.equal(list.includes(secret), false, "never shown again");
    assert.ok(list.includes(`sk_sandbox_…${secret.slice(-4)}`), "prefix and last four");
    assert.match(pageText(list), /Shop backend sk_sandbox_…\w{4} Active/);
  } finally {
    await t.close();
  }
});

Deno.test("[panel api keys] revoking works at once, even for a key the API has cached", async () => {
  const { t, agent } = await signedInApp();
  try {
    const list = await (await agent.get("/panel/developers/api-keys")).text();
    const id = /\/panel\/developers\/api-keys\/(key_\w+)\/revoke/.exec(list)![1];
    assert.equal((await apiStatus(t, t.apiKey)).status, 200, "cached as valid");
    const revoked = await agent.post(`/panel/developers/api-keys/${id}/revoke`);
    assert.equal(revoked.status, 303);
    assert.equal(revoked.headers.get("location"), "/panel/developers/api-keys?notice=revoked");
    await expectError(await apiStatus(t, t.apiKey), 401, "authentication", "api_key_revoked");
    const again = await agent.post(`/panel/developers/api-keys/${id}/revoke`);
    assert.equal(again.status, 409);
    const page = pageText(await (await agent.get("/panel/developers/api-keys")).text());
    assert.match(page, /Revoked and expired .* test sk_sandbox_…\w{4} Revoked/);
  } finally {
    await t.close();
  }
});

Deno.test("[panel api keys] rolling gives a new key and lets the old one work for the chosen time", async () => {
  const { t, agent } = await signedInApp();
  try {
    const list = await (await agent.get("/panel/developers/api-keys")).text();
    const id = /\/panel\/developers\/api-keys\/(key_\w+)\/roll/.exec(list)![1];
    const bad = await agent.post(`/panel/developers/api-keys/${id}/roll`, { expiresIn: "30d" });
    assert.equal(bad.status, 400);
    const rolled = await agent.post(`/panel/developers/api-keys/${id}/roll`, { expiresIn: "1h" });
    assert.equal(rolled.status, 201);
    const html = await rolled.text();
    const fresh = secretIn(html);
    assert.match(pageText(html), /Key rolled .* The old key works until 2026-11-21 11:00 UTC ?\./);
    assert.equal((await apiStatus(t, fresh)).status, 200);
    assert.equal((await apiStatus(t, t.apiKey)).status, 200, "the old key still works");
    assert.match(
      pageText(await (await agent.get("/panel/developers/api-keys")).text()),
      /Expiring/,
    );
    t.clock.advance(HOUR);
    await expectError(await apiStatus(t, t.apiKey), 401, "authentication", "api_key_expired");
    assert.equal((await apiStatus(t, fresh)).status, 200);

    // The new key is listed first (newest first).
    const newId = /\/panel\/developers\/api-keys\/(key_[0-9A-Za-z]+)\/roll/.exec(html)![1];
    const now = await agent.post(`/panel/developers/api-keys/${newId}/roll`, {
      expiresIn: "now",
    });
    assert.equal(now.status, 201);
    assert.match(pageText(await now.text()), /The old key stopped working\./);
    await expectError(await apiStatus(t, fresh), 401, "authentication", "api_key_expired");
  } finally {
    await t.close();
  }
});

Deno.test("[panel api keys] another organisation's key is not found", async () => {
  const { t, agent } = await signedInApp();
  try {
    const other = await createOrganisation(t.accounts, {
      slug: "other",
      name: "Other",
      plan: "BASIC",
    }, 0);
    const key = await createApiKey(t.store, {
      orgId: other.id,
      name: "theirs",
      environment: "sandbox",
      now: 0,
    });
    const response = await agent.post(`/panel/developers/api-keys/${key.record.public_id}/revoke`);
    assert.equal(response.status, 404);
    assert.equal((await apiStatus(t, key.secret)).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("[panel webhooks] add, edit, test, log, resend, reveal, rotate, disable, delete", async (s) => {
  const { t, agent } = await signedInApp();
  const receiver = startReceiver();
  try {
    let path = "";
    await s.step("adding checks the URL and the event filter", async () => {
      const bad = await agent.post("/panel/developers/webhooks", { url: "ftp://x", scope: "all" });
      assert.equal(bad.status, 400);
      assert.match(
        pageText(await bad.text()),
        /'url': must be an absolute http:\/\/ or https:\/\/ URL\./,
      );
      const none = await agent.post("/panel/developers/webhooks", {
        url: receiver.url,
        scope: "some",
      });
      assert.equal(none.status, 400);
      assert.match(pageText(await none.text()), /Tick at least one event, or choose all events\./);
      // "All events" with boxes ticked is ambiguous: refused, nothing saved.
      const both = await agent.post("/panel/developers/webhooks", {
        url: receiver.url,
        scope: "all",
        events: ["payment.succeeded"],
      });
      assert.equal(both.status, 400);
      assert.match(
        pageText(await both.text()),
        /You chose All events and ticked some events: choose Only the events ticked below/,
      );
      assert.equal(
        (await (await t.request("GET", "/api/v1/webhook-endpoints")).json()).data.length,
        0,
      );
      const added = await agent.post("/panel/developers/webhooks", {
        url: receiver.url,
        description: "Shop backend",
        scope: "some",
        events: ["payment.*", "refund.succeeded"],
      });
      assert.equal(added.status, 303);
      path = added.headers.get("location")!.replace(/\?notice=created$/, "");
      assert.match(path, /^\/panel\/developers\/webhooks\/we_\w+$/);
      const endpoint =
        await (await t.request("GET", `/api/v1/webhook-endpoints/${path.split("/").at(-1)}`))
          .json();
      assert.deepEqual(endpoint.events, ["payment.*", "refund.succeeded"]);
      assert.equal(endpoint.description, "Shop backend");
    });

    await s.step("editing changes the filter", async () => {
      const edit = await agent.get(`${path}/edit`);
      assert.match(
        await edit.text(),
        /<input type="checkbox" name="events" value="payment\.\*" checked/,
      );
      const saved = await agent.post(path, { url: receiver.url, scope: "all", description: "" });
      assert.equal(saved.status, 303);
      const page = pageText(await (await agent.get(path)).text());
      assert.match(page, /Events All events/);
      assert.match(page, /Description —/);
    });

    await s.step(
      "a test event reaches the receiver and shows in the log with the answer",
      async () => {
        receiver.answer = () => new Response("thanks", { status: 200 });
        const sent = await agent.post(`${path}/test`);
        assert.equal(sent.status, 303);
        const delivered = await waitFor(
          () => Promise.resolve(receiver.received[0]),
          "the test event",
        );
        assert.equal(delivered.headers.has("webhook-signature"), true);
        const html = await waitFor(async () => {
          const page = await (await agent.get(path)).text();
          return page.includes("HTTP 200") ? page : undefined;
        }, "the attempt in the log");
        const text = pageText(html);
        assert.match(text, /Succeeded webhook\.test HTTP 200 · \d+ ms · 1 attempt · test/);
        assert.match(text, /thanks/);
        // A test is never resent.
        assert.equal(html.includes(`${path}/resend`), false);
      },
    );

    await s.step("an event is delivered, then resent on request", async () => {
      const offer = await createTestOffer(t);
      await t.request("POST", "/api/v1/payments", { qrId: offer.qrId });
      // Delivered first: a resend while the first attempt is in flight brings that one forward.
      const html = await waitFor(async () => {
        const page = await (await agent.get(path)).text();
        return /payment\.created HTTP 200/.test(pageText(page)) && page.includes(`${path}/resend`)
          ? page
          : undefined;
      }, "payment.created delivered in the log");
      const eventId = /name="eventId" value="(evt_\w+)"/.exec(html)![1];
      const resent = await agent.post(`${path}/resend`, { eventId });
      assert.equal(resent.status, 303);
      await waitFor(async () => {
        const page = pageText(await (await agent.get(path)).text());
        return /payment\.created HTTP 200 · \d+ ms · 1 attempt · resend/.test(page)
          ? true
          : undefined;
      }, "the resend in the log");
      const ids = receiver.received.map((request) => request.headers.get("webhook-id"));
      assert.equal(ids.filter((id) => id === eventId).length, 2, "same webhook-id both times");
    });

    await s.step(
      "the secret is revealed on request, and rotating keeps the old one a day",
      async () => {
        const page = await (await agent.get(path)).text();
        assert.equal(/whsec_[A-Za-z0-9+/=]{44}/.test(page), false, "hidden until asked");
        assert.match(pageText(page), /Signature header: webhook-signature/);
        assert.match(page, /import \{ Webhook \} from &quot;standardwebhooks&quot;;/);
        const revealed = await agent.post(`${path}/secret`);
        assert.equal(revealed.status, 200);
        const secret =
          /id="signing-secret">(whsec_[A-Za-z0-9+/=]{44})</.exec(await revealed.text())![1];
        const [first] = receiver.received;
        await verifyWebhook(first.body, first.headers, secret, { now: t.clock.now() });
        const rotated = await agent.post(`${path}/rotate`);
        const html = await rotated.text();
        const next = /id="signing-secret">(whsec_[A-Za-z0-9+/=]{44})</.exec(html)![1];
        assert.notEqual(next, secret);
        assert.match(pageText(html), /The previous secret also signs until 2026-11-22 10:00 UTC/);
      },
    );

    await s.step("disabling stops it, enabling starts it again, deleting removes it", async () => {
      const disabled = await agent.post(`${path}/disable`);
      assert.equal(disabled.status, 303);
      assert.match(
        pageText(await (await agent.get(path)).text()),
        /This endpoint is disabled disabled by you/,
      );
      const enabled = await agent.post(`${path}/enable`);
      assert.equal(enabled.status, 303);
      const deleted = await agent.post(`${path}/delete`);
      assert.equal(deleted.headers.get("location"), "/panel/developers/webhooks?notice=deleted");
      assert.equal((await agent.get(path)).status, 404);
    });
  } finally {
    await receiver.close();
    await t.close();
  }
});

Deno.test("[panel checkout] the allowlist editor checks and normalises each origin", async () => {
  const { t, agent } = await signedInApp();
  try {
    const bad = await agent.post("/panel/developers/checkout/origins", {
      origins: "https://shop.example\nhttps://shop.example/checkout",
    });
    assert.equal(bad.status, 400);
    assert.match(
      pageText(await bad.text()),
      /'allowedOrigins\.1' must be an origin, scheme:\/\/host\[:port\] with no path/,
    );
    const saved = await agent.post("/panel/developers/checkout/origins", {
      origins: "https://Shop.example:443\r\nhttp://localhost:3000\n\n",
    });
    assert.equal(saved.status, 303);
    const settings = await (await t.request("GET", "/api/v1/checkout-settings")).json();
    assert.deepEqual(settings.allowedOrigins, ["https://shop.example", "http://localhost:3000"]);
    const page = await (await agent.get("/panel/developers/checkout")).text();
    assert.match(page, />https:\/\/shop\.example\nhttp:\/\/localhost:3000<\/textarea>/);
    const offer = await createTestOffer(t, { name: "Beans" });
    await t.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
      embedLink: "https://shop.example/cart",
    });
    const listed = pageText(
      await (await agent.get("/panel/developers/checkout?status=OPEN")).text(),
    );
    assert.match(listed, /cs_\w+ Beans PLN 12\.50 Open https:\/\/shop\.example/);
  } finally {
    await t.close();
  }
});

Deno.test("[panel checkout] the preview embeds a session on the panel's own origin, and only there", async () => {
  const origin = "https://sandbox.example";
  const { t, agent } = await signedInApp({
    env: { PUBLIC_URL: origin, SANDBOX_PUBLIC_URL: origin },
  });
  try {
    const offer = await createTestOffer(t);
    const opened = await agent.post("/panel/developers/checkout/preview", { qrId: offer.qrId });
    assert.equal(opened.status, 303);
    const location = opened.headers.get("location")!;
    const sessionId = /session=(cs_\w+)$/.exec(location)![1];

    const page = await agent.get(location);
    assert.equal(page.status, 200);
    const csp = page.headers.get("content-security-policy")!;
    assert.match(csp, /frame-src 'self'/);
    assert.match(csp, /frame-ancestors 'none'/, "the panel itself is never framed");
    assert.equal(page.headers.get("x-frame-options"), "DENY");
    const html = await page.text();
    assert.match(html, /<script src="\/static\/embed\.js\?v=\w+"><\/script>/);
    assert.match(
      html,
      new RegExp(
        `data-island="CheckoutPreview" data-props="\\{&quot;embedUrl&quot;:&quot;https://sandbox\\.example/checkout/${sessionId}`,
      ),
    );

    const session = await (await t.request("GET", `/api/v1/checkout-sessions/${sessionId}`)).json();
    assert.equal(session.embedLink, "https://sandbox.example/panel/developers/checkout/preview");
    assert.deepEqual(session.metadata, { paysteadPreview: "true" });
    const checkout = await t.app.request(`/checkout/${sessionId}`);
    assert.equal(checkout.status, 200);
    assert.match(
      checkout.headers.get("content-security-policy")!,
      /frame-ancestors https:\/\/sandbox\.example$/,
    );
    // Through the API the panel's origin is still not on the list.
    await expectError(
      await t.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
        embedLink: "https://sandbox.example/panel/developers/checkout/preview",
      }),
      400,
      "invalid_request",
      "embed_origin_not_allowed",
    );
    const settings = await (await t.request("GET", "/api/v1/checkout-settings")).json();
    assert.deepEqual(settings.allowedOrigins, [], "the allowlist is unchanged");
    const other = await agent.get(
      "/panel/developers/checkout/preview?session=cs_missingmissingmissing00",
    );
    assert.equal(other.status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("[panel checkout] production has no preview: it would take real money", async () => {
  const { t, agent } = await signedInApp({ environment: "production" });
  try {
    const page = pageText(await (await agent.get("/panel/developers/checkout")).text());
    assert.match(page, /Previews run in the sandbox, so no real money can move/);
    const offer = await createTestOffer(t);
    const refused = await agent.post("/panel/developers/checkout/preview", { qrId: offer.qrId });
    assert.equal(refused.status, 403);
    const quickstart = pageText(await (await agent.get("/panel/developers/quickstart")).text());
    assert.match(quickstart, /Open it in the sandbox/);
    const run = await agent.postJson("/panel/developers/quickstart/run/offer", {});
    assert.equal(run.status, 403);
    assert.equal((await run.json()).error.code, "sandbox_only");
  } finally {
    await t.close();
  }
});

Deno.test("[panel quick start] every step runs for real and the webhook arrives, signed", async () => {
  const server = await startCheckoutServer();
  const { t } = server;
  try {
    await addUser(t, { email: "ada@acme.test", role: "OWNER" });
    const agent = new PanelAgent(t);
    await agent.signIn("ada@acme.test", "correct horse battery staple");
    const run = async (step: string, body: Record<string, unknown> = {}) => {
      const response = await agent.postJson(`/panel/developers/quickstart/run/${step}`, body);
      assert.equal(response.headers.get("content-type"), "application/json");
      return { status: response.status, body: await response.json() };
    };
    const page = await (await agent.get("/panel/developers/quickstart")).text();
    assert.match(page, /data-island="QuickStart"/);
    assert.equal(/sk_sandbox_[0-9A-Za-z]{32}/.test(page), false, "no secret in the page");

    const key = await run("key");
    assert.equal(key.status, 201);
    assert.match(key.body.secret, /^sk_sandbox_[0-9A-Za-z]{32}$/);
    const offer = await run("offer");
    assert.equal(offer.status, 201);
    assert.deepEqual(offer.body.request, {
      method: "POST",
      path: "/api/v1/qr",
      body: {
        name: "Quick Start coffee",
        amount: 1250,
        currency: "PLN",
        description: "Created by the Quick Start in the panel.",
      },
    });
    const qrId = offer.body.response.qrId;
    const fetched = await (await t.request("GET", `/api/v1/qr/${qrId}`)).json();
    assert.deepEqual(offer.body.response, fetched, "exactly what the API returns");

    const webhook = await run("webhook");
    assert.equal(webhook.status, 201);
    const inboxUrl = webhook.body.response.url as string;
    assert.match(inboxUrl, new RegExp(`^${server.origin}/sandbox/webhook-inbox/inb_\\w+$`));
    assert.equal((await run("webhook")).body.response.id, webhook.body.response.id, "set up once");

    const missing = await run("payment");
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.message, "Run the step that creates the offer first.");
    const payment = await run("payment", { qrId });
    assert.equal(payment.status, 201);
    assert.equal(payment.body.response.status, "PENDING");
    const session = await run("checkout", { qrId });
    assert.equal(session.status, 201);
    const sessionId = session.body.response.sessionId;
    const completed = await run("complete", { sessionId });
    assert.equal(completed.status, 200);
    assert.equal(completed.body.response.status, "COMPLETED");

    const endpointId = webhook.body.response.id;
    const watch = await waitFor(async () => {
      const response = await agent.get(
        `/panel/developers/quickstart/watch?endpoint=${endpointId}`,
        { accept: "application/json" },
      );
      const body = await response.json();
      // The inbox gets the request before the attempt's result is recorded: wait for both.
      const recorded = body.deliveries.some((entry: { eventType: string; status: string }) =>
        entry.eventType === "checkout.session.completed" && entry.status !== "PENDING"
      );
      return recorded &&
          body.inbox.some((request: { eventType: string }) =>
            request.eventType === "checkout.session.completed"
          )
        ? body
        : undefined;
    }, "checkout.session.completed at the inbox");
    const arrived = watch.inbox.find((request: { eventType: string }) =>
      request.eventType === "checkout.session.completed"
    );
    assert.equal(arrived.verified, true);
    assert.equal(
      arrived.verification,
      `Signature verified with the signing secret of ${endpointId}.`,
    );
    const delivery = watch.deliveries.find((entry: { eventType: string }) =>
      entry.eventType === "checkout.session.completed"
    );
    assert.equal(delivery.status, "SUCCEEDED");
    assert.equal(delivery.attempts[0].responseStatus, 200);
  } finally {
    await server.close();
  }
});

Deno.test("[panel quick start] the sandbox inbox keeps what it gets and says if it is signed", async () => {
  const { t, agent } = await signedInApp();
  try {
    const unknown = await t.app.request("/sandbox/webhook-inbox/inb_missingmissingmissing00", {
      method: "POST",
      body: "{}",
    });
    await expectError(unknown, 404, "not_found", "resource_not_found");
    const setUp = await (await agent.postJson("/panel/developers/quickstart/run/webhook", {}))
      .json();
    const path = new URL(setUp.response.url).pathname;
    const forged = await t.app.request(path, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "webhook-id": "evt_forged",
        "webhook-timestamp": String(Math.floor(t.clock.now() / 1000)),
        "webhook-signature": "v1,AAAA",
      },
      body: '{"type":"payment.succeeded"}',
    });
    assert.equal(forged.status, 200);
    assert.deepEqual(await forged.json(), { received: true });
    const watch = await (await agent.get(
      `/panel/developers/quickstart/watch?endpoint=${setUp.response.id}`,
      { accept: "application/json" },
    )).json();
    assert.deepEqual(
      watch.inbox.map((
        entry: Record<string, unknown>,
      ) => [entry.eventType, entry.verified, entry.verification]),
      [[
        "payment.succeeded",
        false,
        "No webhook-signature matches a signing secret.",
      ]],
    );
  } finally {
    await t.close();
  }
});

Deno.test("[panel quick start] production has no inbox", async () => {
  const t = await makeTestApp({ environment: "production" });
  try {
    const response = await t.app.request("/sandbox/webhook-inbox/inb_missingmissingmissing00", {
      method: "POST",
      body: "{}",
    });
    assert.equal(response.status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("[panel reference] every operation of the OpenAPI document has its anchor, no CDN", async () => {
  const { t, agent } = await signedInApp({ role: "MEMBER" });
  try {
    const document = await (await t.app.request("/api/v1/openapi.json")).json();
    const response = await agent.get("/panel/reference");
    assert.equal(response.status, 200);
    const html = await response.text();
    const ids = Object.values(
      document.paths as Record<string, Record<string, { operationId: string }>>,
    )
      .flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    assert.ok(ids.length > 25);
    for (const id of ids) {
      assert.ok(html.includes(`<section class="ref__op" id="${id}"`), id);
      assert.ok(html.includes(`href="#${id}"`), `nav link to ${id}`);
    }
    for (const name of Object.keys(document.components.schemas)) {
      assert.ok(html.includes(`id="schema-${name}"`), name);
    }
    // Only this origin's files: no script or stylesheet from anywhere else.
    assert.equal(/<(script|link)[^>]+(src|href)="(https?:)?\/\//.test(html), false);
    const text = pageText(html);
    assert.match(
      text,
      /Create an offer POST \/api\/v1\/qr createOffer .* Request body CreateOfferRequest .* name required string .* at least 1 characters · at most 200 characters/,
    );
    assert.match(
      text,
      /curl http:\/\/sandbox\.test\/api\/v1\/qr \\ -H "Authorization: Bearer \$PAYSTEAD_KEY"/,
    );
  } finally {
    await t.close();
  }
});

Deno.test("[panel quick start] step 5's curl is the request it runs, embedded on an allowed origin", async () => {
  // Checkout is embedded over https://, or http:// on localhost.
  const url = "http://localhost:8000";
  const { t, agent } = await signedInApp({ env: { PUBLIC_URL: url, SANDBOX_PUBLIC_URL: url } });
  try {
    const publicUrl = t.services.config.publicUrl;
    const embedLink = `${publicUrl}/panel/developers/checkout/preview`;
    const origin = new URL(embedLink).origin;
    const page = await (await agent.get("/panel/developers/quickstart")).text();
    assert.equal(
      textOf(page, "qs-curl-checkout"),
      [
        // The allowlist is empty: a terminal puts the preview's origin there first.
        `curl -X PUT ${publicUrl}/api/v1/checkout-settings \\`,
        '  -H "Authorization: Bearer $PAYSTEAD_KEY" \\',
        '  -H "Content-Type: application/json" \\',
        `  -d '{"allowedOrigins":["${origin}"]}'`,
        `SESSION_ID=$(curl -s "${publicUrl}/api/v1/checkout-sessions/$QR_ID" \\`,
        '  -H "Authorization: Bearer $PAYSTEAD_KEY" \\',
        '  -H "Content-Type: application/json" \\',
        `  -d '{"embedLink":"${embedLink}"}' | jq -r .sessionId)`,
      ].join("\n"),
    );
    await t.request("PUT", "/api/v1/checkout-settings", {
      allowedOrigins: ["https://shop.example"],
    });
    const run = async (step: string, body: Record<string, unknown> = {}) => {
      const response = await agent.postJson(`/panel/developers/quickstart/run/${step}`, body);
      return { status: response.status, body: await response.json() };
    };
    const qrId = (await run("offer")).body.response.qrId;
    const checkout = await run("checkout", { qrId });
    assert.equal(checkout.status, 201, JSON.stringify(checkout.body));
    assert.deepEqual(checkout.body.request, {
      method: "POST",
      path: `/api/v1/checkout-sessions/${qrId}`,
      body: { embedLink },
    });
    assert.equal(checkout.body.response.embedLink, embedLink);
    assert.equal((await run("checkout", { qrId })).status, 201, "runs again");
    const settings = await (await t.request("GET", "/api/v1/checkout-settings")).json();
    assert.deepEqual(settings.allowedOrigins, ["https://shop.example", origin]);
    const exported = await (await agent.get("/panel/developers/config-transfer/export")).json();
    assert.deepEqual(exported.checkout, { allowedOrigins: ["https://shop.example"] }, "own origin");

    // The curl as shown, run against the API, is answered as the step was.
    const copied = await t.request("POST", checkout.body.request.path, checkout.body.request.body);
    assert.equal(copied.status, 201);
    assert.equal((await copied.json()).embedLink, embedLink);
  } finally {
    await t.close();
  }
});

Deno.test("[panel developers] on FREE the upgrade card sells what BASIC adds; the API reference is open", async () => {
  for (
    const [access, quickstart] of [
      ["role", "The interactive Quick Start"],
      ["plan", "The interactive Quick Start, on ENTERPRISE"],
    ]
  ) {
    const { t, agent } = await signedInApp({ plan: "FREE", env: { QUICKSTART_ACCESS: access } });
    try {
      const response = await agent.get("/panel/developers");
      assert.equal(response.status, 403);
      const html = await response.text();
      assert.deepEqual(listItems(html, "ticks"), [
        "API keys for your server, in sandbox and production",
        "Signed webhooks with a delivery log, resends and test events",
        "Embedded checkout on your own pages, with a live preview",
        quickstart,
      ], access);
      assert.match(pageText(html), /The API reference is open on every plan\./);
      const nav = /<nav class="nav"[\s\S]*?<\/nav>/.exec(html)![0];
      assert.deepEqual(
        [...nav.matchAll(/href="([^"]+)"/g)].map((link) => link[1]),
        [
          "/panel",
          "/panel/payments",
          "/panel/offers",
          "/panel/team",
          "/panel/developers",
          "/panel/reference",
        ],
      );
      assert.equal((await agent.get("/panel/reference")).status, 200);
    } finally {
      await t.close();
    }
  }
});
