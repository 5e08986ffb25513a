import assert from "node:assert/strict";
import {
  attemptPaymentCode,
  attemptSessionCode,
  loadPaymentPage,
  loadSessionPage,
} from "../lib/checkout/pages.ts";
import { findPublicCheckoutSession } from "../lib/checkout/mod.ts";
import { findPublicPayment } from "../lib/payments/mod.ts";
import { allowOrigins, createTestSession } from "./support/checkout_helpers.ts";
import { orgContextOnClock } from "../lib/sandbox_clock.ts";
import { createTestOffer, createTestPayment, makeTestApp } from "./support/helpers.ts";
import { readCounted } from "./support/read_counted.ts";
import { createTestEndpoint, startReceiver } from "./support/webhook_receiver.ts";

const DAY_MS = 86_400_000;

// The customer pages are reached without an API key, yet must run on the organisation's clock:
// a sandbox organisation that moved its clock 30 days ahead stores every time 30 days ahead.
import { CustomerDetailsInput } from "../lib/payments/customer_details.ts";
/** A request that says nothing about the customer's language. */
const NO_LANGUAGE = { query: null, acceptLanguage: null };
/** A code with nothing entered beside it. */
const NO_DETAILS = CustomerDetailsInput.parse({});

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
      const page = await loadSessionPage(app.services, session.sessionId, NO_LANGUAGE);
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
      const state = await attemptSessionCode(
        app.services,
        record,
        "777123",
        { ip: "127.0.0.1", request: NO_LANGUAGE },
        NO_DETAILS,
      );
      assert.equal(state.phase, "succeeded");
      const payment = (await findPublicPayment(app.services, state.paymentId!))!;
      assert.equal(payment.succeeded_at, orgNow);
    });

    await t.step("a hosted page pays in the organisation's time", async () => {
      const created = await createTestPayment(app, offer.qrId, { expiresInMinutes: 5 });
      const page = await loadPaymentPage(app.services, created.paymentId, NO_LANGUAGE);
      assert.equal(page?.expiresInSeconds, 300);
      const state = await attemptPaymentCode(app.services, page!.payment, "777123", {
        ip: "127.0.0.1",
        request: NO_LANGUAGE,
      }, NO_DETAILS);
      assert.equal(state.phase, "succeeded");
      const paid = (await findPublicPayment(app.services, created.paymentId))!;
      assert.equal(paid.succeeded_at, orgNow);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[org time] webhooks of an organisation ahead in time are sent now, on real time", async () => {
  const receiver = startReceiver();
  const app = await makeTestApp();
  try {
    await app.request("POST", "/api/v1/sandbox/clock/advance", { days: 30 });
    const endpoint = await createTestEndpoint(app, { url: `${receiver.url}/hook` });
    const response = await app.request("POST", `/api/v1/webhook-endpoints/${endpoint.id}/test`);
    assert.equal(response.status, 202);
    const delivery = await response.json();
    assert.equal(delivery.nextAttemptAt, new Date(app.clock.now()).toISOString());
    await app.webhooks.idle();
    assert.equal(receiver.received.length, 1);
    const sent = JSON.parse(receiver.received[0].body);
    assert.equal(sent.createdAt, new Date(app.clock.now() + 30 * DAY_MS).toISOString());

    await app.request("POST", `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`);
    const secret =
      await (await app.request("GET", `/api/v1/webhook-endpoints/${endpoint.id}/secret`))
        .json();
    assert.equal(secret.previousSecretExpiresAt, new Date(app.clock.now() + DAY_MS).toISOString());
  } finally {
    await app.close();
    await receiver.close();
  }
});

Deno.test("[org time] requests arriving while the clock's offset is read wait for that read", async () => {
  const app = await makeTestApp();
  try {
    const read: string[] = [];
    const services = { ...app.services, store: readCounted(app.store, read) };
    const advanced = await app.request("POST", "/api/v1/sandbox/clock/advance", { days: 2 });
    assert.equal(advanced.status, 200);
    const contexts = await Promise.all(
      Array.from({ length: 5 }, () => orgContextOnClock(services, app.orgId)),
    );
    assert.deepEqual(read, ["sandbox_clocks"], "one read for the five");
    assert.deepEqual(contexts.map((ctx) => ctx.now() - app.clock.now()), Array(5).fill(2 * DAY_MS));
  } finally {
    await app.close();
  }
});
