import assert from "node:assert/strict";
import { sql } from "kysely";
import {
  createTestOffer,
  createTestPayment,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";

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
