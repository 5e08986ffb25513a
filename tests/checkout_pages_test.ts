import assert from "node:assert/strict";
import { openStore } from "../db/client.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { LOCK_MS, MAX_WRONG_CODES } from "../lib/checkout/guard.ts";
import type { AuthorizationAnswer } from "../lib/providers/mod.ts";
import { SandboxProvider } from "../lib/providers/sandbox.ts";
import { createApp } from "../routes/app.ts";
import { silentLogger } from "../lib/log.ts";
import {
  allowOrigins,
  createTestSession,
  pathOf,
  SHOP_ORIGIN,
} from "./support/checkout_helpers.ts";
import {
  createTestOffer,
  createTestPayment,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";

/** What a browser on the page itself sends with the island's code submission. */
const SAME_ORIGIN = {
  "content-type": "application/json",
  accept: "application/json",
  "sec-fetch-site": "same-origin",
};

const EMBED_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors https://shop.example";
const NO_FRAMING_CSP = EMBED_CSP.replace(
  "frame-ancestors https://shop.example",
  "frame-ancestors 'none'",
);

async function setUp(options: Parameters<typeof makeTestApp>[0] = {}) {
  const t = await makeTestApp(options);
  await allowOrigins(t);
  const offer = await createTestOffer(t, { name: "Coffee", amount: 1250, currency: "PLN" });
  return { t, offer };
}

/** These pages' words are asserted in English; tests/customer_language_test.ts covers Polish. */
function get(t: TestApp, path: string, headers: Record<string, string> = {}) {
  return t.app.request(path, {
    headers: { accept: "text/html", "accept-language": "en", ...headers },
  });
}

function submit(
  t: TestApp,
  path: string,
  code: string,
  headers: Record<string, string> = SAME_ORIGIN,
) {
  return t.app.request(path, { method: "POST", headers, body: JSON.stringify({ code }) });
}

async function jsonOf(response: Response, status: number) {
  assert.equal(response.status, status);
  assert.equal(response.headers.get("content-type"), "application/json");
  return await response.json();
}

async function htmlOf(response: Response, status: number) {
  assert.equal(response.status, status);
  assert.equal(response.headers.get("content-type"), "text/html; charset=UTF-8");
  return await response.text();
}

const READY = {
  phase: "ready",
  paymentId: null,
  failureCode: null,
  canRetry: true,
  retryAfterSeconds: null,
  confirmSecondsLeft: null,
};

Deno.test("[checkout] the iframe page may be framed by the embedLink origin only", async () => {
  const { t, offer } = await setUp();
  try {
    const session = await createTestSession(t, offer.qrId, {
      lineItems: [
        { name: "Espresso beans 1 kg", quantity: 2, unitAmount: 4999 },
        { name: "Gift wrap", quantity: 1, unitAmount: 300 },
      ],
    });
    const other = await createTestSession(t, offer.qrId);
    const response = await get(t, pathOf(session.embedUrl));
    const html = await htmlOf(response, 200);
    assert.equal(response.headers.get("content-security-policy"), EMBED_CSP);
    assert.equal(response.headers.get("x-frame-options"), null);
    assert.equal(response.headers.get("cache-control"), "no-store");
    assert.equal(response.headers.get("x-content-type-options"), "nosniff");
    assert.equal(response.headers.get("referrer-policy"), "same-origin");

    assert.match(html, /^<!doctype html><html lang="en">/);
    assert.match(html, /<p class="summary__merchant">.*Acme<\/p>/);
    assert.match(html, /Espresso beans 1 kg<\/span><span class="lines__quantity">2 × PLN\s49\.99/);
    assert.match(html, /Gift wrap.*PLN\s3\.00/);
    assert.match(html, /<tfoot><tr><th scope="row">Total<\/th><td>PLN\s102\.98<\/td>/);
    assert.match(html, /<label class="field-label" for="code">BLIK code<\/label>/);
    assert.match(html, /Pay PLN\s102\.98/);
    assert.match(html, /Sandbox test codes/);
    assert.match(html, /<code>777xxx<\/code>/);
    assert.match(
      html,
      /<script type="module" src="\/static\/islands\.js\?v=[0-9a-f]{16}"><\/script>/,
    );
    assert.match(html, /&quot;parentOrigin&quot;:&quot;https:\/\/shop\.example&quot;/);
    // Nothing of the merchant's API, and no other session, reaches the customer.
    assert.equal(html.includes(t.apiKey), false);
    assert.equal(html.includes("sk_sandbox_"), false);
    assert.equal(html.includes(other.sessionId), false);
    assert.equal(
      html.includes(SHOP_ORIGIN + "/checkout"),
      false,
      "the embedLink path stays private",
    );
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] production pages show no sandbox banner or test codes", async () => {
  const { t, offer } = await setUp({ environment: "production" });
  try {
    const session = await createTestSession(t, offer.qrId);
    const html = await htmlOf(await get(t, pathOf(session.embedUrl)), 200);
    assert.equal(html.includes("Sandbox"), false);
    assert.equal(html.includes("777xxx"), false);
    assert.match(html, /Pay with BLIK/);
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] unknown and disallowed sessions get a plain page nobody may frame", async () => {
  const { t, offer } = await setUp();
  try {
    const unknown = await get(t, "/checkout/cs_000000000000000000000000");
    const html = await htmlOf(unknown, 404);
    assert.equal(unknown.headers.get("content-security-policy"), NO_FRAMING_CSP);
    assert.equal(unknown.headers.get("x-frame-options"), "DENY");
    assert.match(html, /<h1>We can&#39;t find this page<\/h1>|<h1>We can't find this page<\/h1>/);
    assert.equal(html.includes("resource_not_found"), false);

    const session = await createTestSession(t, offer.qrId);
    await allowOrigins(t, ["https://elsewhere.example"]);
    const removed = await get(t, pathOf(session.embedUrl));
    const page = await htmlOf(removed, 403);
    assert.equal(removed.headers.get("content-security-policy"), NO_FRAMING_CSP);
    assert.match(page, /This checkout is not available here/);
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] code submissions must come from the page itself (CSRF)", async (s) => {
  const { t, offer } = await setUp();
  try {
    const session = await createTestSession(t, offer.qrId);
    const path = pathOf(session.embedUrl);
    const refused: [string, Record<string, string>][] = [
      ["no Origin and no Sec-Fetch-Site", {
        "content-type": "application/json",
        accept: "application/json",
      }],
      ["a cross-site page", { ...SAME_ORIGIN, "sec-fetch-site": "cross-site" }],
      ["a same-site page", { ...SAME_ORIGIN, "sec-fetch-site": "same-site" }],
      ["the embedding shop itself", {
        ...SAME_ORIGIN,
        "sec-fetch-site": "cross-site",
        origin: SHOP_ORIGIN,
      }],
      ["another Origin", {
        "content-type": "application/json",
        accept: "application/json",
        origin: "https://evil.example",
      }],
    ];
    for (const [name, headers] of refused) {
      await s.step(name, async () => {
        const body = await jsonOf(await submit(t, path, "777123", headers), 403);
        assert.equal(body.error.code, "csrf_failed");
        assert.equal(body.error.type, "permission");
      });
    }
    await s.step("a cross-site HTML form gets a page, not JSON", async () => {
      const response = await t.app.request(path, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "sec-fetch-site": "cross-site",
          accept: "text/html",
          "accept-language": "en",
        },
        body: "code=777123",
      });
      const html = await htmlOf(response, 403);
      assert.match(html, /This page is out of date/);
    });
    await s.step("nothing was paid", async () => {
      const current =
        await (await t.request("GET", `/api/v1/checkout-sessions/${session.sessionId}`)).json();
      assert.equal(current.status, "OPEN");
      assert.equal(current.paymentId, null);
    });
    await s.step("Origin of this service without Sec-Fetch-Site is accepted", async () => {
      const state = await jsonOf(
        await submit(t, path, "777123", {
          "content-type": "application/json",
          accept: "application/json",
          origin: "http://sandbox.test",
        }),
        200,
      );
      assert.equal(state.phase, "succeeded");
    });
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] the island pays a session and reads its state", async () => {
  const { t, offer } = await setUp();
  try {
    const session = await createTestSession(t, offer.qrId);
    const path = pathOf(session.embedUrl);
    const state = await jsonOf(await get(t, `${path}/state`, { accept: "application/json" }), 200);
    assert.deepEqual(state, READY);

    const failed = await jsonOf(await submit(t, path, "700703"), 200);
    assert.match(failed.paymentId, /^pay_/);
    assert.deepEqual(failed, {
      ...READY,
      phase: "failed",
      paymentId: failed.paymentId,
      failureCode: "code_already_used",
    });

    const paid = await jsonOf(await submit(t, path, " 777 123 "), 200);
    assert.deepEqual(paid, { ...READY, phase: "succeeded", paymentId: paid.paymentId });
    const api = await (await t.request("GET", `/api/v1/checkout-sessions/${session.sessionId}`))
      .json();
    assert.equal(api.status, "COMPLETED");
    assert.equal(api.paymentId, paid.paymentId);
    assert.deepEqual(
      await jsonOf(await get(t, `${path}/state`, { accept: "application/json" }), 200),
      paid,
    );

    const again = await jsonOf(await submit(t, path, "777123"), 409);
    assert.equal(again.error.code, "session_already_completed");
    const html = await htmlOf(await get(t, path), 200);
    assert.match(html, /Payment successful/);
    assert.equal(html.includes('name="code"'), false);
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] without JavaScript the form posts and the page shows the result", async () => {
  const { t, offer } = await setUp();
  try {
    const session = await createTestSession(t, offer.qrId);
    const path = pathOf(session.embedUrl);
    const response = await t.app.request(path, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "same-origin",
        accept: "text/html",
      },
      body: "code=500500",
    });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get("location"), path);
    const html = await htmlOf(await get(t, path), 200);
    assert.match(html, /Payment failed/);
    assert.match(html, /Your bank declined the payment\./);
    assert.match(html, /Try again/);
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] five wrong codes lock a session's code entry, in every process", async () => {
  const { t, offer } = await setUp();
  try {
    const session = await createTestSession(t, offer.qrId);
    const path = pathOf(session.embedUrl);
    for (let i = 1; i < MAX_WRONG_CODES; i++) {
      assert.equal((await jsonOf(await submit(t, path, "123456"), 200)).phase, "failed");
    }
    const fifth = await jsonOf(await submit(t, path, "500500"), 200);
    assert.deepEqual(fifth, {
      phase: "locked",
      paymentId: fifth.paymentId,
      failureCode: "declined",
      canRetry: false,
      retryAfterSeconds: LOCK_MS / 1000,
      confirmSecondsLeft: null,
    });

    const locked = await submit(t, path, "777123");
    const body = await jsonOf(locked, 429);
    assert.equal(body.error.code, "code_entry_locked");
    assert.equal(body.error.type, "rate_limit");
    assert.equal(locked.headers.get("retry-after"), String(LOCK_MS / 1000));
    assert.match(await htmlOf(await get(t, path), 200), /Too many attempts/);

    // Another process over the same database sees the same lock.
    const store = await openStore<EnvironmentSchema>(t.config.databaseUrl);
    try {
      const second = createApp({
        config: t.config,
        store,
        accounts: t.accounts,
        clock: t.clock,
        log: silentLogger,
      });
      const elsewhere = await second.app.request(path, {
        method: "POST",
        headers: SAME_ORIGIN,
        body: JSON.stringify({ code: "777123" }),
      });
      assert.equal(elsewhere.status, 429);
      await second.services.scheduler.stop();
    } finally {
      await store.close();
    }

    t.clock.advance(LOCK_MS);
    assert.equal((await jsonOf(await submit(t, path, "777123"), 200)).phase, "succeeded");
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] malformed codes are 400, change nothing, and count towards the lock", async () => {
  const { t, offer } = await setUp();
  try {
    const session = await createTestSession(t, offer.qrId);
    const path = pathOf(session.embedUrl);
    for (const code of ["12345", "abcdef", "1234567", "", "12 34 5"]) {
      const body = await jsonOf(await submit(t, path, code), 400);
      assert.equal(body.error.code, "parameter_invalid");
      assert.equal(body.error.param, "code");
    }
    const missing = await t.app.request(path, { method: "POST", headers: SAME_ORIGIN, body: "{}" });
    assert.equal((await jsonOf(missing, 400)).error.code, "parameter_missing");
    const api = await (await t.request("GET", `/api/v1/checkout-sessions/${session.sessionId}`))
      .json();
    assert.equal(api.paymentId, null);
    assert.equal(
      (await jsonOf(await submit(t, path, "777123"), 429)).error.code,
      "code_entry_locked",
    );
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] an expired session shows the expired state and takes no code", async () => {
  const { t, offer } = await setUp();
  try {
    const session = await createTestSession(t, offer.qrId, { expiresInMinutes: 1 });
    const path = pathOf(session.embedUrl);
    t.clock.advance(60_000);
    // Before the scheduler has run, the page already knows.
    assert.equal(
      (await jsonOf(await get(t, `${path}/state`, { accept: "application/json" }), 200)).phase,
      "expired",
    );
    assert.equal(
      (await jsonOf(await submit(t, path, "777123"), 409)).error.code,
      "session_expired",
    );
    const html = await htmlOf(await get(t, path), 200);
    assert.match(html, /This checkout has expired/);
  } finally {
    await t.close();
  }
});

Deno.test("[pay] the hosted page may not be framed and pays once", async () => {
  const { t, offer } = await setUp();
  try {
    const payment = await createTestPayment(t, offer.qrId, {
      quantity: 3,
      successUrl: "https://shop.example/thanks",
    });
    const path = pathOf(payment.paymentUrl as string);
    const response = await get(t, path);
    const html = await htmlOf(response, 200);
    assert.equal(response.headers.get("content-security-policy"), NO_FRAMING_CSP);
    assert.equal(response.headers.get("x-frame-options"), "DENY");
    assert.equal(response.headers.get("cross-origin-opener-policy"), "same-origin");
    assert.match(html, /<title>Pay Acme · Coffee<\/title>/);
    assert.match(html, /3 × PLN\s12\.50/);
    assert.match(html, /Pay PLN\s37\.50/);
    assert.match(html, /Sandbox test codes/);
    assert.equal(html.includes(t.apiKey), false);

    const paid = await jsonOf(await submit(t, path, "777123"), 200);
    assert.deepEqual(paid, { ...READY, phase: "succeeded", paymentId: payment.paymentId });
    const api = await (await t.request("GET", `/api/v1/payments/${payment.paymentId}`)).json();
    assert.equal(api.status, "SUCCEEDED");
    assert.equal(
      (await jsonOf(await submit(t, path, "777123"), 409)).error.code,
      "payment_already_final",
    );
  } finally {
    await t.close();
  }
});

Deno.test("[pay] a failed, expired or canceled payment shows a clear final page", async (s) => {
  const { t, offer } = await setUp();
  try {
    await s.step("failed", async () => {
      const payment = await createTestPayment(t, offer.qrId);
      const path = pathOf(payment.paymentUrl as string);
      const failed = await jsonOf(await submit(t, path, "500500"), 200);
      assert.deepEqual(failed, {
        ...READY,
        phase: "failed",
        paymentId: payment.paymentId,
        failureCode: "declined",
        canRetry: true,
      });
      const html = await htmlOf(await get(t, path), 200);
      assert.match(html, /Payment failed/);
      assert.match(html, /Your bank declined the payment\. Try again with a new code;/);
      // A failed payment is final: the page starts a new one for the same purchase.
      assert.match(
        html,
        new RegExp(
          `<form method="post" action="${path}/again"><button type="submit" class="button button--primary">Try again with a new code</button></form>`,
        ),
      );
      assert.equal(html.includes('name="code"'), false);
    });
    await s.step("canceled", async () => {
      const payment = await createTestPayment(t, offer.qrId, {
        cancelUrl: "https://shop.example/cart",
      });
      await t.request("POST", `/api/v1/payments/${payment.paymentId}/cancel`);
      const html = await htmlOf(await get(t, pathOf(payment.paymentUrl as string)), 200);
      assert.match(html, /This payment was canceled/);
      assert.match(html, /href="https:\/\/shop\.example\/cart"/);
    });
    await s.step("expired", async () => {
      const payment = await createTestPayment(t, offer.qrId, { expiresInMinutes: 1 });
      t.clock.advance(60_000);
      const path = pathOf(payment.paymentUrl as string);
      assert.match(await htmlOf(await get(t, path), 200), /This payment link has expired/);
      assert.equal(
        (await jsonOf(await submit(t, path, "777123"), 409)).error.code,
        "payment_expired",
      );
      await t.services.scheduler.runDue();
      assert.match(await htmlOf(await get(t, path), 200), /This payment link has expired/);
    });
    await s.step("unknown", async () => {
      const html = await htmlOf(await get(t, "/pay/pay_000000000000000000000000"), 404);
      assert.match(html, /We can/);
    });
  } finally {
    await t.close();
  }
});

Deno.test("[pay] malformed codes lock a hosted payment after five", async () => {
  const { t, offer } = await setUp();
  try {
    const payment = await createTestPayment(t, offer.qrId);
    const path = pathOf(payment.paymentUrl as string);
    for (let i = 0; i < 5; i++) assert.equal((await submit(t, path, "12")).status, 400);
    const locked = await submit(t, path, "777123");
    assert.equal((await jsonOf(locked, 429)).error.code, "code_entry_locked");
    const state = await jsonOf(await get(t, `${path}/state`, { accept: "application/json" }), 200);
    assert.equal(state.phase, "locked");
    const api = await (await t.request("GET", `/api/v1/payments/${payment.paymentId}`)).json();
    assert.equal(api.status, "PENDING");
  } finally {
    await t.close();
  }
});

Deno.test("[pay] /o/{qrId} starts a payment and sends the browser to it", async (s) => {
  const { t, offer } = await setUp();
  try {
    await s.step("active offer", async () => {
      const response = await get(t, `/o/${offer.qrId}`);
      assert.equal(response.status, 303);
      assert.equal(response.headers.get("cache-control"), "no-store");
      const location = response.headers.get("location")!;
      assert.match(location, /^\/pay\/pay_[0-9A-Za-z]{30}$/);
      const payment = await (await t.request("GET", `/api/v1/payments/${location.slice(5)}`))
        .json();
      assert.equal(payment.status, "PENDING");
      assert.equal(payment.qrId, offer.qrId);
      assert.equal(payment.amount, 1250);
    });
    await s.step("HEAD starts nothing", async () => {
      const response = await t.app.request(`/o/${offer.qrId}`, { method: "HEAD" });
      assert.equal(response.status, 204);
      const list = await (await t.request("GET", `/api/v1/payments?qrId=${offer.qrId}`)).json();
      assert.equal(list.data.length, 1);
    });
    await s.step("deactivated offer", async () => {
      await t.request("PATCH", `/api/v1/qr/${offer.qrId}`, { active: false });
      const html = await htmlOf(await get(t, `/o/${offer.qrId}`), 410);
      assert.match(html, /This offer is no longer available/);
      const list = await (await t.request("GET", `/api/v1/payments?qrId=${offer.qrId}`)).json();
      assert.equal(list.data.length, 1);
    });
    await s.step("unknown offer", async () => {
      await htmlOf(await get(t, "/o/qr_000000000000000000000000"), 404);
    });
  } finally {
    await t.close();
  }
});

Deno.test("[pages] errors are pages for people and JSON for the API and scripts", async (s) => {
  // A provider answer the code cannot handle: a bug inside, never shown to the customer.
  class FailingProvider extends SandboxProvider {
    override authorize(): Promise<AuthorizationAnswer> {
      return Promise.resolve({
        reference: "bank-internal-host:9443",
        outcome: null as unknown as Extract<AuthorizationAnswer, { outcome: unknown }>["outcome"],
      });
    }
  }
  const failing = new FailingProvider();
  const { t, offer } = await setUp({ provider: failing });
  try {
    await s.step("an unknown page", async () => {
      const html = await htmlOf(await get(t, "/no/such/page"), 404);
      assert.match(html, /We can/);
    });
    await s.step("an unknown page asked for as JSON", async () => {
      const body = await jsonOf(await get(t, "/no/such/page", { accept: "application/json" }), 404);
      assert.equal(body.error.code, "route_not_found");
    });
    await s.step("an unknown API route stays JSON for a browser", async () => {
      const body = await jsonOf(
        await t.request("GET", "/api/v1/nothing", undefined, { accept: "text/html" }),
        404,
      );
      assert.equal(body.error.code, "route_not_found");
    });
    await s.step("a failure inside shows a reference, never the cause", async () => {
      const payment = await createTestPayment(t, offer.qrId);
      const response = await t.app.request(pathOf(payment.paymentUrl as string), {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "sec-fetch-site": "same-origin",
          accept: "text/html",
          "accept-language": "en",
        },
        body: "code=777123",
      });
      const html = await htmlOf(response, 500);
      const requestId = response.headers.get("request-id")!;
      assert.match(html, new RegExp(`Reference: ${requestId}`));
      assert.equal(html.includes("bank-internal-host"), false);
      assert.equal(html.includes("Error"), false);
    });
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] while the bank decides: a countdown to confirm, and a page that reloads itself", async (t) => {
  const { t: app, offer } = await setUp();
  const refresh = '<noscript><meta http-equiv="refresh" content="3"/></noscript>';
  try {
    const session = await createTestSession(app, offer.qrId);
    const payment = await createTestPayment(app, offer.qrId);
    const pages = [
      { name: "checkout iframe", path: pathOf(session.embedUrl) },
      { name: "hosted page", path: `/pay/${payment.paymentId}` },
    ];
    for (const { name, path } of pages) {
      await t.step(name, async () => {
        assert.equal((await htmlOf(await get(app, path), 200)).includes(refresh), false);
        const processing = await jsonOf(await submit(app, path, "600600"), 200);
        assert.deepEqual(processing, {
          ...READY,
          phase: "processing",
          paymentId: processing.paymentId,
          confirmSecondsLeft: 60,
        });
        const html = await htmlOf(await get(app, path), 200);
        assert.equal(html.includes(refresh), true);
        assert.match(html, /Confirm the payment in your banking app/);
        assert.match(html, /Time left to confirm: 1:00/);
        app.clock.advance(7_500);
        const later = await jsonOf(await get(app, `${path}/state`), 200);
        assert.equal(later.confirmSecondsLeft, 53);
        assert.match(await htmlOf(await get(app, path), 200), /Time left to confirm: 0:53/);
        app.clock.advance(10_000);
        await app.services.scheduler.runDue();
        const failed = await htmlOf(await get(app, path), 200);
        assert.equal(failed.includes(refresh), false);
        assert.match(
          failed,
          /Your bank didn't confirm the payment in time\./,
        );
      });
    }
  } finally {
    await app.close();
  }
});
