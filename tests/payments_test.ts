import assert from "node:assert/strict";
import { Event } from "../lib/events.ts";
import { Payment } from "../lib/payments/schemas.ts";
import {
  createTestOffer,
  createTestPayment,
  expectError,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";

async function events(app: TestApp): Promise<Event[]> {
  const response = await app.request("GET", "/api/v1/events?limit=100");
  return (await response.json()).data.map((event: unknown) => Event.parse(event)).reverse();
}

async function complete(app: TestApp, paymentId: string, code: unknown) {
  return await app.request("POST", `/api/v1/payments/${paymentId}/complete`, { code });
}

Deno.test("[payments] create prices the offer and writes payment.created", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app, { amount: 1250, currency: "EUR" });
    const response = await app.request("POST", "/api/v1/payments", {
      qrId: offer.qrId,
      quantity: 3,
      customer: { email: "Ada@Example.com", name: "Ada" },
      successUrl: "https://shop.example/thanks",
      cancelUrl: "https://shop.example/cart",
      expiresInMinutes: 15,
      metadata: { orderId: "A-1" },
      locale: "pl",
    });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get("content-type"), "application/json");
    const payment = Payment.parse(await response.json());
    assert.match(payment.paymentId, /^pay_[0-9A-Za-z]{30}$/);
    assert.deepEqual(payment, {
      paymentId: payment.paymentId,
      qrId: offer.qrId,
      status: "PENDING",
      amount: 3750,
      currency: "EUR",
      quantity: 3,
      amountRefunded: 0,
      customer: { email: "ada@example.com", name: "Ada" },
      paymentUrl: `http://sandbox.test/pay/${payment.paymentId}`,
      successUrl: "https://shop.example/thanks",
      cancelUrl: "https://shop.example/cart",
      expiresAt: "2026-11-21T10:15:00.000Z",
      failureCode: null,
      metadata: { orderId: "A-1" },
      invoiceRequest: null,
      createdAt: "2026-11-21T10:00:00.000Z",
      updatedAt: "2026-11-21T10:00:00.000Z",
      version: 1,
      locale: "pl",
      paymentMethods: null,
      paymentMethod: null,
      bank: null,
      provider: null,
    });
    const [created] = await events(app);
    assert.match(created.id, /^evt_[0-9A-Za-z]{30}$/);
    assert.deepEqual(created, {
      id: created.id,
      type: "payment.created",
      createdAt: "2026-11-21T10:00:00.000Z",
      environment: "sandbox",
      data: payment,
    });
    const fetched = await app.request("GET", `/api/v1/payments/${payment.paymentId}`);
    assert.deepEqual(await fetched.json(), payment);
  } finally {
    await app.close();
  }
});

Deno.test("[payments] POST /payments is the same operation with defaults", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const response = await app.request("POST", "/payments", { qrId: offer.qrId });
    assert.equal(response.status, 201);
    const payment = Payment.parse(await response.json());
    assert.equal(payment.amount, 1250);
    assert.equal(payment.quantity, 1);
    assert.equal(payment.expiresAt, "2026-11-21T10:30:00.000Z");
    assert.deepEqual(payment.customer, { email: null, name: null });
    assert.equal(payment.successUrl, null);
    const list = await (await app.request("GET", "/api/v1/payments")).json();
    assert.deepEqual(list.data.map((p: Payment) => p.paymentId), [payment.paymentId]);
  } finally {
    await app.close();
  }
});

Deno.test("[payments] invalid creates are refused and change nothing", async (t) => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const cases: [string, Record<string, unknown>, number, string, string][] = [
      [
        "unknown offer",
        { qrId: "qr_nope" },
        404,
        "resource_not_found",
        "No offer with id 'qr_nope'.",
      ],
      [
        "quantity 0",
        { qrId: offer.qrId, quantity: 0 },
        400,
        "parameter_invalid",
        "'quantity': Too small: expected number to be >=1.",
      ],
      [
        "expiry too long",
        { qrId: offer.qrId, expiresInMinutes: 1441 },
        400,
        "parameter_invalid",
        "'expiresInMinutes': Too big: expected number to be <=1440.",
      ],
      [
        "bad success URL",
        { qrId: offer.qrId, successUrl: "thanks.html" },
        400,
        "parameter_invalid",
        "'successUrl': must be an absolute http:// or https:// URL.",
      ],
      [
        "bad e-mail",
        { qrId: offer.qrId, customer: { email: "nope" } },
        400,
        "parameter_invalid",
        "'customer.email': Invalid email address.",
      ],
      [
        "unknown customer field",
        { qrId: offer.qrId, customer: { phone: "1" } },
        400,
        "parameter_unknown",
        "Unknown field 'customer.phone'.",
      ],
      ["missing qrId", {}, 400, "parameter_missing", "Missing required field 'qrId'."],
    ];
    for (const [name, body, status, code, message] of cases) {
      await t.step(name, async () => {
        await expectError(
          await app.request("POST", "/api/v1/payments", body),
          status,
          status === 404 ? "not_found" : "invalid_request",
          code,
          message,
        );
      });
    }
    assert.deepEqual(await (await app.request("GET", "/api/v1/payments")).json(), {
      data: [],
      hasMore: false,
    });
    assert.deepEqual(await events(app), []);
  } finally {
    await app.close();
  }
});

Deno.test("[payments] production requires https redirect URLs", async () => {
  const app = await makeTestApp({ environment: "production" });
  try {
    const offer = await createTestOffer(app);
    await expectError(
      await app.request("POST", "/api/v1/payments", {
        qrId: offer.qrId,
        successUrl: "http://shop.example/ok",
      }),
      400,
      "invalid_request",
      "parameter_invalid",
      "successUrl must be an https:// URL in production.",
    );
    const ok = await app.request("POST", "/api/v1/payments", {
      qrId: offer.qrId,
      successUrl: "https://shop.example/ok",
    });
    assert.equal(ok.status, 201);
    assert.equal(
      (await ok.json()).paymentUrl.startsWith("https://api.paystead.test/pay/pay_"),
      true,
    );
  } finally {
    await app.close();
  }
});

const TEST_CODES: [string, string, string | null][] = [
  ["777123", "SUCCEEDED", null],
  ["777000", "SUCCEEDED", null],
  ["777999", "SUCCEEDED", null],
  ["500500", "FAILED", "declined"],
  ["700701", "FAILED", "code_expired"],
  ["700702", "FAILED", "code_canceled"],
  ["700703", "FAILED", "code_already_used"],
  ["123456", "FAILED", "invalid_code"],
  ["776123", "FAILED", "invalid_code"],
  ["000000", "FAILED", "invalid_code"],
];

Deno.test("[payments] the sandbox test-code table, row by row", async (t) => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    for (const [code, status, failureCode] of TEST_CODES) {
      await t.step(`${code} -> ${status}${failureCode ? ` (${failureCode})` : ""}`, async () => {
        const payment = await createTestPayment(app, offer.qrId);
        app.clock.advance(1000);
        const response = await complete(app, payment.paymentId, code);
        assert.equal(response.status, 200);
        const body = Payment.parse(await response.json());
        assert.equal(body.status, status);
        assert.equal(body.failureCode, failureCode);
        assert.equal(body.updatedAt, new Date(app.clock.now()).toISOString());
        const mine = (await events(app)).filter((event) =>
          event.data.paymentId === payment.paymentId
        );
        assert.deepEqual(mine.map((event) => event.type), [
          "payment.created",
          "payment.processing",
          status === "SUCCEEDED" ? "payment.succeeded" : "payment.failed",
        ]);
        assert.equal(mine[1].data.status, "PROCESSING");
        assert.equal(mine[1].data.failureCode, null);
        assert.deepEqual(mine[2].data, body);
        await expectError(
          await complete(app, payment.paymentId, "777123"),
          409,
          "conflict",
          "payment_already_final",
          `The payment '${payment.paymentId}' is already ${status}; a final payment never changes.`,
        );
      });
    }
  } finally {
    await app.close();
  }
});

Deno.test("[payments] 600600 stays PROCESSING, then fails with timeout after the delay", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const payment = await createTestPayment(app, offer.qrId);
    const response = await complete(app, payment.paymentId, "600600");
    assert.equal(response.status, 200);
    assert.equal((await response.json()).status, "PROCESSING");
    await expectError(
      await complete(app, payment.paymentId, "777123"),
      409,
      "conflict",
      "payment_processing",
      `The payment '${payment.paymentId}' is being processed; wait for its result.`,
    );
    await expectError(
      await app.request("POST", `/api/v1/payments/${payment.paymentId}/cancel`),
      409,
      "conflict",
      "payment_processing",
    );

    app.clock.advance(9_999);
    await app.services.scheduler.runAll();
    assert.equal(
      (await (await app.request("GET", `/api/v1/payments/${payment.paymentId}`)).json()).status,
      "PROCESSING",
    );

    app.clock.advance(1);
    await app.services.scheduler.runAll();
    const failed = Payment.parse(
      await (await app.request("GET", `/api/v1/payments/${payment.paymentId}`)).json(),
    );
    assert.equal(failed.status, "FAILED");
    assert.equal(failed.failureCode, "timeout");
    assert.equal(failed.updatedAt, "2026-11-21T10:00:10.000Z");
    const types = (await events(app)).map((event) => event.type);
    assert.deepEqual(types, ["payment.created", "payment.processing", "payment.failed"]);
    assert.deepEqual((await events(app))[2].data, failed);
  } finally {
    await app.close();
  }
});

Deno.test("[payments] a code that is not 6 digits is 400 and changes nothing", async (t) => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const payment = await createTestPayment(app, offer.qrId);
    for (const code of ["77712", "7771234", "77712a", " 777123", 777123, null]) {
      await t.step(JSON.stringify(code), async () => {
        const error = await expectError(
          await complete(app, payment.paymentId, code),
          400,
          "invalid_request",
          "parameter_invalid",
        );
        assert.equal(error.error.param, "code");
      });
    }
    await expectError(
      await app.request("POST", `/api/v1/payments/${payment.paymentId}/complete`, {}),
      400,
      "invalid_request",
      "parameter_missing",
      "Missing required field 'code'.",
    );
    const after = await (await app.request("GET", `/api/v1/payments/${payment.paymentId}`)).json();
    assert.equal(after.status, "PENDING");
    assert.deepEqual((await events(app)).map((event) => event.type), ["payment.created"]);
  } finally {
    await app.close();
  }
});

Deno.test("[payments] complete is sandbox only", async () => {
  const app = await makeTestApp({ environment: "production" });
  try {
    const offer = await createTestOffer(app);
    const payment = await createTestPayment(app, offer.qrId);
    await expectError(
      await complete(app, payment.paymentId, "777123"),
      403,
      "permission",
      "sandbox_only",
      "This operation exists only in the sandbox; call it on the sandbox API host (http://sandbox.test).",
    );
    assert.equal(
      (await (await app.request("GET", `/api/v1/payments/${payment.paymentId}`)).json()).status,
      "PENDING",
    );
  } finally {
    await app.close();
  }
});

Deno.test("[payments] cancel moves a pending payment to CANCELED once", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const payment = await createTestPayment(app, offer.qrId);
    app.clock.advance(5000);
    const response = await app.request("POST", `/api/v1/payments/${payment.paymentId}/cancel`);
    assert.equal(response.status, 200);
    const canceled = Payment.parse(await response.json());
    assert.equal(canceled.status, "CANCELED");
    assert.equal(canceled.updatedAt, "2026-11-21T10:00:05.000Z");
    assert.deepEqual((await events(app)).map((event) => event.type), [
      "payment.created",
      "payment.canceled",
    ]);
    await expectError(
      await app.request("POST", `/api/v1/payments/${payment.paymentId}/cancel`),
      409,
      "conflict",
      "payment_already_final",
      `The payment '${payment.paymentId}' is already CANCELED; a final payment never changes.`,
    );
    await expectError(
      await app.request("POST", `/api/v1/payments/${payment.paymentId}/cancel`, { reason: "x" }),
      400,
      "invalid_request",
      "parameter_unknown",
      "Unknown field 'reason'.",
    );
    await expectError(
      await app.request("POST", "/api/v1/payments/pay_nope/cancel"),
      404,
      "not_found",
      "resource_not_found",
      "No payment with id 'pay_nope'.",
    );
  } finally {
    await app.close();
  }
});

Deno.test("[payments] an unpaid payment expires at expiresAt", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const payment = await createTestPayment(app, offer.qrId, { expiresInMinutes: 1 });
    app.clock.advance(60_000);
    await expectError(
      await complete(app, payment.paymentId, "777123"),
      409,
      "conflict",
      "payment_expired",
      `The payment '${payment.paymentId}' expired at 2026-11-21T10:01:00.000Z.`,
    );
    await app.services.scheduler.runDue();
    const expired = Payment.parse(
      await (await app.request("GET", `/api/v1/payments/${payment.paymentId}`)).json(),
    );
    assert.equal(expired.status, "EXPIRED");
    assert.equal(expired.updatedAt, "2026-11-21T10:01:00.000Z");
    const all = await events(app);
    assert.deepEqual(all.map((event) => event.type), ["payment.created", "payment.expired"]);
    assert.deepEqual(all[1].data, expired);
    await expectError(
      await complete(app, payment.paymentId, "777123"),
      409,
      "conflict",
      "payment_already_final",
    );
  } finally {
    await app.close();
  }
});

Deno.test("[payments] a payment past its expiresAt cannot be canceled, even before the sweep", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const payment = await createTestPayment(app, offer.qrId, { expiresInMinutes: 1 });
    app.clock.advance(60_000);
    await expectError(
      await app.request("POST", `/api/v1/payments/${payment.paymentId}/cancel`),
      409,
      "conflict",
      "payment_expired",
      `The payment '${payment.paymentId}' expired at 2026-11-21T10:01:00.000Z.`,
    );
    assert.deepEqual((await events(app)).map((event) => event.type), ["payment.created"]);
    await app.services.scheduler.runDue();
    const expired = Payment.parse(
      await (await app.request("GET", `/api/v1/payments/${payment.paymentId}`)).json(),
    );
    assert.equal(expired.status, "EXPIRED");
    assert.deepEqual((await events(app)).map((event) => event.type), [
      "payment.created",
      "payment.expired",
    ]);
  } finally {
    await app.close();
  }
});

Deno.test("[payments] of two concurrent completes one wins and the other is 409", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const payment = await createTestPayment(app, offer.qrId);
    const responses = await Promise.all([
      complete(app, payment.paymentId, "777123"),
      complete(app, payment.paymentId, "500500"),
    ]);
    const statuses = responses.map((response) => response.status).sort();
    assert.deepEqual(statuses, [200, 409]);
    const types = (await events(app)).map((event) => event.type);
    assert.equal(types.length, 3);
    assert.deepEqual(types.slice(0, 2), ["payment.created", "payment.processing"]);
  } finally {
    await app.close();
  }
});

Deno.test("[payments] lists filter by status and offer and paginate", async () => {
  const app = await makeTestApp();
  try {
    const coffee = await createTestOffer(app);
    const tea = await createTestOffer(app, { name: "Tea" });
    const a = await createTestPayment(app, coffee.qrId);
    const b = await createTestPayment(app, tea.qrId);
    const c = await createTestPayment(app, coffee.qrId);
    await complete(app, a.paymentId, "777123");
    const ids = async (query: string) =>
      (await (await app.request("GET", `/api/v1/payments${query}`)).json()).data.map((p: Payment) =>
        p.paymentId
      );
    assert.deepEqual(await ids(""), [c.paymentId, b.paymentId, a.paymentId]);
    assert.deepEqual(await ids("?status=SUCCEEDED"), [a.paymentId]);
    assert.deepEqual(await ids("?status=PENDING"), [c.paymentId, b.paymentId]);
    assert.deepEqual(await ids(`?qrId=${coffee.qrId}`), [c.paymentId, a.paymentId]);
    assert.deepEqual(await ids(`?qrId=${coffee.qrId}&status=PENDING`), [c.paymentId]);
    assert.deepEqual(await ids(`?limit=1&startingAfter=${c.paymentId}`), [b.paymentId]);
    await expectError(
      await app.request("GET", "/api/v1/payments?status=DONE"),
      400,
      "invalid_request",
      "parameter_invalid",
    );
  } finally {
    await app.close();
  }
});
