import assert from "node:assert/strict";
import { WebhookDispatcher } from "../lib/webhooks/delivery/dispatcher.ts";
import { type AttemptBudget, planClaims } from "../lib/webhooks/delivery/claim.ts";
import { planFanOut } from "../lib/webhooks/delivery/fan_out.ts";
import { planRecording } from "../lib/webhooks/delivery/outcomes.ts";
import {
  createTestOffer,
  createTestPayment,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";
import {
  advanceAndRun,
  createTestEndpoint,
  deliveriesOf,
  startReceiver,
  type TestReceiver,
  writtenPlan,
} from "./support/webhook_receiver.ts";

const LEASE_MS = 10_000;
const NO_JITTER = { random: () => 0.5 };
const ROOMY: AttemptBudget = { remaining: () => 10, capacityOf: () => 10, take: () => {} };

async function newPaymentEvent(t: TestApp): Promise<string> {
  const offer = await createTestOffer(t);
  const payment = await createTestPayment(t, offer.qrId);
  const row = await t.store.db.selectFrom("events").select("public_id")
    .where("type", "=", "payment.created").where("payload", "like", `%${payment.paymentId}%`)
    .executeTakeFirstOrThrow();
  return row.public_id;
}

async function requestsArrived(receiver: TestReceiver, count: number): Promise<void> {
  while (receiver.received.length < count) await new Promise((r) => setTimeout(r, 5));
}

/** Requests that carried one event (later events, such as the payment expiring, are others). */
function sentOf(receiver: TestReceiver, eventId: string): number {
  return receiver.received.filter((r) => r.headers.get("webhook-id") === eventId).length;
}

function deliveryRow(t: TestApp) {
  return t.store.db.selectFrom("webhook_deliveries")
    .select(["status", "attempt_count", "in_flight", "next_attempt_at"])
    .executeTakeFirstOrThrow();
}

function attemptsOf(delivery: Record<string, unknown>) {
  return (delivery.attempts as Record<string, unknown>[])
    .map((a) => [a.number, a.succeeded, a.responseStatus, a.errorCode]);
}

Deno.test("[webhooks] a late result of a taken-over attempt is stale and keeps the newer attempt", async () => {
  let release!: () => void;
  const hung = new Promise<void>((resolve) => (release = resolve));
  const receiver = startReceiver(async () => {
    await hung;
    return new Response("ok");
  });
  const t = await makeTestApp({ webhooks: NO_JITTER });
  const survivor = new WebhookDispatcher(t.services, NO_JITTER);
  try {
    await createTestEndpoint(t, { url: receiver.url });
    // This app's queue plays the slow process: it leased attempt 1 and never reported back.
    await t.webhooks.stop();
    const eventId = await newPaymentEvent(t);
    const leasedAt = t.clock.now();
    const [slow] = (await writtenPlan(
      t.store,
      planFanOut(t.store.db, {
        now: leasedAt,
        firstAttemptDelayMs: 0,
        limit: 100,
        leaseMs: LEASE_MS,
        budget: ROOMY,
      }),
    )).claimed;
    assert.equal(slow.attempt, 1);

    // The lease runs out: another process takes the delivery over for attempt 2.
    t.clock.advance(LEASE_MS);
    survivor.start();
    await survivor.sweep();
    await requestsArrived(receiver, 1);
    assert.deepEqual(await deliveryRow(t), {
      status: "PENDING",
      attempt_count: 2,
      in_flight: 1,
      next_attempt_at: t.clock.now() + LEASE_MS,
    });

    // Attempt 1's result arrives now, while attempt 2 is still in flight.
    const recorded = await writtenPlan(
      t.store,
      planRecording(t.store.db, [{
        claim: slow,
        startedAt: leasedAt,
        outcome: {
          kind: "failed",
          responseStatus: 500,
          responseBody: "late",
          errorCode: "http_status",
          errorMessage: "The endpoint answered 500.",
          retryAfterMs: null,
          durationMs: LEASE_MS,
        },
      }], { now: t.clock.now(), schedule: t.config.webhookRetryScheduleMs, ...NO_JITTER }),
    );
    assert.deepEqual(recorded, { nextRetryAt: null, disabled: [], stale: 1 });
    assert.deepEqual(await deliveryRow(t), {
      status: "PENDING",
      attempt_count: 2,
      in_flight: 1,
      next_attempt_at: t.clock.now() + LEASE_MS,
    }, "attempt 2 still holds the delivery");

    release();
    await survivor.idle();
    const [delivery] = await deliveriesOf(t, eventId);
    assert.equal(delivery.status, "SUCCEEDED");
    assert.equal(delivery.attemptCount, 2);
    assert.deepEqual(attemptsOf(delivery), [
      [1, false, 500, "http_status"],
      [2, true, 200, null],
    ]);
    assert.equal(receiver.received.length, 1);
  } finally {
    release();
    await survivor.stop();
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] a lost last attempt fails the delivery with no further attempt", async (s) => {
  await s.step("its process died (lease expired)", async () => {
    const receiver = startReceiver(() => new Response("down", { status: 503 }));
    const t = await makeTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: "0,1s" }, webhooks: NO_JITTER });
    const survivor = new WebhookDispatcher(t.services, NO_JITTER);
    try {
      await createTestEndpoint(t, { url: receiver.url });
      const eventId = await newPaymentEvent(t);
      await t.webhooks.idle();
      assert.equal(receiver.received.length, 1);

      // The last attempt is claimed by a process that dies before sending it.
      await t.webhooks.stop();
      t.clock.advance(1_000);
      const claimed = await writtenPlan(
        t.store,
        planClaims(t.store.db, {
          now: t.clock.now(),
          leaseMs: LEASE_MS,
          budget: ROOMY,
          runningAttemptOf: () => undefined,
          maxAttempts: 2,
          rotation: 0,
        }),
      );
      assert.deepEqual(claimed.map((claim) => claim.attempt), [2]);

      survivor.start();
      t.clock.advance(LEASE_MS);
      await survivor.sweep();
      await survivor.idle();
      const [delivery] = await deliveriesOf(t, eventId);
      assert.equal(delivery.status, "FAILED");
      assert.equal(delivery.attemptCount, 2);
      assert.equal(delivery.nextAttemptAt, null);
      assert.equal(delivery.completedAt, new Date(t.clock.now()).toISOString());
      assert.deepEqual(attemptsOf(delivery), [
        [1, false, 503, "http_status"],
        [2, false, null, "lease_expired"],
      ]);

      t.clock.advance(24 * 3_600_000);
      await survivor.sweep();
      await survivor.idle();
      assert.equal(sentOf(receiver, eventId), 1, "no third attempt");
    } finally {
      await survivor.stop();
      await t.close();
      await receiver.close();
    }
  });

  await s.step("it timed out", async () => {
    let release!: () => void;
    const hung = new Promise<void>((resolve) => (release = resolve));
    const receiver = startReceiver(async () => {
      await hung;
      return new Response("late");
    });
    const t = await makeTestApp({
      env: { WEBHOOK_RETRY_SCHEDULE: "0,1s" },
      webhooks: { ...NO_JITTER, attemptTimeoutMs: 100 },
    });
    try {
      await createTestEndpoint(t, { url: receiver.url });
      const eventId = await newPaymentEvent(t);
      await t.webhooks.idle();
      await advanceAndRun(t, 1_000);
      const [delivery] = await deliveriesOf(t, eventId);
      assert.equal(delivery.status, "FAILED");
      assert.equal(delivery.attemptCount, 2);
      assert.equal(delivery.nextAttemptAt, null);
      assert.deepEqual(attemptsOf(delivery), [
        [1, false, null, "timeout"],
        [2, false, null, "timeout"],
      ]);
      await advanceAndRun(t, 24 * 3_600_000);
      assert.equal(sentOf(receiver, eventId), 2, "no third attempt");
    } finally {
      release();
      await t.close();
      await receiver.close();
    }
  });
});

Deno.test("[webhooks] an endpoint added before fan-out caught up gets only later events", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  const queue = new WebhookDispatcher(t.services);
  try {
    const old = await createTestEndpoint(t, { url: `${receiver.url}/old` });
    // Fan-out stands still while events pile up (a busy or restarting queue).
    await t.webhooks.stop();
    const before = [await newPaymentEvent(t), await newPaymentEvent(t)];
    await createTestEndpoint(t, { url: `${receiver.url}/new` });
    const after = await newPaymentEvent(t);

    queue.start();
    await queue.sweep();
    await queue.idle();
    const idsAt = (path: string) =>
      receiver.received.filter((r) => r.path === path).map((r) => r.headers.get("webhook-id"))
        .sort();
    assert.deepEqual(idsAt("/hook/old"), [...before, after].sort());
    assert.deepEqual(idsAt("/hook/new"), [after]);
    for (const eventId of before) {
      const deliveries = await deliveriesOf(t, eventId);
      assert.deepEqual(deliveries.map((d) => d.endpointId), [old.id], "none for the new endpoint");
    }
  } finally {
    await queue.stop();
    await t.close();
    await receiver.close();
  }
});
