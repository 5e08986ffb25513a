import assert from "node:assert/strict";
import type { RecurringChargeRequest } from "../lib/providers/mod.ts";
import { period, periodStart } from "../lib/subscriptions/periods.ts";
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
  spawnSecondProcess,
} from "./support/billing_helpers.ts";

const START = "2026-11-21T10:00:00.000Z";
const DAY_MS = 86_400_000;
const MONTHLY = { recurring: { interval: "MONTH" } };

type Json = Record<string, unknown>;

/** Pays for a recurring offer and returns the subscription it started. */
async function subscribe(
  t: TestApp,
  offer: Json = MONTHLY,
  payment: Json = {},
): Promise<Json & { subscriptionId: string; paymentId: string }> {
  const paid = await paidPayment(t, offer, payment);
  const list = await getJson(t, `/api/v1/subscriptions?qrId=${paid.qrId}`);
  const [subscription] = list.data as (Json & { subscriptionId: string; paymentId: string })[];
  assert.equal(subscription.paymentId, paid.paymentId);
  return subscription;
}

/** Moves the organisation's sandbox clock and runs what became due. */
async function advance(t: TestApp, days: number): Promise<Json> {
  const response = await t.request("POST", "/api/v1/sandbox/clock/advance", { days });
  assert.equal(response.status, 200);
  await t.services.scheduler.runDue();
  return await response.json();
}

/** Moves the organisation's sandbox clock to `time` (whole days ahead) and runs what is due. */
async function advanceTo(t: TestApp, time: string): Promise<void> {
  const clock = await getJson(t, "/api/v1/sandbox/clock");
  const days = (Date.parse(time) - Date.parse(String(clock.now))) / DAY_MS;
  assert.ok(Number.isInteger(days) && days > 0, `${time} is whole days ahead of ${clock.now}`);
  await advance(t, days);
}

function subscriptionPath(subscription: { subscriptionId: string }): string {
  return `/api/v1/subscriptions/${subscription.subscriptionId}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

Deno.test("[subscriptions] periods are anchored on the start: month ends and leap years", () => {
  const monthly = { interval: "MONTH", count: 1 } as const;
  const jan31 = Date.UTC(2027, 0, 31, 10);
  assert.deepEqual(
    Array.from({ length: 14 }, (_, index) => iso(periodStart(jan31, monthly, index))),
    [
      "2027-01-31T10:00:00.000Z",
      "2027-02-28T10:00:00.000Z",
      "2027-03-31T10:00:00.000Z",
      "2027-04-30T10:00:00.000Z",
      "2027-05-31T10:00:00.000Z",
      "2027-06-30T10:00:00.000Z",
      "2027-07-31T10:00:00.000Z",
      "2027-08-31T10:00:00.000Z",
      "2027-09-30T10:00:00.000Z",
      "2027-10-31T10:00:00.000Z",
      "2027-11-30T10:00:00.000Z",
      "2027-12-31T10:00:00.000Z",
      "2028-01-31T10:00:00.000Z",
      "2028-02-29T10:00:00.000Z",
    ],
  );
  const leapDay = Date.UTC(2028, 1, 29, 23, 59, 59, 999);
  const yearly = { interval: "YEAR", count: 1 } as const;
  assert.deepEqual([1, 2, 3, 4].map((index) => iso(periodStart(leapDay, yearly, index))), [
    "2029-02-28T23:59:59.999Z",
    "2030-02-28T23:59:59.999Z",
    "2031-02-28T23:59:59.999Z",
    "2032-02-29T23:59:59.999Z",
  ]);
  const quarterly = { interval: "MONTH", count: 3 } as const;
  assert.deepEqual(period(Date.UTC(2027, 10, 30), quarterly, 1), {
    start: Date.UTC(2028, 1, 29),
    end: Date.UTC(2028, 4, 30),
  });
  assert.equal(
    iso(periodStart(Date.UTC(2026, 11, 31), { interval: "WEEK", count: 2 }, 3)),
    "2027-02-11T00:00:00.000Z",
  );
  assert.equal(
    iso(periodStart(Date.UTC(2028, 1, 28), { interval: "DAY", count: 1 }, 2)),
    "2028-03-01T00:00:00.000Z",
  );
});

Deno.test("[subscriptions] a succeeded payment for a recurring offer starts a subscription", async () => {
  const t = await makeTestApp();
  try {
    const offer = await createTestOffer(t, MONTHLY);
    const { paymentId } = await createTestPayment(t, offer.qrId, {
      quantity: 2,
      customer: { email: "Ada@Example.com", name: "Ada" },
      metadata: { orderId: "A-1" },
    });
    const complete = await t.request("POST", `/api/v1/payments/${paymentId}/complete`, {
      code: "777123",
    });
    assert.equal(complete.status, 200);

    const list = await t.request("GET", "/api/v1/subscriptions");
    assert.equal(list.status, 200);
    assert.equal(list.headers.get("content-type"), "application/json");
    const { data, hasMore } = await list.json();
    assert.equal(hasMore, false);
    assert.equal(data.length, 1);
    assert.match(data[0].subscriptionId, /^sub_[0-9A-Za-z]{24}$/);
    const expected = {
      subscriptionId: data[0].subscriptionId,
      qrId: offer.qrId,
      paymentId,
      latestPaymentId: paymentId,
      status: "ACTIVE",
      amount: 2500,
      currency: "PLN",
      quantity: 2,
      recurring: { interval: "MONTH", intervalCount: 1 },
      currentPeriodStart: START,
      currentPeriodEnd: "2026-12-21T10:00:00.000Z",
      cancelAtPeriodEnd: false,
      nextChargeAt: "2026-12-21T10:00:00.000Z",
      renewalPaymentId: null,
      canceledAt: null,
      cancellationReason: null,
      customer: { email: "ada@example.com", name: "Ada" },
      metadata: { orderId: "A-1" },
      createdAt: START,
      updatedAt: START,
      version: 1,
    };
    assert.deepEqual(data[0], expected);
    const get = await t.request("GET", subscriptionPath(expected));
    assert.equal(get.status, 200);
    assert.equal(get.headers.get("content-type"), "application/json");
    assert.deepEqual(await get.json(), expected);

    const events = await eventsOf(t, "subscription.created");
    assert.equal(events.length, 1);
    assert.equal(events[0].createdAt, START);
    assert.deepEqual(events[0].data, expected);

    // Neither a one-off offer nor a failed payment starts one.
    await paidPayment(t);
    const failing = await createTestPayment(t, offer.qrId);
    await t.request("POST", `/api/v1/payments/${failing.paymentId}/complete`, { code: "500500" });
    assert.equal(((await getJson(t, "/api/v1/subscriptions")).data as Json[]).length, 1);
    const missing = await t.request("GET", "/api/v1/subscriptions/sub_000000000000000000000000");
    assert.equal(missing.status, 404);
    const other = await otherOrganisation(t);
    assert.equal((await other.request("GET", subscriptionPath(expected))).status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("[subscriptions] twelve monthly renewals through the sandbox clock, on exact boundaries", async () => {
  const provider = new RecordingProvider();
  const t = await makeTestApp({ provider });
  try {
    // 2026-11-21 + 71 days: a subscription started on January 31st.
    assert.deepEqual(await advance(t, 71), { now: "2027-01-31T10:00:00.000Z", advancedDays: 71 });
    const subscription = await subscribe(t);
    assert.equal(subscription.currentPeriodStart, "2027-01-31T10:00:00.000Z");
    const anchor = Date.UTC(2027, 0, 31, 10);
    const cycle = { interval: "MONTH", count: 1 } as const;
    let now = anchor;

    for (let index = 1; index <= 12; index++) {
      const end = periodStart(anchor, cycle, index);
      await advance(t, (end - now) / DAY_MS - 1);
      const before = await getJson(t, subscriptionPath(subscription));
      assert.equal(before.currentPeriodEnd, iso(end), `no renewal a day before period ${index}`);
      assert.equal(provider.carriedOut.length, index - 1);

      await advance(t, 1);
      now = end;
      const after = await getJson(t, subscriptionPath(subscription));
      assert.equal(after.status, "ACTIVE");
      assert.equal(after.currentPeriodStart, iso(end));
      assert.equal(after.currentPeriodEnd, iso(periodStart(anchor, cycle, index + 1)));
      assert.equal(after.nextChargeAt, after.currentPeriodEnd);
      assert.equal(after.updatedAt, iso(end));
      assert.equal(provider.carriedOut.length, index);
    }

    const final = await getJson(t, subscriptionPath(subscription));
    assert.equal(final.currentPeriodStart, "2028-01-31T10:00:00.000Z");
    assert.equal(final.currentPeriodEnd, "2028-02-29T10:00:00.000Z");

    const renewed = await eventsOf(t, "subscription.renewed");
    assert.equal(renewed.length, 12);
    assert.deepEqual(renewed.map((event) => event.data.currentPeriodStart), [
      "2027-02-28T10:00:00.000Z",
      "2027-03-31T10:00:00.000Z",
      "2027-04-30T10:00:00.000Z",
      "2027-05-31T10:00:00.000Z",
      "2027-06-30T10:00:00.000Z",
      "2027-07-31T10:00:00.000Z",
      "2027-08-31T10:00:00.000Z",
      "2027-09-30T10:00:00.000Z",
      "2027-10-31T10:00:00.000Z",
      "2027-11-30T10:00:00.000Z",
      "2027-12-31T10:00:00.000Z",
      "2028-01-31T10:00:00.000Z",
    ]);
    assert.ok(renewed.every((event) => event.createdAt === event.data.currentPeriodStart));

    // Each renewal is a payment of its own, with its own events, charged once under its own key.
    const renewalPayments = renewed.map((event) => String(event.data.latestPaymentId));
    assert.equal(new Set(renewalPayments).size, 12);
    assert.deepEqual(provider.carriedOut.map((charge) => charge.paymentId), renewalPayments);
    assert.equal(new Set(provider.calls).size, 12);
    const [first] = renewalPayments;
    const payment = await getJson(t, `/api/v1/payments/${first}`);
    assert.equal(payment.status, "SUCCEEDED");
    assert.equal(payment.amount, 1250);
    assert.equal(payment.qrId, subscription.qrId);
    assert.deepEqual(payment.metadata, { subscriptionId: subscription.subscriptionId });
    assert.equal(payment.createdAt, "2027-02-28T10:00:00.000Z");
    for (const type of ["payment.created", "payment.processing", "payment.succeeded"]) {
      const events = await eventsOf(t, type);
      assert.equal(events.filter((event) => event.data.paymentId === first).length, 1, type);
    }
    // Renewal payments start no subscriptions of their own.
    assert.equal(((await getJson(t, "/api/v1/subscriptions")).data as Json[]).length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("[subscriptions] a year in one advance renews every period in order", async () => {
  const provider = new RecordingProvider();
  const t = await makeTestApp({ provider });
  try {
    const subscription = await subscribe(t);
    await advance(t, 366);
    const after = await getJson(t, subscriptionPath(subscription));
    assert.equal(after.currentPeriodStart, "2027-11-21T10:00:00.000Z");
    assert.equal(after.currentPeriodEnd, "2027-12-21T10:00:00.000Z");
    const renewed = await eventsOf(t, "subscription.renewed");
    assert.deepEqual(
      renewed.map((event) => event.data.currentPeriodEnd),
      Array.from({ length: 12 }, (_, i) => iso(Date.UTC(2027, i, 21, 10))),
    );
    assert.equal(provider.carriedOut.length, 12);
  } finally {
    await t.close();
  }
});

Deno.test("[subscriptions] a failing renewal goes PAST_DUE, is retried after 1 and 3 days, then CANCELED", async () => {
  const provider = new RecordingProvider();
  const t = await makeTestApp({ provider });
  try {
    const subscription = await subscribe(t, {
      ...MONTHLY,
      metadata: { sandboxRenewal: "fail" },
    });
    await advance(t, 30);
    const pastDue = await getJson(t, subscriptionPath(subscription));
    assert.equal(pastDue.status, "PAST_DUE");
    assert.equal(pastDue.currentPeriodEnd, "2026-12-21T10:00:00.000Z");
    assert.equal(pastDue.nextChargeAt, "2026-12-22T10:00:00.000Z");
    const [pastDueEvent] = await eventsOf(t, "subscription.past_due");
    assert.deepEqual(pastDueEvent.data, pastDue);
    const [failedPayment] = await eventsOf(t, "payment.failed");
    assert.equal(failedPayment.data.failureCode, "declined");
    assert.equal(failedPayment.data.paymentId, pastDue.latestPaymentId);
    assert.deepEqual(failedPayment.data.metadata, { subscriptionId: subscription.subscriptionId });

    await advance(t, 1);
    const retried = await getJson(t, subscriptionPath(subscription));
    assert.equal(retried.status, "PAST_DUE");
    assert.equal(retried.nextChargeAt, "2026-12-24T10:00:00.000Z");
    assert.equal(provider.carriedOut.length, 2);
    assert.equal((await eventsOf(t, "subscription.past_due")).length, 1);

    await advance(t, 1);
    assert.equal(provider.carriedOut.length, 2);
    await advance(t, 1);
    const canceled = await getJson(t, subscriptionPath(subscription));
    assert.equal(canceled.status, "CANCELED");
    assert.equal(canceled.cancellationReason, "renewal_failed");
    assert.equal(canceled.canceledAt, "2026-12-24T10:00:00.000Z");
    assert.equal(canceled.nextChargeAt, null);
    const [canceledEvent] = await eventsOf(t, "subscription.canceled");
    assert.deepEqual(canceledEvent.data, canceled);

    await advance(t, 60);
    assert.equal(provider.carriedOut.length, 3);
    assert.equal(new Set(provider.calls).size, 3);
    assert.equal((await eventsOf(t, "payment.failed")).length, 3);
    assert.deepEqual(await eventsOf(t, "subscription.renewed"), []);
  } finally {
    await t.close();
  }
});

Deno.test("[subscriptions] a retry that succeeds makes it ACTIVE again, still anchored", async () => {
  const t = await makeTestApp();
  try {
    const subscription = await subscribe(t, { ...MONTHLY, metadata: { sandboxRenewal: "fail" } });
    await advance(t, 30);
    assert.equal((await getJson(t, subscriptionPath(subscription))).status, "PAST_DUE");
    const patch = await t.request("PATCH", `/api/v1/qr/${subscription.qrId}`, { metadata: {} });
    assert.equal(patch.status, 200);
    await advance(t, 1);
    const active = await getJson(t, subscriptionPath(subscription));
    assert.equal(active.status, "ACTIVE");
    assert.equal(active.currentPeriodStart, "2026-12-21T10:00:00.000Z");
    assert.equal(active.currentPeriodEnd, "2027-01-21T10:00:00.000Z");
    assert.equal(active.nextChargeAt, "2027-01-21T10:00:00.000Z");
    const [renewed] = await eventsOf(t, "subscription.renewed");
    assert.deepEqual(renewed.data, active);
  } finally {
    await t.close();
  }
});

Deno.test("[subscriptions] cancel now, or at the period end instead of renewing", async (t) => {
  const provider = new RecordingProvider();
  const app = await makeTestApp({ provider });
  const cancel = (subscription: { subscriptionId: string }, body?: Json) =>
    app.request("POST", `${subscriptionPath(subscription)}/cancel`, body);
  try {
    await t.step("now", async () => {
      const subscription = await subscribe(app);
      const response = await cancel(subscription);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "application/json");
      const body = await response.json();
      assert.deepEqual(body, {
        ...subscription,
        status: "CANCELED",
        nextChargeAt: null,
        canceledAt: START,
        cancellationReason: "requested",
        version: 2,
      });
      const events = await eventsOf(app, "subscription.canceled");
      assert.deepEqual(events.at(-1)?.data, body);
      const again = await cancel(subscription, { atPeriodEnd: true });
      assert.equal(again.status, 409);
      assert.equal((await again.json()).error.code, "subscription_canceled");
    });

    await t.step("at the period end", async () => {
      const subscription = await subscribe(app);
      const response = await cancel(subscription, { atPeriodEnd: true });
      assert.equal(response.status, 200);
      const scheduled = await response.json();
      assert.deepEqual(scheduled, {
        ...subscription,
        cancelAtPeriodEnd: true,
        nextChargeAt: null,
        version: 2,
      });
      assert.equal((await cancel(subscription, { atPeriodEnd: true })).status, 200);
      const canceledBefore = (await eventsOf(app, "subscription.canceled")).length;
      await advance(app, 29);
      assert.equal((await getJson(app, subscriptionPath(subscription))).status, "ACTIVE");
      await advance(app, 1);
      const ended = await getJson(app, subscriptionPath(subscription));
      assert.equal(ended.status, "CANCELED");
      assert.equal(ended.canceledAt, "2026-12-21T10:00:00.000Z");
      assert.equal(ended.cancellationReason, "requested");
      assert.equal((await eventsOf(app, "subscription.canceled")).length, canceledBefore + 1);
      assert.equal(provider.carriedOut.length, 0);
    });

    await t.step("a PAST_DUE one only now", async () => {
      const subscription = await subscribe(app, {
        ...MONTHLY,
        metadata: { sandboxRenewal: "fail" },
      });
      await advanceTo(app, String(subscription.currentPeriodEnd));
      assert.equal((await getJson(app, subscriptionPath(subscription))).status, "PAST_DUE");
      const response = await cancel(subscription, { atPeriodEnd: true });
      assert.equal(response.status, 409);
      const { error } = await response.json();
      assert.equal(error.code, "subscription_past_due");
      assert.equal(error.param, "atPeriodEnd");
      assert.equal((await cancel(subscription, { atPeriodEnd: false })).status, 200);
      await advance(app, 5);
      assert.equal(provider.carriedOut.length, 1);
    });

    await t.step("not while a renewal is being charged", async () => {
      const subscription = await subscribe(app);
      const reached = provider.failNext("hang");
      const response = await app.request("POST", "/api/v1/sandbox/clock/advance", { days: 31 });
      assert.equal(response.status, 200);
      const running = app.services.scheduler.runDue();
      await reached;
      const refused = await cancel(subscription);
      assert.equal(refused.status, 409);
      assert.equal((await refused.json()).error.code, "subscription_renewal_in_progress");
      provider.release();
      await running;
      assert.equal((await getJson(app, subscriptionPath(subscription))).status, "ACTIVE");
      assert.equal((await cancel(subscription)).status, 200);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[subscriptions] two processes renewing at once never charge a period twice", async (t) => {
  const provider = new RecordingProvider();
  provider.delayMs = 20;
  const app = await makeTestApp({ provider });
  const carriedOut: RecurringChargeRequest[] = [];
  const race = async (hold: boolean) => {
    const response = await app.request("POST", "/api/v1/sandbox/clock/advance", { days: 31 });
    assert.equal(response.status, 200);
    const other = await spawnSecondProcess(app, 20);
    // Held: this process keeps its claimed charges in flight while the other one runs.
    const resume = hold ? provider.pause() : () => {};
    const running = app.services.scheduler.runAll();
    const report = await other.run();
    resume();
    await running;
    carriedOut.push(...report.carriedOut);
    return report;
  };
  try {
    const subscriptions = [];
    for (let i = 0; i < 40; i++) subscriptions.push(await subscribe(app));

    await t.step("while the other's charges are in flight", async () => {
      const report = await race(true);
      assert.ok(report.carriedOut.length > 0 && report.carriedOut.length < 40);
      assert.equal(report.carriedOut.length + provider.carriedOut.length, 40);
    });
    await t.step("both free-running", async () => {
      await race(false);
    });

    carriedOut.push(...provider.carriedOut.filter((charge) => "subscriptionId" in charge));
    assert.equal(carriedOut.length, 80);
    assert.equal(new Set(carriedOut.map((charge) => charge.idempotencyKey)).size, 80);
    const charges = new Map<string, number>();
    for (const charge of carriedOut) {
      charges.set(charge.subscriptionId, (charges.get(charge.subscriptionId) ?? 0) + 1);
    }
    assert.deepEqual([...charges.values()], Array(40).fill(2));
    for (const subscription of subscriptions) {
      const after = await getJson(app, subscriptionPath(subscription));
      assert.equal(after.currentPeriodStart, "2027-01-21T10:00:00.000Z");
    }
    assert.equal((await eventsOf(app, "subscription.renewed")).length, 80);
  } finally {
    await app.close();
  }
});

Deno.test("[subscriptions] a renewal whose process died after the charge is completed once by another", async () => {
  const provider = new RecordingProvider();
  const t = await makeTestApp({ provider });
  const other = await secondProcess(t, provider);
  try {
    const subscription = await subscribe(t);
    const reached = provider.failNext("hang");
    await t.request("POST", "/api/v1/sandbox/clock/advance", { days: 30 });
    const stuck = t.services.scheduler.runDue();
    await reached;

    await other.services.scheduler.runAll();
    assert.equal(provider.calls.length, 1);
    // Leases run on the system clock: moving the sandbox clock does not take over a live charge.
    await t.request("POST", "/api/v1/sandbox/clock/advance", { days: 1 });
    await other.services.scheduler.runAll();
    assert.equal(provider.calls.length, 1);
    t.clock.advance(60_000);
    await other.services.scheduler.runAll();
    provider.release();
    await stuck;

    assert.equal(provider.calls.length, 2);
    assert.equal(provider.calls[0], provider.calls[1]);
    assert.equal(provider.carriedOut.length, 1);
    const renewed = await getJson(t, subscriptionPath(subscription));
    assert.equal(renewed.currentPeriodStart, "2026-12-21T10:00:00.000Z");
    assert.equal((await eventsOf(t, "subscription.renewed")).length, 1);
    const succeeded = (await eventsOf(t, "payment.succeeded"))
      .filter((event) => event.data.paymentId === renewed.latestPaymentId);
    assert.equal(succeeded.length, 1);
  } finally {
    await other.close();
    await t.close();
  }
});

Deno.test("[subscriptions] a lost charge answer is asked again under the same key", async () => {
  const provider = new RecordingProvider();
  const t = await makeTestApp({ provider });
  try {
    const subscription = await subscribe(t);
    provider.failNext("lose-answer");
    await advance(t, 30);
    const pending = await getJson(t, subscriptionPath(subscription));
    assert.equal(pending.currentPeriodStart, START);
    const payment = await getJson(t, `/api/v1/payments/${provider.carriedOut[0].paymentId}`);
    assert.equal(payment.status, "PROCESSING");

    t.clock.advance(60_000);
    await t.services.scheduler.runDue();
    assert.equal(provider.carriedOut.length, 1);
    assert.equal(provider.calls.length, 2);
    const renewed = await getJson(t, subscriptionPath(subscription));
    assert.equal(renewed.currentPeriodStart, "2026-12-21T10:00:00.000Z");
    assert.equal(
      (await getJson(t, `/api/v1/payments/${renewed.latestPaymentId}`)).status,
      "SUCCEEDED",
    );
  } finally {
    await t.close();
  }
});

Deno.test("[subscriptions] the sandbox clock is per organisation and moves its deadlines", async () => {
  const t = await makeTestApp();
  try {
    const other = await otherOrganisation(t);
    const otherOffer = await other.request("POST", "/api/v1/qr", {
      name: "Box",
      amount: 900,
      currency: "PLN",
      ...MONTHLY,
    });
    const { qrId } = await otherOffer.json();
    const otherPayment = await (await other.request("POST", "/api/v1/payments", { qrId })).json();
    await other.request("POST", `/api/v1/payments/${otherPayment.paymentId}/complete`, {
      code: "777123",
    });

    const clock = await t.request("GET", "/api/v1/sandbox/clock");
    assert.equal(clock.status, 200);
    assert.deepEqual(await clock.json(), { now: START, advancedDays: 0 });
    const advanced = await advance(t, 40);
    assert.deepEqual(advanced, { now: "2026-12-31T10:00:00.000Z", advancedDays: 40 });
    assert.deepEqual(await getJson(t, "/api/v1/sandbox/clock"), advanced);

    // The other organisation keeps the real time: nothing of it renewed.
    assert.deepEqual(await (await other.request("GET", "/api/v1/sandbox/clock")).json(), {
      now: START,
      advancedDays: 0,
    });
    const otherSubscriptions = await (await other.request("GET", "/api/v1/subscriptions")).json();
    assert.equal(otherSubscriptions.data[0].currentPeriodStart, START);
    assert.deepEqual(await eventsOf(t, "subscription.renewed"), []);

    // What this organisation creates lives on its time, and expires on it.
    const { qrId: oneOff } = await createTestOffer(t);
    const payment = await createTestPayment(t, oneOff, { expiresInMinutes: 30 });
    assert.equal(payment.createdAt, "2026-12-31T10:00:00.000Z");
    t.clock.advance(30 * 60_000);
    await t.services.scheduler.runDue();
    const expired = await getJson(t, `/api/v1/payments/${payment.paymentId}`);
    assert.equal(expired.status, "EXPIRED");
    const [expiredEvent] = await eventsOf(t, "payment.expired");
    assert.equal(expiredEvent.createdAt, "2026-12-31T10:30:00.000Z");
  } finally {
    await t.close();
  }
});

Deno.test("[subscriptions] on a server, advancing the clock renews by itself within moments", async () => {
  const app = await makeTestApp();
  const server = await secondProcess(app, new RecordingProvider(), { timers: true });
  try {
    const subscription = await subscribe(app);
    const response = await server.app.request("/api/v1/sandbox/clock/advance", {
      method: "POST",
      headers: {
        authorization: `Bearer ${app.apiKey}`,
        "content-type": "application/json",
        "idempotency-key": "month-1",
      },
      body: JSON.stringify({ days: 92 }),
    });
    assert.equal(response.status, 200);
    let renewed: Json[] = [];
    for (let tries = 0; renewed.length < 3 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      renewed = await eventsOf(app, "subscription.renewed");
    }
    assert.equal(renewed.length, 3);
    const after = await getJson(app, subscriptionPath(subscription));
    assert.equal(after.currentPeriodStart, "2027-02-21T10:00:00.000Z");
  } finally {
    await server.close();
    await app.close();
  }
});

Deno.test("[subscriptions] the sandbox clock takes whole days and is sandbox only", async (t) => {
  await t.step("validation", async () => {
    const app = await makeTestApp();
    try {
      for (const days of [0, 367, 1.5]) {
        const response = await app.request("POST", "/api/v1/sandbox/clock/advance", { days });
        assert.equal(response.status, 400);
        assert.equal((await response.json()).error.param, "days");
      }
      for (let i = 0; i < 10; i++) await advance(app, 366);
      const beyond = await app.request("POST", "/api/v1/sandbox/clock/advance", { days: 1 });
      assert.equal(beyond.status, 400);
      assert.deepEqual(
        (await beyond.json()).error.message,
        "The sandbox clock may run at most " +
          "3660 days ahead; it is already 3660 days ahead.",
      );
      assert.equal((await getJson(app, "/api/v1/sandbox/clock")).advancedDays, 3660);
    } finally {
      await app.close();
    }
  });
  await t.step("production is 403 sandbox_only", async () => {
    const app = await makeTestApp({ environment: "production" });
    try {
      const response = await app.request("POST", "/api/v1/sandbox/clock/advance", { days: 1 });
      assert.equal(response.status, 403);
      assert.equal(response.headers.get("content-type"), "application/json");
      const { error } = await response.json();
      assert.equal(error.type, "permission");
      assert.equal(error.code, "sandbox_only");
      assert.equal((await app.request("GET", "/api/v1/sandbox/clock")).status, 403);
    } finally {
      await app.close();
    }
  });
});

Deno.test("[subscriptions] subscriptions and the sandbox clock are in the OpenAPI document", async () => {
  const t = await makeTestApp();
  try {
    const document = await getJson(t, "/api/v1/openapi.json");
    const paths = document.paths as Record<string, Record<string, { operationId: string }>>;
    assert.equal(paths["/api/v1/subscriptions"].get.operationId, "listSubscriptions");
    assert.equal(
      paths["/api/v1/subscriptions/{subscriptionId}"].get.operationId,
      "getSubscription",
    );
    assert.equal(
      paths["/api/v1/subscriptions/{subscriptionId}/cancel"].post.operationId,
      "cancelSubscription",
    );
    assert.equal(paths["/api/v1/sandbox/clock/advance"].post.operationId, "advanceSandboxClock");
    const schemas = (document.components as { schemas: Record<string, unknown> }).schemas;
    assert.ok(schemas.Subscription && schemas.SubscriptionList && schemas.SandboxClock);
  } finally {
    await t.close();
  }
});
