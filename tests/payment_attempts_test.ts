import assert from "node:assert/strict";
import { findDueCheckoutSessions } from "../db/checkout_sessions.ts";
import { insertAttempt, listAttemptsOfPayment } from "../db/payment_attempts.ts";
import { findExpiredPendingPayments, findPaymentByPublicId } from "../db/payments.ts";
import { openAttempt } from "../lib/payments/attempts.ts";
import { allowOrigins, createTestSession } from "./support/checkout_helpers.ts";
import { createTestOffer, createTestPayment, makeTestApp } from "./support/helpers.ts";

const MINUTE = 60_000;

const BLIK = { method: "blik", code: "777123" } as const;
const PAYER = { ip: "127.0.0.1", language: null };

Deno.test("[attempts] an open attempt holds its payment: no second attempt, no cancel, no expiry", async () => {
  const t = await makeTestApp();
  try {
    await allowOrigins(t);
    const offer = await createTestOffer(t);
    const created = await createTestPayment(t, offer.qrId, { expiresInMinutes: 1 });
    const payment = (await findPaymentByPublicId(t.store.db, created.paymentId))!;
    // A process died right after committing the attempt: the provider never answered.
    const attempt = await t.store.write((trx) =>
      openAttempt(trx, t.services, payment, BLIK, PAYER, {
        orgNow: t.clock.now(),
        now: t.clock.now(),
      })
    );
    assert.equal(attempt.status, "OPEN");
    assert.equal(attempt.check_at, t.clock.now() + MINUTE);

    await assert.rejects(
      t.store.write((trx) =>
        openAttempt(trx, t.services, payment, BLIK, PAYER, {
          orgNow: t.clock.now(),
          now: t.clock.now(),
        })
      ),
      { code: "payment_processing" },
    );
    await assert.rejects(
      t.store.write((trx) => insertAttempt(trx, { ...attempt, public_id: "att_second" })),
      /UNIQUE constraint failed/,
    );
    const code = await t.request("POST", `/api/v1/payments/${created.paymentId}/complete`, {
      code: "777123",
    });
    assert.equal(code.status, 409);
    assert.equal((await code.json()).error.code, "payment_processing");
    const cancel = await t.request("POST", `/api/v1/payments/${created.paymentId}/cancel`);
    assert.equal(cancel.status, 409);

    t.clock.advance(2 * MINUTE);
    assert.deepEqual(await findExpiredPendingPayments(t.store.db, t.clock.now(), 10), []);

    // The minute's sweep asks the simulator, which has no order for it: the attempt fails and
    // the payment may expire.
    await t.services.scheduler.runAll();
    const [failed] = await listAttemptsOfPayment(t.store.db, payment.id);
    assert.equal(failed.status, "FAILED");
    assert.equal(failed.failure_code, "provider_unavailable");
    await t.services.scheduler.runDue();
    const after = await (await t.request("GET", `/api/v1/payments/${created.paymentId}`)).json();
    assert.equal(after.status, "EXPIRED");
  } finally {
    await t.close();
  }
});

Deno.test("[attempts] a checkout session with an open attempt does not expire under it", async () => {
  const t = await makeTestApp();
  try {
    await allowOrigins(t);
    const offer = await createTestOffer(t);
    const session = await createTestSession(t, offer.qrId, { expiresInMinutes: 1 });
    // The session's first code: its payment and attempt are committed, the provider is slow.
    const answered = t.request("POST", `/api/v1/checkout-sessions/${session.sessionId}/complete`, {
      code: "600600",
    });
    assert.equal((await answered).status, 200);
    t.clock.advance(2 * MINUTE);
    const due = await findDueCheckoutSessions(t.store.db, t.clock.now(), 10);
    assert.deepEqual(due, []);
    await t.services.scheduler.runDue();
    const after = await (await t.request("GET", `/api/v1/checkout-sessions/${session.sessionId}`))
      .json();
    assert.equal(after.status, "EXPIRED");
    const payment = await (await t.request("GET", `/api/v1/payments/${after.paymentId}`)).json();
    assert.equal(payment.status, "FAILED");
    assert.equal(payment.failureCode, "timeout");
  } finally {
    await t.close();
  }
});
