import assert from "node:assert/strict";
import { sql } from "kysely";
import { getJson, paidPayment } from "./support/billing_helpers.ts";
import { allowOrigins, createTestSession } from "./support/checkout_helpers.ts";
import { createTestOffer, makeTestApp, type TestApp } from "./support/helpers.ts";

/** Every event oldest first, as `type id version` of the object it is about. */
async function versionsIn(t: TestApp, idField: string, id: string): Promise<string[]> {
  const page = await (await t.request("GET", "/api/v1/events?order=asc&limit=100")).json();
  return page.data
    .filter((event: { data: Record<string, unknown> }) => event.data[idField] === id)
    .map((event: { type: string; data: { version: number } }) =>
      `${event.type} v${event.data.version}`
    );
}

Deno.test("[versions] every change of an object grows its version, and its events carry it", async (t) => {
  const app = await makeTestApp();
  try {
    await t.step("payments and refunds", async () => {
      const payment = await paidPayment(app);
      assert.equal(payment.version, 3);
      assert.deepEqual(await versionsIn(app, "paymentId", payment.paymentId), [
        "payment.created v1",
        "payment.processing v2",
        "payment.succeeded v3",
      ]);
      const refund = await (await app.request(
        "POST",
        `/api/v1/payments/${payment.paymentId}/refunds`,
        { amount: 100 },
      )).json();
      assert.equal(refund.version, 1);
      // Reserving the refund changed the payment's amountRefunded: a change, so a new version.
      const after = await getJson(app, `/api/v1/payments/${payment.paymentId}`);
      assert.deepEqual([after.amountRefunded, after.version], [100, 4]);
      await app.services.scheduler.runDue();
      const settled = await getJson(app, `/api/v1/refunds/${refund.refundId}`);
      assert.deepEqual([settled.status, settled.version], ["SUCCEEDED", 2]);
      assert.deepEqual(await versionsIn(app, "refundId", refund.refundId), [
        "refund.created v1",
        "refund.succeeded v2",
      ]);
    });

    await t.step("checkout sessions", async () => {
      await allowOrigins(app);
      const offer = await createTestOffer(app);
      const session = await createTestSession(app, offer.qrId);
      assert.equal(session.version, 1);
      const completed = await (await app.request(
        "POST",
        `/api/v1/checkout-sessions/${session.sessionId}/complete`,
        { code: "777123" },
      )).json();
      // Attaching the payment, then completing: two changes.
      assert.deepEqual([completed.status, completed.version], ["COMPLETED", 3]);
      assert.deepEqual(await versionsIn(app, "sessionId", session.sessionId), [
        "checkout.session.completed v3",
      ]);
    });

    await t.step("subscriptions", async () => {
      const payment = await paidPayment(app, { recurring: { interval: "DAY" } });
      const list = await getJson(app, `/api/v1/subscriptions?qrId=${payment.qrId}`);
      const subscription = (list.data as { subscriptionId: string; version: number }[])[0];
      assert.equal(subscription.version, 1);
      await app.request("POST", "/api/v1/sandbox/clock/advance", { days: 1 });
      await app.services.scheduler.runAll();
      const renewed = await getJson(app, `/api/v1/subscriptions/${subscription.subscriptionId}`);
      assert.equal(renewed.version, 2);
      assert.deepEqual(await versionsIn(app, "subscriptionId", subscription.subscriptionId), [
        "subscription.created v1",
        "subscription.renewed v2",
      ]);
    });

    await t.step(
      "each event's version is the one its row had when the event committed",
      async () => {
        // Versions start at 1 and never repeat within an object: the event and the row's change
        // are one transaction, so two events never carry the same version of one object.
        const rows = await sql<{ object: string; events: number; versions: number }>`
        SELECT coalesce(
          json_extract(payload, '$.data.refundId'), json_extract(payload, '$.data.sessionId'),
          json_extract(payload, '$.data.subscriptionId'), json_extract(payload, '$.data.paymentId')
        ) AS object, count(*) AS events,
        count(DISTINCT json_extract(payload, '$.data.version')) AS versions
        FROM events GROUP BY object`.execute(app.store.db);
        assert.ok(rows.rows.length >= 6, `${rows.rows.length} objects`);
        assert.deepEqual(
          rows.rows.filter((row) => Number(row.events) !== Number(row.versions)),
          [],
        );
      },
    );
  } finally {
    await app.close();
  }
});
