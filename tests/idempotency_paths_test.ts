import assert from "node:assert/strict";
import { createTestOffer, createTestPayment, expectError, makeTestApp } from "./support/helpers.ts";

Deno.test("[idempotency] the same key and body sent to another path is 409 and runs nothing", async () => {
  const t = await makeTestApp();
  try {
    const offer = await createTestOffer(t);
    const first = await createTestPayment(t, offer.qrId);
    const second = await createTestPayment(t, offer.qrId);
    const key = { "idempotency-key": "cancel-order-1" };

    const canceled = await t.request("POST", `/api/v1/payments/${first.paymentId}/cancel`, {}, key);
    assert.equal(canceled.status, 200);
    assert.equal((await canceled.json()).status, "CANCELED");

    // Identical body, another payment: replaying the first answer would report a cancel that
    // never happened.
    await expectError(
      await t.request("POST", `/api/v1/payments/${second.paymentId}/cancel`, {}, key),
      409,
      "conflict",
      "idempotency_key_reused",
      "This Idempotency-Key was used with a different request; use a new key for a new request.",
    );
    const untouched = await (await t.request("GET", `/api/v1/payments/${second.paymentId}`))
      .json();
    assert.equal(untouched.status, "PENDING");
    assert.equal(untouched.updatedAt, second.updatedAt);
  } finally {
    await t.close();
  }
});
