import assert from "node:assert/strict";
import { otherOrganisation } from "./support/billing_helpers.ts";
import { SHOP_ORIGIN } from "./support/checkout_helpers.ts";
import { expectError, makeTestApp, type TestApp } from "./support/helpers.ts";
import { pageText, signedInApp } from "./support/panel_helpers.ts";
import { startReceiver } from "./support/webhook_receiver.ts";

type Request = TestApp["request"];

/** One id of every kind a list pages through. */
interface Ids {
  qrId: string;
  paymentId: string;
  refundId: string;
  /** Production's PayU charges no renewals, so it has no subscriptions. */
  subscriptionId?: string;
  eventId: string;
  endpointId: string;
  deliveryId: string;
  recordId?: string;
}

async function created(response: Response, what: string) {
  if (response.status !== 200 && response.status !== 201) {
    throw new Error(`${what}: ${response.status} ${await response.text()}`);
  }
  return await response.json();
}

/**
 * Gives an organisation one of everything: an endpoint (a receiver answering 410 disables it
 * with a record), a paid payment (in the sandbox of a recurring offer: a subscription), a
 * refund, and the events and deliveries they make. Payment goes through the hosted page.
 */
async function seed(t: TestApp, request: Request, endpointUrl: string): Promise<Ids> {
  const endpoint = await created(
    await request("POST", "/api/v1/webhook-endpoints", { url: endpointUrl }),
    "endpoint",
  );
  const offer = await created(
    await request("POST", "/api/v1/qr", {
      name: "Plan",
      amount: 5000,
      currency: "PLN",
      ...(t.config.environment === "sandbox" && { recurring: { interval: "MONTH" } }),
    }),
    "offer",
  );
  const payment = await created(
    await request("POST", "/api/v1/payments", { qrId: offer.qrId }),
    "payment",
  );
  await created(
    await t.app.request(new URL(payment.paymentUrl).pathname, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json",
        "sec-fetch-site": "same-origin",
      },
      body: JSON.stringify({ code: "777123" }),
    }),
    "pay",
  );
  // Production's PayU (the test's fake) confirms the code and notifies the app.
  await t.payu?.idle();
  const paid = await created(await request("GET", `/api/v1/payments/${payment.paymentId}`), "get");
  assert.equal(paid.status, "SUCCEEDED");
  const refund = await created(
    await request("POST", `/api/v1/payments/${payment.paymentId}/refunds`, { amount: 100 }),
    "refund",
  );
  await t.payu?.idle();
  await t.webhooks.idle();
  const [subscription] = (await created(await request("GET", "/api/v1/subscriptions"), "subs"))
    .data;
  const [event] = (await created(
    await request("GET", "/api/v1/events?type=payment.created"),
    "events",
  )).data;
  const [delivery] = (await created(
    await request("GET", `/api/v1/events/${event.id}/deliveries`),
    "deliveries",
  )).data;
  const [record] = (await created(
    await request("GET", `/api/v1/webhook-endpoints/${endpoint.id}/records`),
    "records",
  )).data;
  return {
    qrId: offer.qrId,
    paymentId: payment.paymentId,
    refundId: refund.refundId,
    subscriptionId: subscription?.subscriptionId,
    eventId: event.id,
    endpointId: endpoint.id,
    deliveryId: delivery.id,
    recordId: record?.id,
  };
}

/** Every list, paged after `cursor` (an id of the same kind), in `own`'s organisation. */
function lists(own: Ids, cursor: Ids): [string, string, string | undefined][] {
  return [
    ["offers", "/api/v1/qr", cursor.qrId],
    ["payments", "/api/v1/payments", cursor.paymentId],
    ["refunds", `/api/v1/payments/${own.paymentId}/refunds`, cursor.refundId],
    ["subscriptions", "/api/v1/subscriptions", cursor.subscriptionId],
    ["events", "/api/v1/events", cursor.eventId],
    ["deliveries", `/api/v1/events/${own.eventId}/deliveries`, cursor.deliveryId],
    ["webhook endpoints", "/api/v1/webhook-endpoints", cursor.endpointId],
    ["endpoint records", `/api/v1/webhook-endpoints/${own.endpointId}/records`, cursor.recordId],
  ];
}

Deno.test("[lists] a startingAfter of another organisation or environment is 400 on every list", async (s) => {
  const receiver = startReceiver(() => new Response("gone", { status: 410 }));
  const t = await makeTestApp();
  // Public when the endpoint is registered, then the loopback: attempts are refused before
  // connecting, so nothing leaves the test.
  let lookups = 0;
  const production = await makeTestApp({
    environment: "production",
    resolveHost: () => Promise.resolve(lookups++ === 0 ? ["93.184.216.34"] : ["127.0.0.1"]),
  });
  try {
    const own = await seed(t, t.request, receiver.url);
    const other = await otherOrganisation(t);
    const theirs = await seed(t, other.request, receiver.url);
    const elsewhere = await seed(production, production.request, "https://hooks.example/x");
    const [refused] = (await (await production.request(
      "GET",
      `/api/v1/events/${elsewhere.eventId}/deliveries`,
    )).json()).data[0].attempts;
    assert.equal(refused.errorCode, "address_not_allowed");
    assert.ok(own.recordId && theirs.recordId, "410 answers recorded a disable");

    const sources = [["another organisation", theirs], ["production", elsewhere]] as const;
    for (const [index, [list, path, cursor]] of lists(own, own).entries()) {
      await s.step(`${list}: its own cursor pages on`, async () => {
        const response = await t.request("GET", `${path}?startingAfter=${cursor}`);
        assert.equal(response.status, 200);
        assert.deepEqual(await response.json(), { data: [], hasMore: false });
      });
      for (const [source, ids] of sources) {
        const foreign = lists(own, ids)[index][2];
        if (foreign === undefined) continue;
        await s.step(`${list}: a cursor of ${source} is 400`, async () => {
          await expectError(
            await t.request("GET", `${path}?startingAfter=${foreign}`),
            400,
            "invalid_request",
            "parameter_invalid",
            `startingAfter: no item with id '${foreign}' in this list.`,
          );
        });
      }
    }
  } finally {
    await production.close();
    await t.close();
    await receiver.close();
  }
});

Deno.test("[lists] the panel's lists refuse a startingAfter of another organisation", async (s) => {
  const receiver = startReceiver();
  const { t, agent } = await signedInApp();
  try {
    const other = await otherOrganisation(t);
    const seedPanel = async (request: Request) => {
      const endpoint = await created(
        await request("POST", "/api/v1/webhook-endpoints", { url: receiver.url }),
        "endpoint",
      );
      await created(
        await request("PUT", "/api/v1/checkout-settings", { allowedOrigins: [SHOP_ORIGIN] }),
        "settings",
      );
      const offer = await created(
        await request("POST", "/api/v1/qr", { name: "Tea", amount: 900, currency: "PLN" }),
        "offer",
      );
      const payment = await created(
        await request("POST", "/api/v1/payments", { qrId: offer.qrId }),
        "payment",
      );
      const session = await created(
        await request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
          embedLink: `${SHOP_ORIGIN}/checkout`,
        }),
        "session",
      );
      await t.webhooks.idle();
      const [event] = (await created(
        await request("GET", "/api/v1/events?type=payment.created"),
        "events",
      )).data;
      const [delivery] = (await created(
        await request("GET", `/api/v1/events/${event.id}/deliveries`),
        "deliveries",
      )).data;
      return {
        endpointId: endpoint.id as string,
        qrId: offer.qrId as string,
        paymentId: payment.paymentId as string,
        sessionId: session.sessionId as string,
        deliveryId: delivery.id as string,
      };
    };
    const own = await seedPanel(t.request);
    const theirs = await seedPanel(other.request);
    const pages: [string, string, string, string][] = [
      ["offers", "/panel/offers", own.qrId, theirs.qrId],
      ["payments", "/panel/payments", own.paymentId, theirs.paymentId],
      ["checkout sessions", "/panel/developers/checkout", own.sessionId, theirs.sessionId],
      [
        "an endpoint's delivery log",
        `/panel/developers/webhooks/${own.endpointId}`,
        own.deliveryId,
        theirs.deliveryId,
      ],
    ];
    for (const [list, path, mine, foreign] of pages) {
      await s.step(list, async () => {
        assert.equal((await agent.get(`${path}?startingAfter=${mine}`)).status, 200);
        const refused = await agent.get(`${path}?startingAfter=${foreign}`);
        assert.equal(refused.status, 400);
        assert.match(
          pageText(await refused.text()),
          new RegExp(`startingAfter: no item with id '${foreign}' in this list\\.`),
        );
      });
    }
  } finally {
    await t.close();
    await receiver.close();
  }
});
