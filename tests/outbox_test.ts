import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestOffer, createTestPayment, makeTestApp, type TestApp } from "./helpers.ts";

async function eventTypes(t: TestApp): Promise<string[]> {
  const rows = await t.store.db.selectFrom("events").select("type").orderBy("id").execute();
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
    const payment = await createTestPayment(t, offer.qrId);
    const path = `/api/v1/payments/${payment.paymentId}`;
    // This test's own database refuses every new event: the insert after the status change fails.
    await t.store.write((trx) =>
      sql`CREATE TRIGGER refuse_events BEFORE INSERT ON events
        BEGIN SELECT RAISE(ABORT, 'events refused by the test'); END`.execute(trx)
    );

    for (
      const [name, action, body] of [
        ["cancel", "cancel", {}],
        ["complete", "complete", { code: "777123" }],
      ] as const
    ) {
      await s.step(`${name} fails whole`, async () => {
        const response = await t.request("POST", `${path}/${action}`, body);
        assert.equal(response.status, 500);
        assert.equal((await response.json()).error.type, "api");
        const current = await (await t.request("GET", path)).json();
        assert.equal(current.status, "PENDING");
        assert.equal(current.updatedAt, payment.updatedAt);
        assert.deepEqual(await eventTypes(t), ["payment.created"]);
        assert.deepEqual(stray, []);
      });
    }

    await s.step("once events can be written, the change goes through with its event", async () => {
      await t.store.write((trx) => sql`DROP TRIGGER refuse_events`.execute(trx));
      // The failed complete had reached the provider: its attempt holds the payment until the
      // provider is asked about it (the simulator never recorded an order, so it frees it).
      t.clock.advance(60_000);
      await t.services.scheduler.runAll();
      const response = await t.request("POST", `${path}/cancel`, {});
      assert.equal(response.status, 200);
      assert.equal((await response.json()).status, "CANCELED");
      assert.deepEqual(await eventTypes(t), ["payment.created", "payment.canceled"]);
    });
  } finally {
    await t.close();
    globalThis.removeEventListener("unhandledrejection", collect);
  }
});
