import assert from "node:assert/strict";
import { newEventRow } from "../lib/events.ts";
import { paidPayment } from "./support/billing_helpers.ts";
import {
  createOtherOrganisation,
  expectError,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";
import { pageText, signedInApp } from "./support/panel_helpers.ts";

async function createEndpoint(t: TestApp, events: string[]): Promise<{ id: string }> {
  const response = await t.request("POST", "/api/v1/webhook-endpoints", {
    url: "http://localhost:9/hooks",
    events,
  });
  assert.equal(response.status, 201, await response.clone().text());
  return await response.json();
}

/** The deliveries of an event, as `endpointId trigger`. */
async function deliveriesOf(t: TestApp, eventId: string): Promise<string[]> {
  const page = await (await t.request("GET", `/api/v1/events/${eventId}/deliveries`)).json();
  return page.data.map((delivery: { endpointId: string; trigger: string }) =>
    `${delivery.endpointId} ${delivery.trigger}`
  );
}

async function eventsOfType(t: TestApp, type: string): Promise<{ id: string }[]> {
  return (await (await t.request("GET", `/api/v1/events?order=asc&type=${type}`)).json()).data;
}

Deno.test("[webhooks] recover queues the window's subscribed events once per window", async (t) => {
  const app = await makeTestApp();
  try {
    const start = new Date(app.clock.now()).toISOString();
    await paidPayment(app);
    app.clock.advance(60_000);
    const middle = new Date(app.clock.now()).toISOString();
    await paidPayment(app);
    app.clock.advance(60_000);
    // Another organisation's events in the same window are never recovered here.
    const { key: otherKey } = await createOtherOrganisation(app);
    const offer = await (await app.app.request("/api/v1/qr", {
      method: "POST",
      headers: { authorization: `Bearer ${otherKey.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Tea", amount: 900, currency: "PLN" }),
    })).json();
    await app.app.request("/api/v1/payments", {
      method: "POST",
      headers: { authorization: `Bearer ${otherKey.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ qrId: offer.qrId }),
    });

    const endpoint = await createEndpoint(app, ["payment.succeeded"]);
    const path = `/api/v1/webhook-endpoints/${endpoint.id}/recover`;
    const succeeded = await eventsOfType(app, "payment.succeeded");
    assert.equal(succeeded.length, 2);
    // The endpoint was created after these events: fan-out never sent them.
    assert.deepEqual(await deliveriesOf(app, succeeded[0].id), []);

    await t.step("a window holds the events created in [since, until) of its types", async () => {
      const response = await app.request("POST", path, { since: start, until: middle });
      assert.equal(response.status, 201);
      assert.equal(response.headers.get("content-type"), "application/json");
      const recovery = await response.json();
      assert.match(recovery.id, /^wrc_[0-9A-Za-z]{24}$/);
      assert.deepEqual(recovery, {
        id: recovery.id,
        endpointId: endpoint.id,
        since: start,
        until: middle,
        includeDelivered: false,
        queued: 1,
        createdAt: new Date(app.clock.now()).toISOString(),
      });
      assert.deepEqual(await deliveriesOf(app, succeeded[0].id), [`${endpoint.id} RECOVERY`]);
      assert.deepEqual(await deliveriesOf(app, succeeded[1].id), []);

      const again = await app.request("POST", path, { since: start, until: middle });
      assert.equal(again.status, 200);
      assert.deepEqual(await again.json(), recovery);
      assert.deepEqual(await deliveriesOf(app, succeeded[0].id), [`${endpoint.id} RECOVERY`]);
    });

    await t.step("until defaults to now; pending deliveries are not queued twice", async () => {
      const response = await app.request("POST", path, { since: start });
      assert.equal(response.status, 201);
      const recovery = await response.json();
      assert.equal(recovery.until, new Date(app.clock.now()).toISOString());
      // The first event's recovery delivery is still pending: only the second is new.
      assert.equal(recovery.queued, 1);
      assert.deepEqual(await deliveriesOf(app, succeeded[0].id), [`${endpoint.id} RECOVERY`]);
      assert.deepEqual(await deliveriesOf(app, succeeded[1].id), [`${endpoint.id} RECOVERY`]);
      const created = await eventsOfType(app, "payment.created");
      assert.deepEqual(await deliveriesOf(app, created[0].id), []);
    });

    await t.step("includeDelivered is a window of its own, once an hour per endpoint", async () => {
      const first = await app.request("POST", path, {
        since: start,
        until: middle,
        includeDelivered: true,
      });
      assert.equal(first.status, 201);
      const recovery = await first.json();
      assert.equal(recovery.includeDelivered, true);
      // The window's event is still pending for the endpoint: it is not queued twice.
      assert.equal(recovery.queued, 0);
      const same = await app.request("POST", path, {
        since: start,
        until: middle,
        includeDelivered: true,
      });
      assert.equal(same.status, 200);
      assert.deepEqual(await same.json(), recovery);

      app.clock.advance(60 * 60 * 1000 - 1000);
      const soon = await app.request("POST", path, { since: middle, includeDelivered: true });
      assert.equal(soon.headers.get("retry-after"), "1");
      await expectError(
        soon,
        429,
        "rate_limit",
        "recovery_rate_limited",
        "This endpoint re-sent delivered events less than an hour ago; recover without " +
          "includeDelivered, or retry in 1 s.",
      );
      app.clock.advance(1000);
      const later = await app.request("POST", path, { since: middle, includeDelivered: true });
      assert.equal(later.status, 201);
    });

    await t.step("bad windows, unknown and disabled endpoints change nothing", async () => {
      await expectError(
        await app.request("POST", path, { since: middle, until: start }),
        400,
        "invalid_request",
        "parameter_invalid",
        "since must be before until.",
      );
      const future = new Date(app.clock.now() + 60_000).toISOString();
      await expectError(
        await app.request("POST", path, { since: start, until: future }),
        400,
        "invalid_request",
        "parameter_invalid",
      );
      await expectError(
        await app.request("POST", path, { since: "yesterday" }),
        400,
        "invalid_request",
        "parameter_invalid",
      );
      await expectError(
        await app.request("POST", path, { since: start, extra: 1 }),
        400,
        "invalid_request",
        "parameter_unknown",
      );
      await expectError(
        await app.request("POST", "/api/v1/webhook-endpoints/we_unknown/recover", { since: start }),
        404,
        "not_found",
        "resource_not_found",
      );
      await app.request("PATCH", `/api/v1/webhook-endpoints/${endpoint.id}`, { enabled: false });
      await expectError(
        await app.request("POST", path, { since: start, until: middle }),
        409,
        "conflict",
        "webhook_endpoint_disabled",
      );
      const asOther = await app.app.request(path, {
        method: "POST",
        headers: { authorization: `Bearer ${otherKey.secret}`, "content-type": "application/json" },
        body: JSON.stringify({ since: start }),
      });
      await expectError(asOther, 404, "not_found", "resource_not_found");
    });
  } finally {
    await app.close();
  }
});

Deno.test("[webhooks] a window of more than 10,000 events is refused whole, never cut short", async () => {
  const app = await makeTestApp();
  try {
    const start = app.clock.now();
    // Straight into the outbox, a millisecond apart: 10,001 payments through the API would take
    // minutes.
    const rows = Array.from({ length: 10_001 }, (_, i) =>
      newEventRow({
        orgId: app.orgId,
        type: "payment.created",
        environment: "sandbox",
        createdAt: start + i,
        data: { paymentId: `pay_${i}` },
      }));
    for (let i = 0; i < rows.length; i += 1_000) {
      await app.store.write((trx) =>
        trx.insertInto("events").values(rows.slice(i, i + 1_000)).execute()
      );
    }
    app.clock.advance(60_000);
    // Made after the events, so fan-out never queued them: only a recovery would.
    const endpoint = await createEndpoint(app, ["payment.created"]);
    const path = `/api/v1/webhook-endpoints/${endpoint.id}/recover`;
    const since = new Date(start).toISOString();
    const refused = await expectError(
      await app.request("POST", path, { since }),
      400,
      "invalid_request",
      "recovery_window_too_large",
      "The window holds more than 10000 events to queue for this endpoint; recover it in shorter windows.",
    );
    assert.equal(refused.error.param, "since");
    const queued = await app.store.db.selectFrom("webhook_deliveries")
      .select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    assert.equal(Number(queued.n), 0);
    const recoveries = await app.store.db.selectFrom("webhook_recoveries").selectAll().execute();
    assert.deepEqual(recoveries, []);

    // A shorter window of the same time goes through.
    const until = new Date(start + 2).toISOString();
    const shorter = await app.request("POST", path, { since, until });
    assert.equal(shorter.status, 201);
    assert.equal((await shorter.json()).queued, 2);
  } finally {
    await app.close();
  }
});

Deno.test("[panel webhooks] re-enabling offers to recover the time it was off", async () => {
  const { t, agent } = await signedInApp();
  try {
    const created = await t.request("POST", "/api/v1/webhook-endpoints", {
      url: "http://localhost:9/hooks",
    });
    const endpoint = await created.json();
    const path = `/panel/developers/webhooks/${endpoint.id}`;
    const off = new Date(t.clock.now()).toISOString();
    assert.equal((await agent.post(`${path}/disable`)).status, 303);
    t.clock.advance(60_000);
    await paidPayment(t);
    t.clock.advance(60_000);
    const enabled = await agent.post(`${path}/enable`);
    assert.equal(enabled.status, 303);
    const on = new Date(t.clock.now()).toISOString();
    assert.equal(
      enabled.headers.get("location"),
      `${path}?since=${off}&until=${on}&notice=enabled`,
    );

    const page = await (await agent.get(enabled.headers.get("location")!)).text();
    assert.match(pageText(page), /Recover the events of the time it was off below/);
    assert.match(page, new RegExp(`name="since"[^>]*value="${off}"`));
    assert.match(page, new RegExp(`name="until"[^>]*value="${on}"`));

    const recovered = await agent.post(`${path}/recover`, { since: off, until: on });
    assert.equal(recovered.status, 303);
    assert.equal(recovered.headers.get("location"), `${path}?notice=recovered`);
    const log = pageText(await (await agent.get(`${path}?notice=recovered`)).text());
    assert.match(log, /Events queued again/);
    assert.match(log, /payment\.succeeded.*· recovery/);

    const bad = await agent.post(`${path}/recover`, { since: "soon" });
    assert.equal(bad.status, 400);
    assert.match(pageText(await bad.text()), /'since'/);
  } finally {
    await t.close();
  }
});
