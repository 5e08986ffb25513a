import assert from "node:assert/strict";
import {
  attemptPaymentCode,
  attemptSessionCode,
  loadPaymentPage,
  loadSessionPage,
} from "../lib/checkout/pages.ts";
import { findPublicCheckoutSession } from "../lib/checkout/mod.ts";
import { findPublicPayment } from "../lib/payments/mod.ts";
import { allowOrigins, createTestSession } from "./checkout_helpers.ts";
import { createTestOffer, createTestPayment, makeTestApp } from "./helpers.ts";

const DAY_MS = 86_400_000;

// The customer pages are reached without an API key, yet must run on the organisation's clock:
// a sandbox organisation that moved its clock 30 days ahead stores every time 30 days ahead.
Deno.test("[org time] customer pages and checkout expiry use the organisation's sandbox clock", async (t) => {
  const app = await makeTestApp();
  try {
    const advanced = await app.request("POST", "/api/v1/sandbox/clock/advance", { days: 30 });
    assert.equal(advanced.status, 200);
    const offer = await createTestOffer(app);
    await allowOrigins(app);
    const orgNow = app.clock.now() + 30 * DAY_MS;

    await t.step("a session page counts down from the organisation's time", async () => {
      const session = await createTestSession(app, offer.qrId, { expiresInMinutes: 10 });
      assert.equal(session.expiresAt, new Date(orgNow + 600_000).toISOString());
      const page = await loadSessionPage(app.services, session.sessionId);
      assert.equal(page?.expiresInSeconds, 600);
      assert.equal(page?.state.phase, "ready");

      app.clock.advance(600_000);
      await app.services.scheduler.runDue();
      const expired = await findPublicCheckoutSession(app.services, session.sessionId);
      assert.equal(expired?.status, "EXPIRED");
      assert.equal(expired?.expired_at, orgNow + 600_000);
      app.clock.advance(-600_000);
    });

    await t.step("a code typed on a session page pays in the organisation's time", async () => {
      const session = await createTestSession(app, offer.qrId);
      const record = (await findPublicCheckoutSession(app.services, session.sessionId))!;
      const state = await attemptSessionCode(app.services, record, "777123");
      assert.equal(state.phase, "succeeded");
      const payment = (await findPublicPayment(app.services, state.paymentId!))!;
      assert.equal(payment.succeeded_at, orgNow);
    });

    await t.step("a hosted page pays in the organisation's time", async () => {
      const created = await createTestPayment(app, offer.qrId, { expiresInMinutes: 5 });
      const page = await loadPaymentPage(app.services, created.paymentId);
      assert.equal(page?.expiresInSeconds, 300);
      const state = await attemptPaymentCode(app.services, page!.payment, "777123");
      assert.equal(state.phase, "succeeded");
      const paid = (await findPublicPayment(app.services, created.paymentId))!;
      assert.equal(paid.succeeded_at, orgNow);
    });
  } finally {
    await app.close();
  }
});
