import assert from "node:assert/strict";
import type { KyselyPlugin } from "kysely";
import { webhookDeliveryJob, WebhookDispatcher } from "../lib/webhooks/delivery/dispatcher.ts";
import { planClaims } from "../lib/webhooks/delivery/claim.ts";
import { planFanOut } from "../lib/webhooks/delivery/fan_out.ts";
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
  eventsOfType,
  startReceiver,
  writtenPlan,
} from "./support/webhook_receiver.ts";
import type { SecondProcessCommand } from "./support/webhooks_second_process.ts";

const NOW = "2026-11-21T10:00:00.000Z";

async function newPaymentEvents(t: TestApp, count: number): Promise<string[]> {
  const offer = await createTestOffer(t);
  for (let index = 0; index < count; index++) await createTestPayment(t, offer.qrId);
  return (await eventsOfType(t, "payment.created")).map((event) => event.id);
}

Deno.test("[webhooks] the test operation sends webhook.test once, to that endpoint only", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  try {
    const target = await createTestEndpoint(t, { url: `${receiver.url}/target`, enabled: false });
    await createTestEndpoint(t, { url: `${receiver.url}/other` });
    const response = await t.request("POST", `/api/v1/webhook-endpoints/${target.id}/test`);
    assert.equal(response.status, 202);
    assert.equal(response.headers.get("content-type"), "application/json");
    const delivery = await response.json();
    assert.match(delivery.id, /^wd_[0-9A-Za-z]{30}$/);
    assert.match(delivery.eventId, /^evt_[0-9A-Za-z]{30}$/);
    assert.deepEqual(delivery, {
      id: delivery.id,
      eventId: delivery.eventId,
      endpointId: target.id,
      trigger: "TEST",
      status: "PENDING",
      attemptCount: 0,
      nextAttemptAt: NOW,
      createdAt: NOW,
      completedAt: null,
      attempts: [],
    });
    await t.webhooks.idle();

    assert.deepEqual(receiver.received.map((r) => r.path), ["/hook/target"]);
    const sent = JSON.parse(receiver.received[0].body);
    assert.equal(sent.id, delivery.eventId);
    assert.equal(sent.type, "webhook.test");
    const { secret: _, ...resource } = target;
    assert.deepEqual(sent.data, resource, "the endpoint as the API shows it, without secret");
    assert.deepEqual((await eventsOfType(t, "webhook.test")).map((e) => e.id), [delivery.eventId]);

    receiver.answer = () => new Response("nope", { status: 500 });
    const failing = await (await t.request("POST", `/api/v1/webhook-endpoints/${target.id}/test`))
      .json();
    await advanceAndRun(t, 24 * 3_600_000);
    const [done] = await deliveriesOf(t, failing.eventId);
    assert.equal(done.status, "FAILED", "a test is never retried");
    assert.equal(done.attemptCount, 1);
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] resend sends again with the same webhook-id, or brings a retry forward", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp({
    env: { WEBHOOK_RETRY_SCHEDULE: "0,1h" },
    webhooks: { random: () => 0.5 },
  });
  try {
    const endpoint = await createTestEndpoint(t, { url: receiver.url });
    const [eventId] = await newPaymentEvents(t, 1);
    await t.webhooks.idle();

    t.clock.advance(1000);
    const resent = await t.request("POST", `/api/v1/events/${eventId}/resend`, {});
    assert.equal(resent.status, 202);
    assert.equal(resent.headers.get("content-type"), "application/json");
    const { data } = await resent.json();
    assert.equal(data.length, 1);
    assert.deepEqual({ ...data[0], id: "" }, {
      id: "",
      eventId,
      endpointId: endpoint.id,
      trigger: "RESEND",
      status: "PENDING",
      attemptCount: 0,
      nextAttemptAt: "2026-11-21T10:00:01.000Z",
      createdAt: "2026-11-21T10:00:01.000Z",
      completedAt: null,
      attempts: [],
    });
    await t.webhooks.idle();
    const ids = receiver.received.map((r) => r.headers.get("webhook-id"));
    assert.deepEqual(ids, [eventId, eventId]);
    const deliveries = await deliveriesOf(t, eventId);
    assert.deepEqual(deliveries.map((d) => [d.trigger, d.status]), [
      ["RESEND", "SUCCEEDED"],
      ["EVENT", "SUCCEEDED"],
    ]);

    receiver.answer = () => new Response("down", { status: 503 });
    const [second] = (await newPaymentEvents(t, 1)).filter((id) => id !== eventId);
    await t.webhooks.idle();
    const [pending] = await deliveriesOf(t, second);
    assert.equal(pending.status, "PENDING");
    assert.equal(pending.nextAttemptAt, "2026-11-21T11:00:01.000Z");

    receiver.answer = () => new Response("ok");
    const forward = await (await t.request("POST", `/api/v1/events/${second}/resend`, {
      endpointId: endpoint.id,
    })).json();
    assert.equal(forward.data[0].id, pending.id, "the retrying delivery, not a duplicate");
    assert.equal(forward.data[0].nextAttemptAt, "2026-11-21T10:00:01.000Z");
    await t.webhooks.idle();
    const [delivered] = await deliveriesOf(t, second);
    assert.equal(delivered.status, "SUCCEEDED");
    assert.equal(delivered.attemptCount, 2);
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] events no endpoint can receive cost no write and are passed over at once", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  try {
    const cursor = async () =>
      (await t.store.db.selectFrom("webhook_fanout_cursor").select("last_event_id")
        .executeTakeFirstOrThrow()).last_event_id;
    await newPaymentEvents(t, 20);
    await t.webhooks.idle();
    assert.equal(await cursor(), 0, "no fan-out write while no endpoint exists");

    await createTestEndpoint(t, { url: receiver.url });
    const offer = await createTestOffer(t);
    await createTestPayment(t, offer.qrId);
    await t.webhooks.idle();
    const latest = await t.store.db.selectFrom("events").select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirstOrThrow();
    assert.equal(await cursor(), latest.id);
    assert.equal(receiver.received.length, 1);
    const deliveries = await t.store.db.selectFrom("webhook_deliveries").selectAll().execute();
    assert.equal(deliveries.length, 1);
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] a commit with nothing to deliver costs the queue no read of its own", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  try {
    await t.webhooks.stop();
    let reads = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        reads++;
        return Promise.resolve(args.result);
      },
    };
    const queue = new WebhookDispatcher({
      ...t.services,
      store: { ...t.store, db: t.store.db.withPlugin(counting) },
    });
    queue.start();
    await newPaymentEvents(t, 5);
    await queue.idle();
    assert.equal(reads, 0, "each commit told the queue there was nothing to deliver");

    await createTestEndpoint(t, { url: receiver.url });
    await createTestPayment(t, (await createTestOffer(t)).qrId);
    await queue.idle();
    assert.deepEqual(receiver.received.map((request) => JSON.parse(request.body).type), [
      "payment.created",
    ]);
    await queue.stop();
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] the scheduled job never waits for the queue's work", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  try {
    await createTestEndpoint(t, { url: receiver.url });
    await t.webhooks.stop();
    const [eventId] = await newPaymentEvents(t, 1);
    const queue = new WebhookDispatcher(t.services);
    // A long write holds the writer, so the queue's round is stuck inside its own write.
    let release!: () => void;
    let holding!: () => void;
    const writerHeld = new Promise<void>((resolve) => (holding = resolve));
    const held = t.store.write(() =>
      new Promise<void>((resolve) => {
        release = resolve;
        holding();
      })
    );
    await writerHeld;
    queue.kick();
    try {
      // The scheduler runs one job at a time: payment deadlines must not wait behind webhooks.
      const outcome = await Promise.race([
        webhookDeliveryJob(queue).run(t.clock.now()).then(() => "returned"),
        new Promise((resolve) => setTimeout(() => resolve("waited"), 500)),
      ]);
      assert.equal(outcome, "returned");
    } finally {
      release();
      await held;
    }
    await queue.idle();
    assert.deepEqual(receiver.received.map((r) => r.headers.get("webhook-id")), [eventId]);
    await queue.stop();
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] an event's deliveries paginate newest first", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  try {
    const endpoint = await createTestEndpoint(t, { url: receiver.url });
    const [eventId] = await newPaymentEvents(t, 1);
    await t.webhooks.idle();
    for (let index = 0; index < 2; index++) {
      await t.request("POST", `/api/v1/events/${eventId}/resend`, { endpointId: endpoint.id });
      await t.webhooks.idle();
    }
    const all = await deliveriesOf(t, eventId);
    assert.equal(all.length, 3);
    const page = await (await t.request(
      "GET",
      `/api/v1/events/${eventId}/deliveries?limit=2&startingAfter=${all[0].id}`,
    )).json();
    assert.deepEqual(page.data.map((d: { id: string }) => d.id), [all[1].id, all[2].id]);
    assert.equal(page.hasMore, false);
    const bad = await t.request("GET", `/api/v1/events/${eventId}/deliveries?startingAfter=wd_x`);
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).error.param, "startingAfter");
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] disabling or deleting an endpoint cancels its pending deliveries", async (t) => {
  for (const action of ["disable", "delete"] as const) {
    await t.step(action, async () => {
      const receiver = startReceiver(() => new Response("down", { status: 500 }));
      const app = await makeTestApp();
      try {
        const endpoint = await createTestEndpoint(app, { url: receiver.url });
        const [eventId] = await newPaymentEvents(app, 1);
        await app.webhooks.idle();
        assert.equal((await deliveriesOf(app, eventId))[0].status, "PENDING");
        const path = `/api/v1/webhook-endpoints/${endpoint.id}`;
        const response = action === "disable"
          ? await app.request("PATCH", path, { enabled: false })
          : await app.request("DELETE", path);
        assert.equal(response.status, 200);
        const [delivery] = await deliveriesOf(app, eventId);
        assert.equal(delivery.status, "CANCELED");
        assert.equal(delivery.completedAt, NOW);
        await advanceAndRun(app, 24 * 3_600_000);
        assert.equal(receiver.received.length, 1);
      } finally {
        await app.close();
        await receiver.close();
      }
    });
  }
});

Deno.test("[webhooks] production checks the address again before every attempt", async () => {
  const dns: Record<string, string[]> = { "hooks.example": ["93.184.216.34"] };
  let failDns = false;
  const t = await makeTestApp({
    environment: "production",
    resolveHost: (host) => {
      if (failDns) return Promise.reject(new Error("SERVFAIL"));
      return Promise.resolve(dns[host] ?? []);
    },
  });
  try {
    await createTestEndpoint(t, { url: "https://hooks.example/paystead" });
    // Repointed at the loopback after registration (DNS rebinding): refused, nothing sent.
    dns["hooks.example"] = ["127.0.0.1"];
    const [first] = await newPaymentEvents(t, 1);
    await t.webhooks.idle();
    let [delivery] = await deliveriesOf(t, first);
    let [attempt] = delivery.attempts as Record<string, unknown>[];
    assert.equal(attempt.errorCode, "address_not_allowed");
    assert.equal(
      attempt.errorMessage,
      "hooks.example resolves to 127.0.0.1, which is not a public address.",
    );
    assert.equal(attempt.responseStatus, null);
    assert.equal(delivery.status, "PENDING");

    failDns = true;
    await advanceAndRun(t, 5_500);
    [delivery] = await deliveriesOf(t, first);
    attempt = (delivery.attempts as Record<string, unknown>[])[1];
    assert.equal(attempt.errorCode, "dns_failed");
    assert.match(attempt.errorMessage as string, /SERVFAIL/);
  } finally {
    await t.close();
  }
});

Deno.test("[webhooks] an attempt whose process died is recorded as lost and made again", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  try {
    await createTestEndpoint(t, { url: receiver.url });
    // This app's queue plays the process that dies: it stops reacting, and a lease is taken
    // by hand, as a process would just before crashing.
    await t.webhooks.stop();
    const [eventId] = await newPaymentEvents(t, 1);
    const fannedOut = await writtenPlan(
      t.store,
      planFanOut(t.store.db, {
        now: t.clock.now(),
        firstAttemptDelayMs: 0,
        limit: 100,
        leaseMs: 10_000,
        budget: { remaining: () => 10, capacityOf: () => 10, take: () => {} },
      }),
    );
    assert.equal(fannedOut.claimed.length, 1);

    const survivor = new WebhookDispatcher(t.services);
    survivor.start();
    try {
      t.clock.advance(9_999);
      await survivor.sweep();
      await survivor.idle();
      assert.equal(receiver.received.length, 0, "the lease still holds");

      t.clock.advance(1);
      await survivor.sweep();
      await survivor.idle();
      assert.deepEqual(receiver.received.map((r) => r.headers.get("webhook-id")), [eventId]);
      const [delivery] = await deliveriesOf(t, eventId);
      assert.equal(delivery.status, "SUCCEEDED");
      assert.equal(delivery.attemptCount, 2);
      const attempts = delivery.attempts as Record<string, unknown>[];
      assert.deepEqual(attempts.map((a) => [a.number, a.succeeded, a.errorCode]), [
        [1, false, "lease_expired"],
        [2, true, null],
      ]);
      assert.equal(attempts[0].startedAt, NOW);
    } finally {
      await survivor.stop();
    }
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] a round's write changes nothing that moved on since its reads", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  try {
    const endpoint = await createTestEndpoint(t, { url: receiver.url });
    await t.webhooks.stop();
    const [eventId] = await newPaymentEvents(t, 1);
    const roomy = () => ({ remaining: () => 10, capacityOf: () => 10, take: () => {} });
    const fanOut = () =>
      planFanOut(t.store.db, {
        now: t.clock.now(),
        firstAttemptDelayMs: 0,
        limit: 100,
        leaseMs: 10_000,
        budget: roomy(),
      });
    const deliveryRows = () =>
      t.store.db.selectFrom("webhook_deliveries").select(["attempt_count", "in_flight"]).execute();

    // Two processes plan the same fan-out; the second to write finds the cursor moved.
    const [first, second] = [await fanOut(), await fanOut()];
    assert.equal((await writtenPlan(t.store, Promise.resolve(first))).claimed.length, 1);
    const late = await writtenPlan(t.store, Promise.resolve(second));
    assert.deepEqual([late.claimed, late.deliveries, late.moreWaiting], [[], 0, true]);
    assert.deepEqual(await deliveryRows(), [{ attempt_count: 1, in_flight: 1 }]);

    // Its lease runs out; two processes plan to take it over; only the first gets it.
    t.clock.advance(10_000);
    const claims = () =>
      planClaims(t.store.db, {
        now: t.clock.now(),
        leaseMs: 10_000,
        budget: roomy(),
        runningAttemptOf: () => undefined,
        maxAttempts: 10,
        rotation: 0,
      });
    const [claimA, claimB] = [await claims(), await claims()];
    const takenOver = await writtenPlan(t.store, Promise.resolve(claimA));
    assert.deepEqual(takenOver.map((claim) => [claim.eventId, claim.attempt]), [[eventId, 2]]);
    assert.deepEqual(await writtenPlan(t.store, Promise.resolve(claimB)), []);
    assert.deepEqual(await deliveryRows(), [{ attempt_count: 2, in_flight: 1 }]);

    // An endpoint disabled between a fan-out's reads and its write gets no delivery.
    await newPaymentEvents(t, 1);
    const planned = await fanOut();
    await t.request("PATCH", `/api/v1/webhook-endpoints/${endpoint.id}`, { enabled: false });
    const skipped = await writtenPlan(t.store, Promise.resolve(planned));
    assert.deepEqual([skipped.claimed, skipped.moreWaiting], [[], false]);
    assert.equal((await deliveryRows()).length, 1);
  } finally {
    await t.close();
    await receiver.close();
  }
});

/** Fans new events out as another process would, leasing the first delivery for `leaseMs`. */
async function fanOutLeasingOne(t: TestApp, leaseMs: number): Promise<void> {
  let room = 1;
  await writtenPlan(
    t.store,
    planFanOut(t.store.db, {
      now: t.clock.now(),
      firstAttemptDelayMs: 0,
      limit: 100,
      leaseMs,
      budget: { remaining: () => 2, capacityOf: () => room, take: () => room-- },
    }),
  );
}

Deno.test("[webhooks] a sweep schedules the next run for leases that end later", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  try {
    await createTestEndpoint(t, { url: receiver.url });
    await t.webhooks.stop();
    await newPaymentEvents(t, 2);
    // As a process that died would leave it: one delivery leased, one due now.
    await fanOutLeasingOne(t, 10_000);
    const queue = new WebhookDispatcher(t.services);
    try {
      assert.equal(await webhookDeliveryJob(queue).run(t.clock.now()), t.clock.now() + 10_000);
      await queue.idle();
      assert.equal(receiver.received.length, 1, "the one due now");
    } finally {
      await queue.stop();
    }
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] a busy queue's sweeps come at most every 100 ms", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  try {
    await createTestEndpoint(t, { url: receiver.url });
    await t.webhooks.stop();
    await newPaymentEvents(t, 1);
    // As another process leaves it: a delivery whose lease ends in 10 ms.
    await fanOutLeasingOne(t, 10);
    const queue = new WebhookDispatcher(t.services);
    try {
      // Sweeping again for it 10 ms later would be a read and a round for one delivery; the
      // next sweep finds everything then due at once.
      assert.equal(await webhookDeliveryJob(queue).run(t.clock.now()), t.clock.now() + 100);
      t.clock.advance(100);
      await webhookDeliveryJob(queue).run(t.clock.now());
      await queue.idle();
      assert.equal(receiver.received.length, 1, "delivered by the next sweep");
    } finally {
      await queue.stop();
    }
  } finally {
    await t.close();
    await receiver.close();
  }
});
Deno.test("[webhooks] stopping gives back the leases of attempts in flight", async () => {
  let release!: () => void;
  const hung = new Promise<void>((resolve) => (release = resolve));
  const receiver = startReceiver(async () => {
    await hung;
    return new Response("late");
  });
  const t = await makeTestApp();
  try {
    await createTestEndpoint(t, { url: receiver.url });
    const offer = await createTestOffer(t);
    await createTestPayment(t, offer.qrId);
    const [event] = await eventsOfType(t, "payment.created");
    while (receiver.received.length === 0) await new Promise((r) => setTimeout(r, 5));
    await t.webhooks.stop();
    const [delivery] = await deliveriesOf(t, event.id);
    assert.deepEqual(
      [delivery.status, delivery.attemptCount, delivery.nextAttemptAt, delivery.attempts],
      ["PENDING", 0, NOW, []],
    );
  } finally {
    release();
    await t.close();
    await receiver.close();
  }
});

/** Sends a command to the second process and waits for it to be done. */
function ask(worker: Worker, request: SecondProcessCommand): Promise<void> {
  return new Promise((resolve) => {
    worker.addEventListener("message", () => resolve(), { once: true });
    worker.postMessage(request);
  });
}

Deno.test("[webhooks] two processes over one database never make the same attempt twice", async () => {
  const receiver = startReceiver(() => new Response("down", { status: 503 }));
  const t = await makeTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: "0,1s" } });
  const worker = new Worker(new URL("./support/webhooks_second_process.ts", import.meta.url), {
    type: "module",
  });
  try {
    await ask(worker, { command: "start", config: t.config, now: t.clock.now() });
    await createTestEndpoint(t, { url: receiver.url });
    const events = await newPaymentEvents(t, 100);
    await t.webhooks.idle();
    assert.equal(receiver.received.length, 100);

    // Both processes find the same 100 retries due at the same moment.
    receiver.answer = () => new Response("ok");
    t.clock.advance(1_100);
    await Promise.all([
      t.services.scheduler.runDue().then(() => t.webhooks.idle()),
      ask(worker, { command: "sweep", now: t.clock.now() }),
    ]);

    const perEvent = Map.groupBy(receiver.received, (r) => r.headers.get("webhook-id"));
    assert.equal(perEvent.size, 100);
    for (const id of events) assert.equal(perEvent.get(id)?.length, 2, id);
    const attempts = await t.store.db.selectFrom("webhook_attempts")
      .select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    assert.equal(Number(attempts.count), 200);
  } finally {
    await ask(worker, { command: "stop" });
    worker.terminate();
    await t.close();
    await receiver.close();
  }
});
