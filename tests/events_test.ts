import assert from "node:assert/strict";
import { Event } from "../lib/events.ts";
import { createTestOffer, createTestPayment, expectError, makeTestApp } from "./support/helpers.ts";

Deno.test("[events] list newest first, filter by type, get by id", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const a = await createTestPayment(app, offer.qrId);
    app.clock.advance(1000);
    await app.request("POST", `/api/v1/payments/${a.paymentId}/complete`, { code: "777123" });
    const b = await createTestPayment(app, offer.qrId);
    await app.request("POST", `/api/v1/payments/${b.paymentId}/cancel`);

    const all = (await (await app.request("GET", "/api/v1/events")).json()).data.map((e: unknown) =>
      Event.parse(e)
    );
    assert.deepEqual(all.map((event: Event) => `${event.type} ${event.data.paymentId}`), [
      `payment.canceled ${b.paymentId}`,
      `payment.created ${b.paymentId}`,
      `payment.succeeded ${a.paymentId}`,
      `payment.processing ${a.paymentId}`,
      `payment.created ${a.paymentId}`,
    ]);
    assert.equal(new Set(all.map((event: Event) => event.id)).size, 5);
    assert.equal(all[2].createdAt, "2026-11-21T10:00:01.000Z");

    const succeeded = await (await app.request("GET", "/api/v1/events?type=payment.succeeded"))
      .json();
    assert.deepEqual(succeeded.data.map((event: Event) => event.id), [all[2].id]);

    const page =
      await (await app.request("GET", `/api/v1/events?limit=2&startingAfter=${all[1].id}`)).json();
    assert.deepEqual(page.data.map((event: Event) => event.id), [all[2].id, all[3].id]);
    assert.equal(page.hasMore, true);

    const one = await app.request("GET", `/api/v1/events/${all[0].id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(await one.json(), all[0]);

    await expectError(
      await app.request("GET", "/api/v1/events/evt_nope"),
      404,
      "not_found",
      "resource_not_found",
      "No event with id 'evt_nope'.",
    );
    await expectError(
      await app.request("GET", "/api/v1/events?type=payment.done"),
      400,
      "invalid_request",
      "parameter_invalid",
    );
  } finally {
    await app.close();
  }
});
