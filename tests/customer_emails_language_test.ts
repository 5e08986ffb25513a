import assert from "node:assert/strict";
import { pathOf } from "./support/checkout_helpers.ts";
import { SHOP_DETAILS } from "./support/customer_helpers.ts";
import { createTestOffer, createTestPayment, makeTestApp } from "./support/helpers.ts";

Deno.test("[customer e-mails] a payment with locale auto paid on ?lang=en: English confirmation and refund notice", async () => {
  const t = await makeTestApp();
  try {
    await t.request("PUT", "/api/v1/business-details", SHOP_DETAILS);
    const offer = await createTestOffer(t, { name: "Coffee", amount: 1250, currency: "PLN" });
    const payment = await createTestPayment(t, offer.qrId, {
      customer: { email: "jan@example.com" },
    });
    const path = pathOf(payment.paymentUrl as string);
    const paid = await t.app.request(`${path}?lang=en`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "sec-fetch-site": "same-origin",
      },
      body: JSON.stringify({ code: "777123" }),
    });
    assert.equal(paid.status, 200);
    await t.services.scheduler.runDue();
    await t.emails.idle();
    const refund = await t.request("POST", `/api/v1/payments/${payment.paymentId}/refunds`, {
      amount: 1250,
    });
    assert.equal(refund.status, 201);
    await t.services.scheduler.runDue();
    await t.emails.idle();
    const rows = await t.store.db.selectFrom("customer_emails")
      .select(["kind", "status", "language"]).orderBy("id").execute();
    assert.deepEqual(rows.map((row) => [row.kind, row.language]), [
      ["PAYMENT_CONFIRMATION", "en"],
      ["REFUND_NOTICE", "en"],
    ]);
  } finally {
    await t.close();
  }
});
