import assert from "node:assert/strict";
import {
  createTestOffer,
  createTestPayment,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";
import {
  eventsOf,
  getJson,
  otherOrganisation,
  paidPayment,
  RecordingProvider,
  secondProcess,
} from "./support/billing_helpers.ts";

const START = "2026-11-21T10:00:00.000Z";
const REFUND_ID = /^re_[0-9A-Za-z]{30}$/;

async function refund(
  t: TestApp,
  paymentId: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<{ status: number; contentType: string | null; body: Record<string, unknown> }> {
  const response = await t.request("POST", `/api/v1/payments/${paymentId}/refunds`, body, headers);
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: await response.json(),
  };
}

function errorOf(body: Record<string, unknown>) {
  const { requestId, ...rest } = body.error as Record<string, unknown>;
  assert.match(String(requestId), /^req_/);
  return rest;
}

Deno.test("[refunds] a partial refund reserves its amount, then succeeds with its events", async () => {
  const t = await makeTestApp();
  try {
    const payment = await paidPayment(t, { amount: 5000 });
    const created = await refund(t, payment.paymentId, { amount: 1200, reason: "Damaged box" });
    assert.equal(created.status, 201);
    assert.equal(created.contentType, "application/json");
    assert.match(String(created.body.refundId), REFUND_ID);
    const pending = {
      refundId: created.body.refundId,
      paymentId: payment.paymentId,
      amount: 1200,
      currency: "PLN",
      status: "PENDING",
      reason: "Damaged box",
      failureCode: null,
      createdAt: START,
      updatedAt: START,
      version: 1,
    };
    assert.deepEqual(created.body, pending);
    // NOTE: a pending refund already counts, so nothing can be refunded twice meanwhile.
    assert.equal((await getJson(t, `/api/v1/payments/${payment.paymentId}`)).amountRefunded, 1200);

    t.clock.advance(1000);
    await t.services.scheduler.runDue();
    const succeeded = {
      ...pending,
      status: "SUCCEEDED",
      updatedAt: "2026-11-21T10:00:01.000Z",
      version: 2,
    };
    assert.deepEqual(await getJson(t, `/api/v1/refunds/${created.body.refundId}`), succeeded);
    assert.equal((await getJson(t, `/api/v1/payments/${payment.paymentId}`)).amountRefunded, 1200);

    const [createdEvent] = await eventsOf(t, "refund.created");
    const [succeededEvent] = await eventsOf(t, "refund.succeeded");
    assert.equal(createdEvent.createdAt, START);
    assert.deepEqual(createdEvent.data, pending);
    assert.equal(succeededEvent.createdAt, "2026-11-21T10:00:01.000Z");
    assert.deepEqual(succeededEvent.data, succeeded);
    assert.deepEqual(await eventsOf(t, "refund.failed"), []);
  } finally {
    await t.close();
  }
});

Deno.test("[refunds] without an amount the rest is refunded, then nothing is left", async () => {
  const t = await makeTestApp();
  try {
    const payment = await paidPayment(t, { amount: 5000 });
    assert.equal((await refund(t, payment.paymentId, { amount: 1000 })).status, 201);
    const rest = await refund(t, payment.paymentId);
    assert.equal(rest.status, 201);
    assert.equal(rest.body.amount, 4000);
    assert.equal(rest.body.reason, null);
    assert.equal((await getJson(t, `/api/v1/payments/${payment.paymentId}`)).amountRefunded, 5000);

    const again = await refund(t, payment.paymentId, {});
    assert.equal(again.status, 400);
    assert.equal(again.contentType, "application/json");
    assert.deepEqual(errorOf(again.body), {
      type: "invalid_request",
      code: "refund_exceeds_payment",
      message: `The payment '${payment.paymentId}' is already refunded in full ` +
        "(pending refunds count).",
    });
    await t.services.scheduler.runDue();
    const payments = await getJson(t, `/api/v1/payments/${payment.paymentId}`);
    assert.equal(payments.amountRefunded, 5000);
    assert.equal(payments.status, "SUCCEEDED");
  } finally {
    await t.close();
  }
});

Deno.test("[refunds] refunding more than is left is 400 and changes nothing", async () => {
  const t = await makeTestApp();
  try {
    const payment = await paidPayment(t, { amount: 5000 });
    assert.equal((await refund(t, payment.paymentId, { amount: 4000 })).status, 201);
    const over = await refund(t, payment.paymentId, { amount: 1001 });
    assert.equal(over.status, 400);
    assert.equal(over.contentType, "application/json");
    assert.deepEqual(errorOf(over.body), {
      type: "invalid_request",
      code: "refund_exceeds_payment",
      message: `Refunding 1001 would exceed the payment '${payment.paymentId}': 1000 of its ` +
        "5000 PLN is left to refund (pending refunds count).",
      param: "amount",
    });
    const invalid = await refund(t, payment.paymentId, { amount: 0 });
    assert.equal(invalid.status, 400);
    assert.equal((invalid.body.error as Record<string, unknown>).param, "amount");
    const unknown = await refund(t, payment.paymentId, { amount: 10, note: "x" });
    assert.equal(unknown.status, 400);
    assert.equal((unknown.body.error as Record<string, unknown>).code, "parameter_unknown");

    assert.equal((await getJson(t, `/api/v1/payments/${payment.paymentId}`)).amountRefunded, 4000);
    const list = await getJson(t, `/api/v1/payments/${payment.paymentId}/refunds`);
    assert.equal((list.data as unknown[]).length, 1);
    assert.equal((await eventsOf(t, "refund.created")).length, 1);
    // The exact rest is still refundable.
    assert.equal((await refund(t, payment.paymentId, { amount: 1000 })).status, 201);
  } finally {
    await t.close();
  }
});

Deno.test("[refunds] a declined refund fails and gives its amount back", async () => {
  const t = await makeTestApp();
  try {
    const payment = await paidPayment(t, { amount: 5000 });
    const created = await refund(t, payment.paymentId, { amount: 1099 });
    assert.equal(created.status, 201);
    assert.equal((await getJson(t, `/api/v1/payments/${payment.paymentId}`)).amountRefunded, 1099);
    await t.services.scheduler.runDue();

    const failed = {
      ...created.body,
      status: "FAILED",
      failureCode: "declined",
      version: 2,
    };
    assert.deepEqual(await getJson(t, `/api/v1/refunds/${created.body.refundId}`), failed);
    assert.equal((await getJson(t, `/api/v1/payments/${payment.paymentId}`)).amountRefunded, 0);
    const events = await eventsOf(t, "refund.failed");
    assert.equal(events.length, 1);
    assert.deepEqual(events[0].data, failed);
    assert.deepEqual(await eventsOf(t, "refund.succeeded"), []);

    // What the failure gave back can be refunded again, in full.
    const full = await refund(t, payment.paymentId);
    assert.equal(full.body.amount, 5000);
    await t.services.scheduler.runDue();
    assert.equal((await getJson(t, `/api/v1/refunds/${full.body.refundId}`)).status, "SUCCEEDED");
    assert.equal((await getJson(t, `/api/v1/payments/${payment.paymentId}`)).amountRefunded, 5000);
  } finally {
    await t.close();
  }
});

Deno.test("[refunds] only a SUCCEEDED payment can be refunded", async (t) => {
  const app = await makeTestApp();
  try {
    const { qrId } = await createTestOffer(app);
    await t.step("PENDING", async () => {
      const { paymentId } = await createTestPayment(app, qrId);
      const response = await refund(app, paymentId, { amount: 100 });
      assert.equal(response.status, 409);
      assert.deepEqual(errorOf(response.body), {
        type: "conflict",
        code: "payment_not_succeeded",
        message: `The payment '${paymentId}' is PENDING; only a SUCCEEDED payment can be refunded.`,
      });
    });
    await t.step("FAILED", async () => {
      const { paymentId } = await createTestPayment(app, qrId);
      await app.request("POST", `/api/v1/payments/${paymentId}/complete`, { code: "500500" });
      const response = await refund(app, paymentId);
      assert.equal(response.status, 409);
      assert.equal((response.body.error as Record<string, unknown>).code, "payment_not_succeeded");
    });
    assert.deepEqual(await eventsOf(app, "refund.created"), []);
  } finally {
    await app.close();
  }
});

Deno.test("[refunds] another organisation's payments and refunds are 404", async () => {
  const t = await makeTestApp();
  try {
    const payment = await paidPayment(t);
    const created = await refund(t, payment.paymentId, { amount: 100 });
    const other = await otherOrganisation(t);
    const refundResponse = await other.request(
      "POST",
      `/api/v1/payments/${payment.paymentId}/refunds`,
      { amount: 100 },
    );
    assert.equal(refundResponse.status, 404);
    assert.equal((await refundResponse.json()).error.code, "resource_not_found");
    const get = await other.request("GET", `/api/v1/refunds/${created.body.refundId}`);
    assert.equal(get.status, 404);
    const list = await other.request("GET", `/api/v1/payments/${payment.paymentId}/refunds`);
    assert.equal(list.status, 404);
    assert.equal((await getJson(t, `/api/v1/payments/${payment.paymentId}`)).amountRefunded, 100);
  } finally {
    await t.close();
  }
});

Deno.test("[refunds] 50 concurrent refunds never add up beyond the payment", async (t) => {
  for (const idempotent of [true, false]) {
    await t.step(idempotent ? "with Idempotency-Keys" : "without keys", async () => {
      const app = await makeTestApp();
      try {
        const payment = await paidPayment(app, { amount: 1000 });
        const responses = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            refund(
              app,
              payment.paymentId,
              { amount: 30 },
              idempotent ? { "idempotency-key": `refund-${i}` } : {},
            )),
        );
        const created = responses.filter((response) => response.status === 201);
        const refused = responses.filter((response) => response.status === 400);
        assert.equal(created.length, 33);
        assert.equal(refused.length, 17);
        for (const response of refused) {
          assert.equal(
            (response.body.error as Record<string, unknown>).code,
            "refund_exceeds_payment",
          );
        }
        const paymentPath = `/api/v1/payments/${payment.paymentId}`;
        assert.equal((await getJson(app, paymentPath)).amountRefunded, 990);

        await app.services.scheduler.runDue();
        assert.equal((await getJson(app, paymentPath)).amountRefunded, 990);
        const listed = await getJson(app, `${paymentPath}/refunds?limit=100`);
        const refunds = listed.data as { amount: number; status: string }[];
        assert.equal(refunds.length, 33);
        assert.equal(refunds.reduce((sum, item) => sum + item.amount, 0), 990);
        assert.ok(refunds.every((item) => item.status === "SUCCEEDED"));
        assert.equal((await eventsOf(app, "refund.created")).length, 33);
        assert.equal((await eventsOf(app, "refund.succeeded")).length, 33);
      } finally {
        await app.close();
      }
    });
  }
});

Deno.test("[refunds] the same Idempotency-Key replays the refund instead of refunding twice", async () => {
  const t = await makeTestApp();
  try {
    const payment = await paidPayment(t, { amount: 5000 });
    const key = { "idempotency-key": "refund-order-17" };
    const first = await t.request(
      "POST",
      `/api/v1/payments/${payment.paymentId}/refunds`,
      { amount: 700 },
      key,
    );
    const second = await t.request(
      "POST",
      `/api/v1/payments/${payment.paymentId}/refunds`,
      { amount: 700 },
      key,
    );
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.equal(second.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(await second.json(), await first.json());
    assert.equal((await getJson(t, `/api/v1/payments/${payment.paymentId}`)).amountRefunded, 700);
    assert.equal((await eventsOf(t, "refund.created")).length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("[refunds] get, and list per payment newest first with pages", async () => {
  const t = await makeTestApp();
  try {
    const payment = await paidPayment(t, { amount: 5000 });
    const ids: string[] = [];
    for (const amount of [100, 200, 300]) {
      ids.push(String((await refund(t, payment.paymentId, { amount })).body.refundId));
    }
    const path = `/api/v1/payments/${payment.paymentId}/refunds`;
    const page = await getJson(t, `${path}?limit=2`);
    assert.deepEqual((page.data as { refundId: string }[]).map((item) => item.refundId), [
      ids[2],
      ids[1],
    ]);
    assert.equal(page.hasMore, true);
    const next = await getJson(t, `${path}?limit=2&startingAfter=${ids[1]}`);
    assert.deepEqual((next.data as { refundId: string }[]).map((item) => item.refundId), [ids[0]]);
    assert.equal(next.hasMore, false);

    const otherPayment = await paidPayment(t);
    const foreignCursor = await t.request(
      "GET",
      `/api/v1/payments/${otherPayment.paymentId}/refunds?startingAfter=${ids[0]}`,
    );
    assert.equal(foreignCursor.status, 400);
    const missing = await t.request("GET", "/api/v1/refunds/re_000000000000000000000000");
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error.param, "refundId");
  } finally {
    await t.close();
  }
});

Deno.test("[refunds] a lost provider answer is asked again under the same key, never refunded twice", async () => {
  const provider = new RecordingProvider();
  const t = await makeTestApp({ provider });
  try {
    const payment = await paidPayment(t, { amount: 5000 });
    const created = await refund(t, payment.paymentId, { amount: 2500 });
    provider.failNext("lose-answer");
    await t.services.scheduler.runDue();
    assert.equal((await getJson(t, `/api/v1/refunds/${created.body.refundId}`)).status, "PENDING");

    // Retried only once the claim's lease ran out.
    t.clock.advance(30_000);
    await t.services.scheduler.runDue();
    assert.equal(provider.calls.length, 1);
    t.clock.advance(30_000);
    await t.services.scheduler.runDue();

    assert.deepEqual(provider.calls, [created.body.refundId, created.body.refundId]);
    assert.equal(provider.carriedOut.length, 1);
    assert.equal(
      (await getJson(t, `/api/v1/refunds/${created.body.refundId}`)).status,
      "SUCCEEDED",
    );
    assert.equal((await getJson(t, `/api/v1/payments/${payment.paymentId}`)).amountRefunded, 2500);
    assert.equal((await eventsOf(t, "refund.succeeded")).length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("[refunds] a process that dies mid-refund is taken over by another, never refunded twice", async () => {
  const provider = new RecordingProvider();
  const t = await makeTestApp({ provider });
  const other = await secondProcess(t, provider);
  try {
    const payment = await paidPayment(t, { amount: 5000 });
    await refund(t, payment.paymentId, { amount: 3000 });
    await t.services.scheduler.runDue();
    const created = await refund(t, payment.paymentId, { amount: 1099 });
    const reached = provider.failNext("hang");
    const stuck = t.services.scheduler.runDue();
    await reached;

    // Within the lease the other process leaves the refund alone.
    await other.services.scheduler.runAll();
    assert.equal(provider.calls.length, 2);
    t.clock.advance(60_000);
    await other.services.scheduler.runAll();
    provider.release();
    await stuck;

    assert.deepEqual(provider.calls.slice(1), [created.body.refundId, created.body.refundId]);
    assert.equal(provider.carriedOut.length, 2);
    const failed = await getJson(t, `/api/v1/refunds/${created.body.refundId}`);
    assert.equal(failed.status, "FAILED");
    // Given back once, although both processes got the answer.
    assert.equal((await getJson(t, `/api/v1/payments/${payment.paymentId}`)).amountRefunded, 3000);
    assert.equal((await eventsOf(t, "refund.failed")).length, 1);
  } finally {
    await other.close();
    await t.close();
  }
});

Deno.test("[refunds] a server sends a refund by itself right after it commits, also under an Idempotency-Key", async (t) => {
  const app = await makeTestApp();
  const server = await secondProcess(app, new RecordingProvider(), { timers: true });
  try {
    const payment = await paidPayment(app, { amount: 5000 });
    for (const headers of [{}, { "idempotency-key": "refund-now" }] as Record<string, string>[]) {
      await t.step(Object.keys(headers).length === 0 ? "plain" : "idempotent", async () => {
        const response = await server.app.request(`/api/v1/payments/${payment.paymentId}/refunds`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${app.apiKey}`,
            "content-type": "application/json",
            ...headers,
          },
          body: JSON.stringify({ amount: 100 }),
        });
        assert.equal(response.status, 201);
        const { refundId } = await response.json();
        let status = "PENDING";
        for (let tries = 0; status === "PENDING" && tries < 100; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          status = String((await getJson(app, `/api/v1/refunds/${refundId}`)).status);
        }
        assert.equal(status, "SUCCEEDED");
      });
    }
  } finally {
    await server.close();
    await app.close();
  }
});

Deno.test("[refunds] refunds are in the OpenAPI document", async () => {
  const t = await makeTestApp();
  try {
    const document = await getJson(t, "/api/v1/openapi.json");
    const paths = document.paths as Record<string, Record<string, { operationId: string }>>;
    assert.equal(paths["/api/v1/payments/{paymentId}/refunds"].post.operationId, "createRefund");
    assert.equal(
      paths["/api/v1/payments/{paymentId}/refunds"].get.operationId,
      "listPaymentRefunds",
    );
    assert.equal(paths["/api/v1/refunds/{refundId}"].get.operationId, "getRefund");
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    assert.ok(schemas.Refund && schemas.CreateRefundRequest && schemas.RefundList);
  } finally {
    await t.close();
  }
});
