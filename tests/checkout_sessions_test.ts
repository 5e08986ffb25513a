import assert from "node:assert/strict";
import { createOrganisation } from "../lib/accounts/organisations.ts";
import { createApiKey } from "../lib/api_keys.ts";
import { SandboxProvider } from "../lib/providers/sandbox.ts";
import {
  allowOrigins,
  createTestSession,
  eventsOf,
  SHOP_ORIGIN,
} from "./support/checkout_helpers.ts";
import { createTestOffer, makeTestApp } from "./support/helpers.ts";

async function setUp(options: Parameters<typeof makeTestApp>[0] = {}) {
  const t = await makeTestApp(options);
  await allowOrigins(t);
  const offer = await createTestOffer(t, { name: "Coffee", amount: 1250, currency: "PLN" });
  return { t, offer };
}

async function expectError(response: Response, status: number, code: string, param?: string) {
  assert.equal(response.status, status);
  assert.equal(response.headers.get("content-type"), "application/json");
  const body = await response.json();
  assert.equal(body.error.code, code, body.error.message);
  assert.equal(body.error.param, param);
  assert.match(body.error.requestId, /^req_/);
  return body.error as { message: string };
}

Deno.test("[checkout] creating a session returns exactly the contract's resource", async () => {
  const { t, offer } = await setUp();
  try {
    const response = await t.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
      embedLink: "https://shop.example/cart?step=pay",
      successUrl: "https://shop.example/thanks",
      cancelUrl: "https://shop.example/cart",
      metadata: { orderId: "A-1001" },
      locale: "en",
    });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get("content-type"), "application/json");
    const body = await response.json();
    assert.match(body.sessionId, /^cs_[0-9A-Za-z]{30}$/);
    assert.deepEqual(body, {
      sessionId: body.sessionId,
      embedUrl: `http://sandbox.test/checkout/${body.sessionId}`,
      expiresAt: "2026-11-21T10:30:00.000Z",
      status: "OPEN",
      qrId: offer.qrId,
      amount: 1250,
      currency: "PLN",
      embedLink: "https://shop.example/cart?step=pay",
      successUrl: "https://shop.example/thanks",
      cancelUrl: "https://shop.example/cart",
      lineItems: null,
      metadata: { orderId: "A-1001" },
      paymentId: null,
      createdAt: "2026-11-21T10:00:00.000Z",
      version: 1,
      locale: "en",
      paymentMethods: null,
    });
    const fetched = await t.request("GET", `/api/v1/checkout-sessions/${body.sessionId}`);
    assert.equal(fetched.status, 200);
    assert.deepEqual(await fetched.json(), body);
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] line items set the amount; expiresInMinutes is 1..1440", async (s) => {
  const { t, offer } = await setUp();
  try {
    await s.step("line items add up", async () => {
      const lineItems = [
        { name: "Espresso beans 1 kg", quantity: 2, unitAmount: 4999 },
        { name: "Gift wrap", quantity: 1, unitAmount: 0 },
      ];
      const session = await createTestSession(t, offer.qrId, { lineItems, expiresInMinutes: 1 });
      assert.equal(session.amount, 9998);
      assert.deepEqual(session.lineItems, lineItems);
      assert.equal(session.expiresAt, "2026-11-21T10:01:00.000Z");
    });
    await s.step("1440 minutes is the longest", async () => {
      const session = await createTestSession(t, offer.qrId, { expiresInMinutes: 1440 });
      assert.equal(session.expiresAt, "2026-11-22T10:00:00.000Z");
    });
    const invalid: [Record<string, unknown>, string, string][] = [
      [{ expiresInMinutes: 0 }, "parameter_invalid", "expiresInMinutes"],
      [{ expiresInMinutes: 1441 }, "parameter_invalid", "expiresInMinutes"],
      [{ expiresInMinutes: 1.5 }, "parameter_invalid", "expiresInMinutes"],
      [{ lineItems: [] }, "parameter_invalid", "lineItems"],
      [
        { lineItems: [{ name: "Free", quantity: 1, unitAmount: 0 }] },
        "parameter_invalid",
        "lineItems",
      ],
      [
        { lineItems: [{ name: "X", quantity: 0, unitAmount: 1 }] },
        "parameter_invalid",
        "lineItems.0.quantity",
      ],
      [
        { lineItems: [{ name: "X", quantity: 1, unitAmount: -1 }] },
        "parameter_invalid",
        "lineItems.0.unitAmount",
      ],
      [
        { lineItems: [{ name: " ", quantity: 1, unitAmount: 1 }] },
        "parameter_invalid",
        "lineItems.0.name",
      ],
      [
        { lineItems: [{ name: "X", quantity: 1, unitAmount: 1, sku: "1" }] },
        "parameter_unknown",
        "lineItems.0.sku",
      ],
      [
        { lineItems: [{ name: "X", quantity: 10_000, unitAmount: 100_000_000_000 }] },
        "parameter_invalid",
        "lineItems",
      ],
      [
        {
          lineItems: Array.from({ length: 101 }, () => ({ name: "X", quantity: 1, unitAmount: 1 })),
        },
        "parameter_invalid",
        "lineItems",
      ],
      [
        { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) },
        "parameter_invalid",
        "metadata",
      ],
      [
        { metadata: { ["k".repeat(41)]: "v" } },
        "parameter_invalid",
        "metadata.kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk",
      ],
      [{ successUrl: "javascript:alert(1)" }, "parameter_invalid", "successUrl"],
      [{ color: "blue" }, "parameter_unknown", "color"],
      [{ embedLink: undefined }, "parameter_missing", "embedLink"],
      [{ embedLink: "http://shop.example/checkout" }, "parameter_invalid", "embedLink"],
    ];
    for (const [fields, code, param] of invalid) {
      await s.step(`${JSON.stringify(fields).slice(0, 70)} -> ${code}`, async () => {
        const response = await t.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
          embedLink: `${SHOP_ORIGIN}/checkout`,
          ...fields,
        });
        await expectError(response, 400, code, param);
      });
    }
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] the embedLink origin must be on the allowlist", async (s) => {
  const { t, offer } = await setUp();
  try {
    await s.step("another origin is 400 embed_origin_not_allowed", async () => {
      const response = await t.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
        embedLink: "https://evil.example/shop",
      });
      const error = await expectError(response, 400, "embed_origin_not_allowed", "embedLink");
      assert.match(error.message, /https:\/\/evil\.example/);
      assert.match(error.message, /PUT \/api\/v1\/checkout-settings/);
    });
    await s.step("another port of an allowed host is another origin", async () => {
      const response = await t.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
        embedLink: "https://shop.example:8443/checkout",
      });
      await expectError(response, 400, "embed_origin_not_allowed", "embedLink");
    });
    await s.step("http://localhost works in the sandbox once allowed", async () => {
      const before = await t.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
        embedLink: "http://localhost:5173/",
      });
      await expectError(before, 400, "embed_origin_not_allowed", "embedLink");
      await allowOrigins(t, [SHOP_ORIGIN, "http://localhost:5173"]);
      const session = await createTestSession(t, offer.qrId, {
        embedLink: "http://localhost:5173/",
      });
      assert.equal(session.embedLink, "http://localhost:5173/");
    });
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] unknown, foreign and inactive offers; foreign sessions are 404", async () => {
  const { t, offer } = await setUp();
  try {
    await expectError(
      await t.request("POST", "/api/v1/checkout-sessions/qr_000000000000000000000000", {
        embedLink: `${SHOP_ORIGIN}/`,
      }),
      404,
      "resource_not_found",
      "qrId",
    );
    const session = await createTestSession(t, offer.qrId);

    const other = await createOrganisation(t.accounts, {
      slug: "other",
      name: "Other",
      plan: "PRO",
    }, 0);
    const otherKey = await createApiKey(t.store, {
      orgId: other.id,
      name: "other",
      environment: "sandbox",
      now: 0,
    });
    const auth = { authorization: `Bearer ${otherKey.secret}` };
    for (const path of ["", "/expire", "/complete"]) {
      const response = await t.request(
        path === "" ? "GET" : "POST",
        `/api/v1/checkout-sessions/${session.sessionId}${path}`,
        path === "/complete" ? { code: "777123" } : undefined,
        auth,
      );
      await expectError(response, 404, "resource_not_found", "sessionId");
    }
    await expectError(
      await t.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
        embedLink: `${SHOP_ORIGIN}/`,
      }, auth),
      404,
      "resource_not_found",
      "qrId",
    );

    await t.request("PATCH", `/api/v1/qr/${offer.qrId}`, { active: false });
    await expectError(
      await t.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
        embedLink: `${SHOP_ORIGIN}/`,
      }),
      409,
      "offer_inactive",
      "qrId",
    );
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] complete with 777123 completes the session once; events in order", async () => {
  const { t, offer } = await setUp();
  try {
    const session = await createTestSession(t, offer.qrId, { metadata: { orderId: "A-7" } });
    const response = await t.request(
      "POST",
      `/api/v1/checkout-sessions/${session.sessionId}/complete`,
      { code: "777123" },
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "application/json");
    const completed = await response.json();
    assert.equal(completed.status, "COMPLETED");
    assert.match(completed.paymentId, /^pay_/);
    assert.equal(completed.version, 3);
    assert.deepEqual({ ...completed, status: "OPEN", paymentId: null, version: 1 }, session);

    const payment = await (await t.request("GET", `/api/v1/payments/${completed.paymentId}`))
      .json();
    assert.equal(payment.status, "SUCCEEDED");
    assert.equal(payment.amount, 1250);
    assert.equal(payment.qrId, offer.qrId);
    assert.deepEqual(payment.metadata, { orderId: "A-7" });
    assert.equal(payment.expiresAt, session.expiresAt);

    const events = await eventsOf(
      t,
      "payment.created",
      "payment.processing",
      "payment.succeeded",
      "checkout.session.completed",
    );
    assert.deepEqual(events.map((event) => event.type), [
      "payment.created",
      "payment.processing",
      "payment.succeeded",
      "checkout.session.completed",
    ]);
    assert.deepEqual(events[3].data, completed);

    const again = await t.request(
      "POST",
      `/api/v1/checkout-sessions/${session.sessionId}/complete`,
      { code: "777123" },
    );
    await expectError(again, 409, "session_already_completed");
    assert.equal((await eventsOf(t, "payment.created")).length, 1);
    await expectError(
      await t.request("POST", `/api/v1/checkout-sessions/${session.sessionId}/expire`),
      409,
      "session_already_completed",
    );
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] a failed code is a FAILED payment and the session stays open", async () => {
  const { t, offer } = await setUp();
  try {
    const session = await createTestSession(t, offer.qrId);
    const path = `/api/v1/checkout-sessions/${session.sessionId}/complete`;
    const failed = await (await t.request("POST", path, { code: "500500" })).json();
    assert.equal(failed.status, "OPEN");
    assert.match(failed.paymentId, /^pay_/);
    const failedPayment = await (await t.request("GET", `/api/v1/payments/${failed.paymentId}`))
      .json();
    assert.equal(failedPayment.status, "FAILED");
    assert.equal(failedPayment.failureCode, "declined");

    const completed = await (await t.request("POST", path, { code: "777001" })).json();
    assert.equal(completed.status, "COMPLETED");
    assert.notEqual(completed.paymentId, failed.paymentId);
    assert.equal((await eventsOf(t, "checkout.session.completed")).length, 1);
    assert.equal(
      (await (await t.request("GET", `/api/v1/payments/${failed.paymentId}`)).json()).status,
      "FAILED",
    );
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] complete validates the code and is sandbox-only", async () => {
  const { t, offer } = await setUp();
  try {
    const session = await createTestSession(t, offer.qrId);
    const path = `/api/v1/checkout-sessions/${session.sessionId}/complete`;
    await expectError(
      await t.request("POST", path, { code: "12345" }),
      400,
      "parameter_invalid",
      "code",
    );
    await expectError(await t.request("POST", path, {}), 400, "parameter_missing", "code");
    const unchanged =
      await (await t.request("GET", `/api/v1/checkout-sessions/${session.sessionId}`))
        .json();
    assert.deepEqual(unchanged, session);
  } finally {
    await t.close();
  }
  const production = await makeTestApp({ environment: "production" });
  try {
    await allowOrigins(production);
    const offer = await createTestOffer(production);
    const session = await createTestSession(production, offer.qrId);
    assert.equal(session.embedUrl, `https://api.paystead.test/checkout/${session.sessionId}`);
    const error = await expectError(
      await production.request("POST", `/api/v1/checkout-sessions/${session.sessionId}/complete`, {
        code: "777123",
      }),
      403,
      "sandbox_only",
    );
    assert.match(error.message, /http:\/\/sandbox\.test/);
    await expectError(
      await production.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
        embedLink: `${SHOP_ORIGIN}/`,
        successUrl: "http://shop.example/thanks",
      }),
      400,
      "parameter_invalid",
      "successUrl",
    );
  } finally {
    await production.close();
  }
});

Deno.test("[checkout] expire: OPEN -> EXPIRED once, with its event", async () => {
  const { t, offer } = await setUp();
  try {
    const session = await createTestSession(t, offer.qrId);
    t.clock.advance(60_000);
    const response = await t.request(
      "POST",
      `/api/v1/checkout-sessions/${session.sessionId}/expire`,
    );
    assert.equal(response.status, 200);
    const expired = await response.json();
    assert.deepEqual(expired, { ...session, status: "EXPIRED", version: 2 });
    const events = await eventsOf(t, "checkout.session.expired");
    assert.equal(events.length, 1);
    assert.deepEqual(events[0].data, expired);

    await expectError(
      await t.request("POST", `/api/v1/checkout-sessions/${session.sessionId}/expire`),
      409,
      "session_expired",
    );
    await expectError(
      await t.request("POST", `/api/v1/checkout-sessions/${session.sessionId}/complete`, {
        code: "777123",
      }),
      409,
      "session_expired",
    );
    assert.equal((await eventsOf(t, "payment.created")).length, 0);
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] the scheduler expires open sessions at expiresAt, not paid ones", async () => {
  const { t, offer } = await setUp();
  try {
    const paid = await createTestSession(t, offer.qrId, { expiresInMinutes: 5 });
    const short = await createTestSession(t, offer.qrId, { expiresInMinutes: 5 });
    const long = await createTestSession(t, offer.qrId, { expiresInMinutes: 10 });
    const status = async (id: string) =>
      (await (await t.request("GET", `/api/v1/checkout-sessions/${id}`)).json()).status;

    t.clock.advance(5 * 60_000 - 1);
    await t.services.scheduler.runDue();
    assert.equal(await status(short.sessionId), "OPEN");
    const completed = await t.request(
      "POST",
      `/api/v1/checkout-sessions/${paid.sessionId}/complete`,
      { code: "777123" },
    );
    assert.equal((await completed.json()).status, "COMPLETED");

    t.clock.advance(1);
    await t.services.scheduler.runDue();
    assert.equal(await status(paid.sessionId), "COMPLETED");
    assert.equal(await status(short.sessionId), "EXPIRED");
    assert.equal(await status(long.sessionId), "OPEN");

    t.clock.advance(5 * 60_000);
    await t.services.scheduler.runDue();
    assert.equal(await status(long.sessionId), "EXPIRED");
    const expired = await eventsOf(t, "checkout.session.expired");
    assert.deepEqual(expired.map((event) => event.data.sessionId), [
      short.sessionId,
      long.sessionId,
    ]);
    assert.equal(expired[0].data.status, "EXPIRED");
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] a processing attempt holds the session until the bank answers", async () => {
  const { t, offer } = await setUp({ provider: new SandboxProvider({ timeoutMs: 10 * 60_000 }) });
  try {
    const session = await createTestSession(t, offer.qrId, { expiresInMinutes: 5 });
    const path = `/api/v1/checkout-sessions/${session.sessionId}`;
    const processing = await (await t.request("POST", `${path}/complete`, { code: "600600" }))
      .json();
    assert.equal(processing.status, "OPEN");
    const payment = async () =>
      await (await t.request("GET", `/api/v1/payments/${processing.paymentId}`)).json();
    assert.equal((await payment()).status, "PROCESSING");

    await expectError(
      await t.request("POST", `${path}/complete`, { code: "777123" }),
      409,
      "payment_processing",
    );
    await expectError(await t.request("POST", `${path}/expire`), 409, "payment_processing");

    // Past the session's expiry the attempt still runs; the session waits for it.
    t.clock.advance(6 * 60_000);
    await t.services.scheduler.runDue();
    assert.equal((await (await t.request("GET", path)).json()).status, "OPEN");

    // The bank never answers: the payment times out, and the session expires with it.
    t.clock.advance(5 * 60_000);
    await t.services.scheduler.runDue();
    const timedOut = await payment();
    assert.equal(timedOut.status, "FAILED");
    assert.equal(timedOut.failureCode, "timeout");
    const final = await (await t.request("GET", path)).json();
    assert.equal(final.status, "EXPIRED");
    assert.equal(final.paymentId, processing.paymentId);
    assert.deepEqual(
      (await eventsOf(t, "payment.failed", "checkout.session.expired")).map((e) => e.type),
      ["payment.failed", "checkout.session.expired"],
    );
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] an Idempotency-Key replays session creation and completion", async () => {
  const { t, offer } = await setUp();
  try {
    const create = () =>
      t.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
        embedLink: `${SHOP_ORIGIN}/`,
      }, { "idempotency-key": "order-1" });
    const first = await create();
    assert.equal(first.status, 201);
    const firstBody = await first.json();
    const second = await create();
    assert.equal(second.status, 201);
    assert.equal(second.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(await second.json(), firstBody);

    const complete = () =>
      t.request("POST", `/api/v1/checkout-sessions/${firstBody.sessionId}/complete`, {
        code: "777123",
      }, { "idempotency-key": "pay-1" });
    const paid = await complete();
    assert.equal(paid.status, 200);
    const paidBody = await paid.json();
    assert.equal(paidBody.status, "COMPLETED");
    const replay = await complete();
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(await replay.json(), paidBody);
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] the OpenAPI document describes the checkout operations", async () => {
  const t = await makeTestApp();
  try {
    const document = await (await t.request("GET", "/api/v1/openapi.json")).json();
    assert.deepEqual(
      Object.keys(document.paths).filter((path) => path.includes("checkout")).sort(),
      [
        // POST takes the offer's qrId, GET the session's id: one template, two operations.
        "/api/v1/checkout-sessions/{id}",
        "/api/v1/checkout-sessions/{sessionId}/complete",
        "/api/v1/checkout-sessions/{sessionId}/expire",
        "/api/v1/checkout-settings",
      ],
    );
    const item = document.paths["/api/v1/checkout-sessions/{id}"];
    assert.deepEqual(
      [
        item.post.operationId,
        item.post.parameters.find((p: { in: string }) => p.in === "path").description,
      ],
      ["createCheckoutSession", "The offer's id (`qrId`, `qr_...`) to open a session for."],
    );
    assert.equal(item.get.operationId, "getCheckoutSession");
    for (const id of ["CheckoutSession", "CreateCheckoutSessionRequest", "CheckoutSettings"]) {
      assert.ok(document.components.schemas[id], id);
    }
  } finally {
    await t.close();
  }
});
