import assert from "node:assert/strict";
import { sql } from "kysely";
import {
  createTestOffer,
  createTestPayment,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";
import { allowOrigins, createTestSession } from "./support/checkout_helpers.ts";

async function eventsOf(t: TestApp, paymentId: string): Promise<string[]> {
  const rows = await t.store.db.selectFrom("events").select("type")
    .where("payload", "like", `%${paymentId}%`).orderBy("id").execute();
  return rows.map((row) => row.type);
}

Deno.test("[outbox] a payment's status change and its event commit together or not at all", async (s) => {
  // A write that lost its event would fail later, outside any request: collected here, so
  // the test names what went wrong instead of the runner stopping at the stray rejection.
  const stray: unknown[] = [];
  const collect = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    stray.push(event.reason);
  };
  globalThis.addEventListener("unhandledrejection", collect);
  const t = await makeTestApp();
  try {
    const offer = await createTestOffer(t);
    const canceled = await createTestPayment(t, offer.qrId);
    const completed = await createTestPayment(t, offer.qrId);
    // This test's own database refuses every new event: the insert after the status change fails.
    await t.store.write((trx) =>
      sql`CREATE TRIGGER refuse_events BEFORE INSERT ON events
        BEGIN SELECT RAISE(ABORT, 'events refused by the test'); END`.execute(trx)
    );

    for (
      const [action, payment, body] of [
        ["cancel", canceled, {}],
        ["complete", completed, { code: "777123" }],
      ] as const
    ) {
      await s.step(`${action} fails whole`, async () => {
        const path = `/api/v1/payments/${payment.paymentId}`;
        const response = await t.request("POST", `${path}/${action}`, body);
        assert.equal(response.status, 500);
        assert.equal((await response.json()).error.type, "api");
        const current = await (await t.request("GET", path)).json();
        assert.equal(current.status, "PENDING");
        assert.equal(current.updatedAt, payment.updatedAt);
        assert.deepEqual(await eventsOf(t, payment.paymentId), ["payment.created"]);
        assert.deepEqual(stray, []);
      });
    }

    await s.step("once events can be written, the change goes through with its event", async () => {
      await t.store.write((trx) => sql`DROP TRIGGER refuse_events`.execute(trx));
      const path = `/api/v1/payments/${canceled.paymentId}`;
      const response = await t.request("POST", `${path}/cancel`, {});
      assert.equal(response.status, 200);
      assert.equal((await response.json()).status, "CANCELED");
      assert.deepEqual(await eventsOf(t, canceled.paymentId), [
        "payment.created",
        "payment.canceled",
      ]);
    });
  } finally {
    await t.close();
    globalThis.removeEventListener("unhandledrejection", collect);
  }
});

Deno.test("[outbox] what a payment's change starts commits with it and its event, or not at all", async (s) => {
  const stray: unknown[] = [];
  const collect = (event: PromiseRejectionEvent) => {
    event.preventDefault();
    stray.push(event.reason);
  };
  globalThis.addEventListener("unhandledrejection", collect);
  const t = await makeTestApp();
  /** Makes this test's database refuse new events of one type only. */
  const refuse = (type: string) =>
    t.store.write((trx) =>
      sql`CREATE TRIGGER refuse_events BEFORE INSERT ON events WHEN NEW.type = ${sql.lit(type)}
        BEGIN SELECT RAISE(ABORT, 'events refused by the test'); END`.execute(trx)
    );
  const allow = () => t.store.write((trx) => sql`DROP TRIGGER refuse_events`.execute(trx));
  try {
    await s.step("a checkout session completed by its payment", async () => {
      await allowOrigins(t);
      const offer = await createTestOffer(t);
      const session = await createTestSession(t, offer.qrId);
      await refuse("checkout.session.completed");
      try {
        const path = `/api/v1/checkout-sessions/${session.sessionId}`;
        const response = await t.request("POST", `${path}/complete`, { code: "777123" });
        assert.equal(response.status, 500);
        const current = await (await t.request("GET", path)).json();
        assert.equal(current.status, "OPEN");
        const payment = await (await t.request("GET", `/api/v1/payments/${current.paymentId}`))
          .json();
        assert.equal(payment.status, "PENDING");
        assert.deepEqual(await eventsOf(t, current.paymentId), ["payment.created"]);
        assert.deepEqual(stray, []);
      } finally {
        await allow();
      }
    });

    await s.step("a subscription started by its first payment", async () => {
      const offer = await createTestOffer(t, { recurring: { interval: "MONTH" } });
      const payment = await createTestPayment(t, offer.qrId);
      await refuse("subscription.created");
      try {
        const path = `/api/v1/payments/${payment.paymentId}`;
        const response = await t.request("POST", `${path}/complete`, { code: "777123" });
        assert.equal(response.status, 500);
        assert.equal((await (await t.request("GET", path)).json()).status, "PENDING");
        const subscriptions = await (await t.request("GET", "/api/v1/subscriptions")).json();
        assert.deepEqual(subscriptions.data, []);
        assert.deepEqual(await eventsOf(t, payment.paymentId), ["payment.created"]);
        assert.deepEqual(stray, []);
      } finally {
        await allow();
      }
    });
  } finally {
    await t.close();
    globalThis.removeEventListener("unhandledrejection", collect);
  }
});
