import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { verifyWebhook } from "../examples/verify_webhook.ts";
import { createTestOffer, createTestPayment, makeTestApp, type TestApp } from "./helpers.ts";
import {
  advanceAndRun,
  createTestEndpoint,
  deliveriesOf,
  startReceiver,
} from "./webhook_receiver.ts";

/** Retry jitter pinned to its middle, so scheduled times are exact. */
const NO_JITTER = { random: () => 0.5 };

async function storedPayload(t: TestApp, eventId: string): Promise<string> {
  const row = await t.store.db.selectFrom("events").select("payload")
    .where("public_id", "=", eventId).executeTakeFirstOrThrow();
  return row.payload;
}

async function newPaymentEvent(t: TestApp): Promise<string> {
  const offer = await createTestOffer(t);
  const payment = await createTestPayment(t, offer.qrId);
  await t.webhooks.idle();
  const row = await t.store.db.selectFrom("events").select("public_id")
    .where("type", "=", "payment.created").where("payload", "like", `%${payment.paymentId}%`)
    .executeTakeFirstOrThrow();
  return row.public_id;
}

Deno.test("[webhooks] a delivery is the event's stored bytes, signed the Standard Webhooks way", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  try {
    // standardwebhooks checks the timestamp against the real clock.
    t.clock.advance(Date.now() - t.clock.now());
    const endpoint = await createTestEndpoint(t, { url: receiver.url });
    const eventId = await newPaymentEvent(t);

    assert.equal(receiver.received.length, 1);
    const [request] = receiver.received;
    assert.equal(request.path, "/hook");
    assert.equal(request.body, await storedPayload(t, eventId));
    assert.equal(request.headers.get("content-type"), "application/json");
    assert.equal(request.headers.get("webhook-id"), eventId);
    assert.equal(
      request.headers.get("webhook-timestamp"),
      String(Math.floor(t.clock.now() / 1000)),
    );
    assert.match(request.headers.get("webhook-signature")!, /^v1,[A-Za-z0-9+/]{43}=$/);

    const headers = Object.fromEntries(request.headers);
    const verified = new Webhook(endpoint.secret).verify(request.body, headers) as Record<
      string,
      unknown
    >;
    assert.equal(verified.id, eventId);
    assert.equal(verified.type, "payment.created");
    assert.equal(verified.environment, "sandbox");
    const ours = await verifyWebhook<{ id: string }>(
      request.body,
      request.headers,
      endpoint.secret,
    );
    assert.equal(ours.id, eventId);
    assert.throws(
      () => new Webhook(endpoint.secret).verify(request.body + " ", headers),
      /No matching signature/,
    );

    const [delivery] = await deliveriesOf(t, eventId);
    assert.equal(delivery.status, "SUCCEEDED");
    assert.equal(delivery.trigger, "EVENT");
    assert.equal(delivery.endpointId, endpoint.id);
    assert.equal(delivery.attemptCount, 1);
    assert.equal(delivery.nextAttemptAt, null);
    const [attempt] = delivery.attempts as Record<string, unknown>[];
    assert.deepEqual({ ...attempt, durationMs: 0 }, {
      number: 1,
      url: receiver.url,
      startedAt: new Date(t.clock.now()).toISOString(),
      durationMs: 0,
      succeeded: true,
      responseStatus: 200,
      responseBody: "ok",
      errorCode: null,
      errorMessage: null,
    });
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] during a rotation each delivery is signed with both secrets", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  try {
    t.clock.advance(Date.now() - t.clock.now());
    const endpoint = await createTestEndpoint(t, { url: receiver.url });
    const rotated = await (await t.request(
      "POST",
      `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`,
    )).json();
    await newPaymentEvent(t);
    const during = receiver.received.at(-1)!;
    const signatures = during.headers.get("webhook-signature")!.split(" ");
    assert.equal(signatures.length, 2);
    const headers = Object.fromEntries(during.headers);
    // A receiver holding either secret accepts it.
    new Webhook(endpoint.secret).verify(during.body, headers);
    new Webhook(rotated.secret).verify(during.body, headers);

    t.clock.advance(24 * 3_600_000);
    await newPaymentEvent(t);
    const after = receiver.received.at(-1)!;
    assert.equal(after.headers.get("webhook-signature")!.split(" ").length, 1);
    await verifyWebhook(after.body, after.headers, rotated.secret, { now: t.clock.now() });
    await assert.rejects(
      verifyWebhook(after.body, after.headers, endpoint.secret, { now: t.clock.now() }),
      /No webhook-signature matches/,
    );
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] failures are retried on the schedule, then the delivery fails", async () => {
  const receiver = startReceiver(() => new Response("boom", { status: 500 }));
  const t = await makeTestApp({
    env: { WEBHOOK_RETRY_SCHEDULE: "0,5s,1m" },
    webhooks: NO_JITTER,
  });
  try {
    await createTestEndpoint(t, { url: receiver.url });
    const eventId = await newPaymentEvent(t);
    const start = t.clock.now();
    let [delivery] = await deliveriesOf(t, eventId);
    assert.equal(delivery.status, "PENDING");
    assert.equal(delivery.attemptCount, 1);
    assert.equal(delivery.nextAttemptAt, new Date(start + 5_000).toISOString());

    await advanceAndRun(t, 4_999);
    assert.equal(receiver.received.length, 1, "not due yet");
    await advanceAndRun(t, 1);
    assert.equal(receiver.received.length, 2);
    [delivery] = await deliveriesOf(t, eventId);
    assert.equal(delivery.nextAttemptAt, new Date(start + 65_000).toISOString());

    await advanceAndRun(t, 60_000);
    assert.equal(receiver.received.length, 3);
    [delivery] = await deliveriesOf(t, eventId);
    assert.equal(delivery.status, "FAILED");
    assert.equal(delivery.attemptCount, 3);
    assert.equal(delivery.nextAttemptAt, null);
    assert.equal(delivery.completedAt, new Date(start + 65_000).toISOString());
    const attempts = delivery.attempts as Record<string, unknown>[];
    assert.deepEqual(attempts.map((a) => a.number), [1, 2, 3]);
    for (const attempt of attempts) {
      assert.equal(attempt.succeeded, false);
      assert.equal(attempt.responseStatus, 500);
      assert.equal(attempt.responseBody, "boom");
      assert.equal(attempt.errorCode, "http_status");
    }
    // Every retry carries the same webhook-id.
    assert.deepEqual(
      new Set(receiver.received.map((r) => r.headers.get("webhook-id"))),
      new Set([eventId]),
    );

    await advanceAndRun(t, 3_600_000);
    const ofEvent = receiver.received.filter((r) => r.headers.get("webhook-id") === eventId);
    assert.equal(ofEvent.length, 3, "a failed delivery is not retried");
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] retries get jitter", async () => {
  const receiver = startReceiver(() => new Response("no", { status: 503 }));
  const t = await makeTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: "0,100s" } });
  try {
    await createTestEndpoint(t, { url: receiver.url });
    const delays = [];
    for (let index = 0; index < 8; index++) {
      const eventId = await newPaymentEvent(t);
      const [delivery] = await deliveriesOf(t, eventId);
      delays.push(Date.parse(delivery.nextAttemptAt as string) - t.clock.now());
    }
    for (const delay of delays) assert.ok(delay >= 90_000 && delay <= 110_000, String(delay));
    assert.ok(new Set(delays).size > 1, "not all the same");
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] Retry-After lengthens the wait but never shortens it", async () => {
  let retryAfter = "120";
  const receiver = startReceiver(() =>
    new Response("busy", { status: 429, headers: { "retry-after": retryAfter } })
  );
  const t = await makeTestApp({
    env: { WEBHOOK_RETRY_SCHEDULE: "0,5s,10m" },
    webhooks: NO_JITTER,
  });
  try {
    await createTestEndpoint(t, { url: receiver.url });
    const eventId = await newPaymentEvent(t);
    let [delivery] = await deliveriesOf(t, eventId);
    assert.equal(delivery.nextAttemptAt, new Date(t.clock.now() + 120_000).toISOString());

    retryAfter = "1";
    await advanceAndRun(t, 120_000);
    [delivery] = await deliveriesOf(t, eventId);
    assert.equal(delivery.attemptCount, 2);
    assert.equal(delivery.nextAttemptAt, new Date(t.clock.now() + 600_000).toISOString());
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] a redirect is a failure and is not followed", async () => {
  const receiver = startReceiver((request) =>
    request.path === "/hook"
      ? new Response(null, { status: 302, headers: { location: "/elsewhere" } })
      : new Response("ok")
  );
  const t = await makeTestApp();
  try {
    await createTestEndpoint(t, { url: receiver.url });
    const eventId = await newPaymentEvent(t);
    assert.deepEqual(receiver.received.map((r) => r.path), ["/hook"]);
    const [delivery] = await deliveriesOf(t, eventId);
    const [attempt] = delivery.attempts as Record<string, unknown>[];
    assert.equal(attempt.succeeded, false);
    assert.equal(attempt.responseStatus, 302);
    assert.equal(attempt.errorCode, "redirect");
    assert.match(attempt.errorMessage as string, /redirects are not followed/);
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] only the first 1 KiB of an answer is read", async () => {
  const endless = () =>
    new Response(
      new ReadableStream({
        pull(controller) {
          controller.enqueue(new TextEncoder().encode("x".repeat(4096)));
        },
      }),
    );
  const receiver = startReceiver(endless);
  const t = await makeTestApp();
  try {
    await createTestEndpoint(t, { url: receiver.url });
    const eventId = await newPaymentEvent(t);
    const [delivery] = await deliveriesOf(t, eventId);
    assert.equal(delivery.status, "SUCCEEDED");
    const [attempt] = delivery.attempts as Record<string, unknown>[];
    assert.equal(attempt.responseBody, "x".repeat(1024));
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] an attempt that takes too long fails with timeout", async () => {
  let release!: () => void;
  const hung = new Promise<void>((resolve) => (release = resolve));
  const receiver = startReceiver(async () => {
    await hung;
    return new Response("late");
  });
  const t = await makeTestApp({ webhooks: { attemptTimeoutMs: 200 } });
  try {
    await createTestEndpoint(t, { url: receiver.url });
    const eventId = await newPaymentEvent(t);
    const [delivery] = await deliveriesOf(t, eventId);
    const [attempt] = delivery.attempts as Record<string, unknown>[];
    assert.equal(attempt.errorCode, "timeout");
    assert.equal(attempt.responseStatus, null);
    assert.ok((attempt.durationMs as number) >= 200);
    assert.equal(delivery.status, "PENDING");
  } finally {
    release();
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] a refused connection fails and is retried", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const t = await makeTestApp();
  try {
    await createTestEndpoint(t, { url: `http://127.0.0.1:${port}/hook` });
    const eventId = await newPaymentEvent(t);
    const [delivery] = await deliveriesOf(t, eventId);
    assert.equal(delivery.status, "PENDING");
    const [attempt] = delivery.attempts as Record<string, unknown>[];
    assert.equal(attempt.errorCode, "connection_failed");
    assert.equal(attempt.responseStatus, null);
  } finally {
    await t.close();
  }
});

Deno.test("[webhooks] a 410 disables the endpoint, records it and cancels what was pending", async () => {
  const receiver = startReceiver(() => new Response("down", { status: 500 }));
  const t = await makeTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: "0,1h" } });
  try {
    const endpoint = await createTestEndpoint(t, { url: receiver.url });
    const first = await newPaymentEvent(t);
    assert.equal((await deliveriesOf(t, first))[0].status, "PENDING");

    receiver.answer = () => new Response("gone", { status: 410 });
    t.clock.advance(1000);
    const second = await newPaymentEvent(t);
    const [gone] = await deliveriesOf(t, second);
    assert.equal(gone.status, "FAILED");
    assert.equal((gone.attempts as Record<string, unknown>[])[0].responseStatus, 410);
    const [canceled] = await deliveriesOf(t, first);
    assert.equal(canceled.status, "CANCELED");
    assert.equal(canceled.nextAttemptAt, null);

    const read = await (await t.request("GET", `/api/v1/webhook-endpoints/${endpoint.id}`)).json();
    assert.equal(read.enabled, false);
    assert.equal(read.disabledReason, "GONE");
    assert.equal(read.disabledAt, "2026-11-21T10:00:01.000Z");

    const records = await t.request("GET", `/api/v1/webhook-endpoints/${endpoint.id}/records`);
    assert.equal(records.status, 200);
    assert.equal(records.headers.get("content-type"), "application/json");
    const body = await records.json();
    assert.equal(body.hasMore, false);
    assert.equal(body.data.length, 1);
    const [record] = body.data;
    assert.match(record.id, /^wer_[0-9A-Za-z]{24}$/);
    assert.deepEqual({ ...record, id: "" }, {
      id: "",
      endpointId: endpoint.id,
      type: "webhook_endpoint.disabled",
      reason: "GONE",
      message: `${receiver.url} answered 410 Gone to ${second}, so Paystead stopped sending ` +
        "to it and canceled its pending deliveries.",
      createdAt: "2026-11-21T10:00:01.000Z",
    });

    const before = receiver.received.length;
    const third = await newPaymentEvent(t);
    await advanceAndRun(t, 2 * 3_600_000);
    assert.equal(receiver.received.length, before, "a disabled endpoint gets nothing");
    assert.deepEqual(await deliveriesOf(t, third), []);
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] an endpoint failing for 5 days is disabled; a success resets the count", async () => {
  const receiver = startReceiver(() => new Response("down", { status: 500 }));
  const t = await makeTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: "0" } });
  try {
    const endpoint = await createTestEndpoint(t, { url: receiver.url });
    const day = 24 * 3_600_000;
    await newPaymentEvent(t);
    t.clock.advance(3 * day);
    receiver.answer = () => new Response("ok");
    await newPaymentEvent(t);
    receiver.answer = () => new Response("down", { status: 500 });
    t.clock.advance(1000);
    await newPaymentEvent(t);
    t.clock.advance(4 * day);
    await newPaymentEvent(t);
    let read = await (await t.request("GET", `/api/v1/webhook-endpoints/${endpoint.id}`)).json();
    assert.equal(read.enabled, true, "the success 4 days ago restarted the count");

    t.clock.advance(day - 1);
    await newPaymentEvent(t);
    read = await (await t.request("GET", `/api/v1/webhook-endpoints/${endpoint.id}`)).json();
    assert.equal(read.enabled, true, "one millisecond short of 5 days");

    t.clock.advance(1);
    await newPaymentEvent(t);
    read = await (await t.request("GET", `/api/v1/webhook-endpoints/${endpoint.id}`)).json();
    assert.equal(read.enabled, false);
    assert.equal(read.disabledReason, "FAILING");
    const records = (await (await t.request(
      "GET",
      `/api/v1/webhook-endpoints/${endpoint.id}/records`,
    )).json()).data;
    assert.equal(records.length, 1);
    assert.equal(records[0].reason, "FAILING");
    assert.match(records[0].message, /failed since 2026-11-24T10:00:01\.000Z/);

    const again = await t.request("PATCH", `/api/v1/webhook-endpoints/${endpoint.id}`, {
      enabled: true,
    });
    assert.equal((await again.json()).disabledReason, null);
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] endpoints get the events they subscribe to, recorded while enabled", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  try {
    const offer = await createTestOffer(t);
    const early = await createTestPayment(t, offer.qrId);
    const everything = await createTestEndpoint(t, { url: `${receiver.url}/all` });
    await createTestEndpoint(t, { url: `${receiver.url}/won`, events: ["payment.succeeded"] });
    await createTestEndpoint(t, { url: `${receiver.url}/refunds`, events: ["refund.*"] });
    const payment = await createTestPayment(t, offer.qrId);
    await t.request("POST", `/api/v1/payments/${payment.paymentId}/complete`, { code: "777123" });
    await t.webhooks.idle();

    const typesAt = (path: string, paymentId: string) =>
      receiver.received.filter((r) => r.path === path && r.body.includes(paymentId))
        .map((r) => JSON.parse(r.body).type).sort();
    assert.deepEqual(typesAt("/hook/all", early.paymentId), [], "recorded before registration");
    assert.deepEqual(typesAt("/hook/all", payment.paymentId), [
      "payment.created",
      "payment.processing",
      "payment.succeeded",
    ]);
    assert.deepEqual(typesAt("/hook/won", payment.paymentId), ["payment.succeeded"]);
    assert.deepEqual(typesAt("/hook/refunds", payment.paymentId), []);

    await t.request("PATCH", `/api/v1/webhook-endpoints/${everything.id}`, { enabled: false });
    const whileDisabled = await createTestPayment(t, offer.qrId);
    await t.request("PATCH", `/api/v1/webhook-endpoints/${everything.id}`, { enabled: true });
    const afterEnabling = await createTestPayment(t, offer.qrId);
    await t.webhooks.idle();
    assert.deepEqual(typesAt("/hook/all", whileDisabled.paymentId), []);
    assert.deepEqual(typesAt("/hook/all", afterEnabling.paymentId), ["payment.created"]);
  } finally {
    await t.close();
    await receiver.close();
  }
});
