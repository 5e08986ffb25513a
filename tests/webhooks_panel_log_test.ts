import assert from "node:assert/strict";
import { PanelAgent, signedInApp } from "./panel_helpers.ts";
import { createTestEndpoint, startReceiver } from "./webhook_receiver.ts";

const JSON_ACCEPT = { accept: "application/json" };

Deno.test("[panel webhooks] the live log reads the newest deliveries as JSON", async (s) => {
  const { t, agent } = await signedInApp();
  const receiver = startReceiver();
  try {
    const endpoint = await createTestEndpoint(t, { url: receiver.url, events: ["*"] });
    const path = `/panel/developers/webhooks/${endpoint.id}/deliveries`;

    await s.step("no deliveries yet", async () => {
      const response = await agent.get(path, JSON_ACCEPT);
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type")!, /^application\/json/);
      assert.deepEqual(await response.json(), { deliveries: [], olderCursor: null });
    });

    await s.step("a test event's delivery, as the page's log shows it", async () => {
      const sent = await agent.post(`/panel/developers/webhooks/${endpoint.id}/test`);
      assert.equal(sent.status, 303);
      assert.equal(
        sent.headers.get("location"),
        `/panel/developers/webhooks/${endpoint.id}?notice=test`,
      );
      const body = await (await agent.get(path, JSON_ACCEPT)).json();
      assert.equal(body.olderCursor, null);
      assert.equal(body.deliveries.length, 1);
      const [delivery] = body.deliveries;
      assert.equal(delivery.endpointId, endpoint.id);
      assert.equal(delivery.eventType, "webhook.test");
      assert.equal(delivery.trigger, "TEST");
    });

    await s.step("a signed-out reader gets the JSON 401", async () => {
      const response = await new PanelAgent(t).get(path, JSON_ACCEPT);
      assert.equal(response.status, 401);
      assert.equal((await response.json()).error.code, "not_signed_in");
    });

    await s.step("an unknown endpoint is 404", async () => {
      const response = await agent.get(
        "/panel/developers/webhooks/we_000000000000000000000000/deliveries",
        JSON_ACCEPT,
      );
      assert.equal(response.status, 404);
      assert.equal((await response.json()).error.code, "resource_not_found");
    });
  } finally {
    await receiver.close();
    await t.close();
  }
});
