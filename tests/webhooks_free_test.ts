import assert from "node:assert/strict";
import { setOrganisationPlan } from "../lib/accounts/organisations.ts";
import type { Plan } from "../lib/plans.ts";
import { createTestOffer, makeTestApp, type TestApp } from "./support/helpers.ts";
import { pageText, signedInApp } from "./support/panel_helpers.ts";
import {
  advanceAndRun,
  createTestEndpoint,
  deliveriesOf,
  eventsOfType,
  startReceiver,
} from "./support/webhook_receiver.ts";

function setPlan(t: TestApp, plan: Plan): Promise<unknown> {
  return setOrganisationPlan(t.accounts, "acme", plan, t.clock.now());
}

/** A customer opens the offer's link: a payment starts, API or not (FREE has none). */
async function openOffer(t: TestApp, qrId: string): Promise<void> {
  const response = await t.app.request(`/o/${qrId}`);
  assert.equal(response.status, 303);
  await t.webhooks.idle();
}

Deno.test("[webhooks] on FREE nothing is delivered, and the events are kept for after an upgrade", async () => {
  const receiver = startReceiver();
  const t = await makeTestApp();
  try {
    await createTestEndpoint(t, { url: receiver.url, events: ["payment.created"] });
    const offer = await createTestOffer(t);
    await openOffer(t, offer.qrId);
    assert.equal(receiver.received.length, 1, "BASIC: delivered");

    await setPlan(t, "FREE");
    await openOffer(t, offer.qrId);
    await openOffer(t, offer.qrId);
    await advanceAndRun(t, 3_600_000);
    assert.equal(receiver.received.length, 1, "FREE: nothing delivered");

    await setPlan(t, "BASIC");
    const events = await eventsOfType(t, "payment.created");
    assert.equal(events.length, 3, "the FREE window's events are kept");
    const [newest, second, first] = events;
    assert.deepEqual(await deliveriesOf(t, newest.id), []);
    assert.deepEqual(await deliveriesOf(t, second.id), []);
    assert.equal((await deliveriesOf(t, first.id)).length, 1);

    await openOffer(t, offer.qrId);
    assert.equal(receiver.received.length, 2, "delivered again after the upgrade");
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] a downgrade to FREE cancels deliveries waiting for a retry", async () => {
  const receiver = startReceiver(() => new Response("down", { status: 503 }));
  const t = await makeTestApp();
  try {
    await createTestEndpoint(t, { url: receiver.url, events: ["payment.created"] });
    const offer = await createTestOffer(t);
    await openOffer(t, offer.qrId);
    assert.equal(receiver.received.length, 1);
    const [event] = await eventsOfType(t, "payment.created");
    assert.equal((await deliveriesOf(t, event.id))[0].status, "PENDING");

    await setPlan(t, "FREE");
    receiver.answer = () => new Response("ok");
    await advanceAndRun(t, 24 * 3_600_000);
    assert.equal(receiver.received.length, 1, "the retry is not attempted");

    await setPlan(t, "BASIC");
    const [delivery] = await deliveriesOf(t, event.id);
    assert.equal(delivery.status, "CANCELED");
    assert.equal(delivery.attemptCount, 1);
    await advanceAndRun(t, 24 * 3_600_000);
    assert.equal(receiver.received.length, 1, "a canceled delivery stays canceled");
  } finally {
    await t.close();
    await receiver.close();
  }
});

Deno.test("[webhooks] the webhooks page of a FREE organisation says nothing is delivered", async () => {
  const { t, agent } = await signedInApp({ plan: "FREE" });
  try {
    const response = await agent.get("/panel/developers/webhooks");
    assert.equal(response.status, 403);
    assert.equal(response.headers.get("content-type"), "text/html; charset=UTF-8");
    const text = pageText(await response.text());
    assert.match(
      text,
      /On FREE no webhook is delivered, to endpoints set up before a downgrade too, and deliveries that were waiting are canceled\. Events are still recorded: after an upgrade, recover an endpoint's deliveries for that time with POST \/api\/v1\/webhook-endpoints\/\{id\}\/recover \./,
    );
  } finally {
    await t.close();
  }
});
