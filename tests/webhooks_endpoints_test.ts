import assert from "node:assert/strict";
import { createOrganisation } from "../lib/accounts/organisations.ts";
import { createApiKey } from "../lib/api_keys.ts";
import type { HostResolver } from "../lib/webhooks/address_policy.ts";
import { createTestOffer, createTestPayment, makeTestApp } from "./support/helpers.ts";
import { createTestEndpoint, deliveriesOf, eventsOfType } from "./support/webhook_receiver.ts";

const ID = /^we_[0-9A-Za-z]{24}$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const NOW = "2026-11-21T10:00:00.000Z";

async function errorOf(response: Response) {
  assert.equal(response.headers.get("content-type"), "application/json");
  return (await response.json()).error;
}

Deno.test("[webhooks] registering an endpoint returns its secret once; reads never do", async () => {
  const t = await makeTestApp();
  try {
    const created = await t.request("POST", "/api/v1/webhook-endpoints", {
      url: "http://localhost:4000/hooks",
      events: ["payment.*", "refund.succeeded", "payment.*"],
      description: "Order service",
    });
    assert.equal(created.status, 201);
    assert.equal(created.headers.get("content-type"), "application/json");
    const body = await created.json();
    assert.match(body.id, ID);
    assert.match(body.secret, SECRET);
    assert.equal(Buffer.from(body.secret.slice(6), "base64").length, 32);
    const resource = {
      id: body.id,
      url: "http://localhost:4000/hooks",
      description: "Order service",
      events: ["payment.*", "refund.succeeded"],
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      createdAt: NOW,
      updatedAt: NOW,
    };
    assert.deepEqual(body, { ...resource, secret: body.secret });

    const read = await t.request("GET", `/api/v1/webhook-endpoints/${body.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.headers.get("content-type"), "application/json");
    assert.deepEqual(await read.json(), resource);

    const list = await t.request("GET", "/api/v1/webhook-endpoints");
    assert.equal(list.status, 200);
    assert.deepEqual(await list.json(), { data: [resource], hasMore: false });

    const reveal = await t.request("GET", `/api/v1/webhook-endpoints/${body.id}/secret`);
    assert.equal(reveal.status, 200);
    assert.equal(reveal.headers.get("cache-control"), "no-store");
    assert.deepEqual(await reveal.json(), { secret: body.secret, previousSecretExpiresAt: null });
  } finally {
    await t.close();
  }
});

Deno.test("[webhooks] invalid registrations are 400 with the field named", async (t) => {
  const app = await makeTestApp();
  try {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ url: "ftp://shop.example/h" }, "url", /http/],
      [{ url: "https://user:pw@shop.example/h" }, "url", /user name or password/],
      [{ url: "https://shop.example/h#x" }, "url", /fragment/],
      [{ url: "https://shop.example/h", events: ["payment.settled"] }, "events.0", /event type/],
      [{ url: "https://shop.example/h", events: ["webhook.test"] }, "events.0", /event type/],
      [{ url: "https://shop.example/h", events: [] }, "events", /./],
      [{ url: "https://shop.example/h", secret: "whsec_x" }, "secret", /Unknown field/],
    ];
    for (const [body, param, message] of cases) {
      await t.step(JSON.stringify(body), async () => {
        const response = await app.request("POST", "/api/v1/webhook-endpoints", body);
        assert.equal(response.status, 400);
        const error = await errorOf(response);
        assert.equal(error.type, "invalid_request");
        assert.equal(error.param, param);
        assert.match(error.message, message);
      });
    }
  } finally {
    await app.close();
  }
});

Deno.test("[webhooks] production takes only https URLs that resolve to public addresses", async (t) => {
  const dns: Record<string, string[]> = {
    "shop.example": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
    "intranet.example": ["93.184.216.34", "10.1.2.3"],
    "metadata.example": ["169.254.169.254"],
    "mapped.example": ["::ffff:127.0.0.1"],
  };
  const resolveHost: HostResolver = (host) => Promise.resolve(dns[host] ?? []);
  const app = await makeTestApp({ environment: "production", resolveHost });
  try {
    const refused: [string, RegExp][] = [
      ["http://shop.example/h", /https:\/\/ URL in production/],
      ["https://localhost/h", /localhost/],
      ["https://127.0.0.1/h", /loopback, private/],
      ["https://[::1]/h", /loopback, private/],
      ["https://[fd00::1]/h", /loopback, private/],
      ["https://192.168.1.10/h", /loopback, private/],
      ["https://0x7f000001/h", /loopback, private/],
      ["https://intranet.example/h", /resolves to 10\.1\.2\.3, which is not a public address/],
      ["https://metadata.example/h", /resolves to 169\.254\.169\.254/],
      ["https://mapped.example/h", /resolves to ::ffff:127\.0\.0\.1/],
      ["https://nowhere.example/h", /has no A or AAAA record/],
    ];
    for (const [url, message] of refused) {
      await t.step(url, async () => {
        const response = await app.request("POST", "/api/v1/webhook-endpoints", { url });
        assert.equal(response.status, 400);
        const error = await errorOf(response);
        assert.equal(error.code, "parameter_invalid");
        assert.equal(error.param, "url");
        assert.match(error.message, message);
      });
    }
    await t.step("a public host is accepted", async () => {
      const response = await app.request("POST", "/api/v1/webhook-endpoints", {
        url: "https://shop.example/h",
      });
      assert.equal(response.status, 201);
      assert.equal((await response.json()).url, "https://shop.example/h");
    });
    await t.step("a PATCH to a private URL is refused too", async () => {
      const [endpoint] = (await (await app.request("GET", "/api/v1/webhook-endpoints")).json())
        .data;
      const response = await app.request("PATCH", `/api/v1/webhook-endpoints/${endpoint.id}`, {
        url: "https://10.0.0.1/h",
      });
      assert.equal(response.status, 400);
      assert.equal((await errorOf(response)).param, "url");
    });
  } finally {
    await app.close();
  }
});

Deno.test("[webhooks] the sandbox accepts http and localhost", async () => {
  const t = await makeTestApp();
  try {
    for (
      const url of ["http://localhost:3000/h", "http://127.0.0.1:9/h", "https://shop.example/h"]
    ) {
      const response = await t.request("POST", "/api/v1/webhook-endpoints", { url });
      assert.equal(response.status, 201, url);
    }
  } finally {
    await t.close();
  }
});

Deno.test("[webhooks] PATCH changes, disables and re-enables; DELETE hides the endpoint", async () => {
  const t = await makeTestApp();
  try {
    const endpoint = await createTestEndpoint(t, { url: "http://127.0.0.1:9/h" });
    const path = `/api/v1/webhook-endpoints/${endpoint.id}`;
    t.clock.advance(1000);

    const changed = await t.request("PATCH", path, {
      url: "http://127.0.0.1:9/other",
      events: ["refund.*"],
      description: "Refunds",
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.headers.get("content-type"), "application/json");
    const changedBody = await changed.json();
    assert.deepEqual(
      [changedBody.url, changedBody.events, changedBody.description, changedBody.updatedAt],
      ["http://127.0.0.1:9/other", ["refund.*"], "Refunds", "2026-11-21T10:00:01.000Z"],
    );

    const disabled = await t.request("PATCH", path, { enabled: false, description: null });
    assert.equal(disabled.status, 200);
    const disabledBody = await disabled.json();
    assert.equal(disabledBody.enabled, false);
    assert.equal(disabledBody.disabledReason, "MANUAL");
    assert.equal(disabledBody.disabledAt, "2026-11-21T10:00:01.000Z");
    assert.equal(disabledBody.description, null);

    const enabled = await t.request("PATCH", path, { enabled: true });
    const enabledBody = await enabled.json();
    assert.equal(enabledBody.enabled, true);
    assert.equal(enabledBody.disabledReason, null);
    assert.equal(enabledBody.disabledAt, null);

    const deleted = await t.request("DELETE", path);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.headers.get("content-type"), "application/json");
    assert.deepEqual(await deleted.json(), { id: endpoint.id, deleted: true });

    for (
      const [method, suffix] of [["GET", ""], ["PATCH", ""], ["DELETE", ""], ["GET", "/secret"]]
    ) {
      const response = await t.request(method, path + suffix, method === "PATCH" ? {} : undefined);
      assert.equal(response.status, 404, `${method} ${suffix}`);
      const error = await errorOf(response);
      assert.equal(error.code, "resource_not_found");
      assert.equal(error.message, `No webhook endpoint with id '${endpoint.id}'.`);
    }
    const list = await (await t.request("GET", "/api/v1/webhook-endpoints")).json();
    assert.deepEqual(list, { data: [], hasMore: false });
  } finally {
    await t.close();
  }
});

Deno.test("[webhooks] another organisation's endpoints and events are 404", async () => {
  const t = await makeTestApp();
  try {
    const other = await createOrganisation(
      t.accounts,
      { slug: "globex", name: "Globex", plan: "BASIC" },
      t.clock.now(),
    );
    const otherKey = await createApiKey(t.store, {
      orgId: other.id,
      name: "other",
      environment: "sandbox",
      now: t.clock.now(),
    });
    const endpoint = await createTestEndpoint(t, { url: "http://127.0.0.1:9/h" });
    await t.request("POST", `/api/v1/webhook-endpoints/${endpoint.id}/test`);
    const [event] = await eventsOfType(t, "webhook.test");
    const asOther = (method: string, path: string) =>
      t.request(method, path, undefined, { authorization: `Bearer ${otherKey.secret}` });
    for (
      const [method, path] of [
        ["GET", `/api/v1/webhook-endpoints/${endpoint.id}`],
        ["GET", `/api/v1/webhook-endpoints/${endpoint.id}/secret`],
        ["POST", `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`],
        ["POST", `/api/v1/webhook-endpoints/${endpoint.id}/test`],
        ["DELETE", `/api/v1/webhook-endpoints/${endpoint.id}`],
        ["GET", `/api/v1/events/${event.id}/deliveries`],
        ["POST", `/api/v1/events/${event.id}/resend`],
      ]
    ) {
      const response = await asOther(method, path);
      assert.equal(response.status, 404, `${method} ${path}`);
      assert.equal((await errorOf(response)).code, "resource_not_found");
    }
    const list = await (await asOther("GET", "/api/v1/webhook-endpoints")).json();
    assert.deepEqual(list, { data: [], hasMore: false });
    await t.webhooks.idle();
  } finally {
    await t.close();
  }
});

Deno.test("[webhooks] an organisation has at most 16 endpoints", async () => {
  const t = await makeTestApp();
  try {
    for (let index = 0; index < 16; index++) {
      await createTestEndpoint(t, { url: `http://127.0.0.1:9/h${index}` });
    }
    const response = await t.request("POST", "/api/v1/webhook-endpoints", {
      url: "http://127.0.0.1:9/h16",
    });
    assert.equal(response.status, 409);
    const error = await errorOf(response);
    assert.equal(error.type, "conflict");
    assert.equal(error.code, "webhook_endpoint_limit_reached");
  } finally {
    await t.close();
  }
});

Deno.test("[webhooks] endpoint lists paginate newest first", async () => {
  const t = await makeTestApp();
  try {
    const ids = [];
    for (let index = 0; index < 3; index++) {
      ids.push((await createTestEndpoint(t, { url: `http://127.0.0.1:9/h${index}` })).id);
    }
    const first = await (await t.request("GET", "/api/v1/webhook-endpoints?limit=2")).json();
    assert.deepEqual(first.data.map((e: { id: string }) => e.id), [ids[2], ids[1]]);
    assert.equal(first.hasMore, true);
    const second = await (await t.request(
      "GET",
      `/api/v1/webhook-endpoints?limit=2&startingAfter=${ids[1]}`,
    )).json();
    assert.deepEqual(second.data.map((e: { id: string }) => e.id), [ids[0]]);
    assert.equal(second.hasMore, false);
  } finally {
    await t.close();
  }
});

Deno.test("[webhooks] rotating keeps the old secret valid for 24 hours", async () => {
  const t = await makeTestApp();
  try {
    const endpoint = await createTestEndpoint(t, { url: "http://127.0.0.1:9/h" });
    const rotated = await t.request(
      "POST",
      `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`,
    );
    assert.equal(rotated.status, 200);
    assert.equal(rotated.headers.get("content-type"), "application/json");
    const body = await rotated.json();
    assert.match(body.secret, SECRET);
    assert.notEqual(body.secret, endpoint.secret);
    const reveal = await (await t.request("GET", `/api/v1/webhook-endpoints/${endpoint.id}/secret`))
      .json();
    assert.deepEqual(reveal, {
      secret: body.secret,
      previousSecretExpiresAt: "2026-11-22T10:00:00.000Z",
    });
    t.clock.advance(24 * 3_600_000);
    const later = await (await t.request("GET", `/api/v1/webhook-endpoints/${endpoint.id}/secret`))
      .json();
    assert.deepEqual(later, { secret: body.secret, previousSecretExpiresAt: null });
  } finally {
    await t.close();
  }
});

Deno.test("[webhooks] an Idempotency-Key replays the creation with the same secret", async () => {
  const t = await makeTestApp();
  try {
    const send = () =>
      t.request("POST", "/api/v1/webhook-endpoints", { url: "http://127.0.0.1:9/h" }, {
        "idempotency-key": "endpoint-1",
      });
    const first = await send();
    const second = await send();
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.equal(second.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(await second.json(), await first.json());
    const list = await (await t.request("GET", "/api/v1/webhook-endpoints")).json();
    assert.equal(list.data.length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("[webhooks] unknown events and endpoints are 404; resend without a target is 409", async () => {
  const t = await makeTestApp();
  try {
    const missing = await t.request(
      "GET",
      "/api/v1/events/evt_000000000000000000000000/deliveries",
    );
    assert.equal(missing.status, 404);
    assert.equal(
      (await errorOf(missing)).message,
      "No event with id 'evt_000000000000000000000000'.",
    );

    const offer = await createTestOffer(t);
    await createTestPayment(t, offer.qrId);
    const [event] = await eventsOfType(t, "payment.created");
    const noTarget = await t.request("POST", `/api/v1/events/${event.id}/resend`);
    assert.equal(noTarget.status, 409);
    assert.equal((await errorOf(noTarget)).code, "no_webhook_endpoint_subscribed");

    const unknownEndpoint = await t.request("POST", `/api/v1/events/${event.id}/resend`, {
      endpointId: "we_000000000000000000000000",
    });
    assert.equal(unknownEndpoint.status, 404);
    assert.equal((await errorOf(unknownEndpoint)).param, "endpointId");

    const endpoint = await createTestEndpoint(t, { url: "http://127.0.0.1:9/h", enabled: false });
    assert.equal(endpoint.disabledReason, "MANUAL");
    const disabled = await t.request("POST", `/api/v1/events/${event.id}/resend`, {
      endpointId: endpoint.id,
    });
    assert.equal(disabled.status, 409);
    assert.equal((await errorOf(disabled)).code, "webhook_endpoint_disabled");
    assert.deepEqual(await deliveriesOf(t, event.id), []);
  } finally {
    await t.close();
  }
});

Deno.test("[webhooks] the OpenAPI document describes the webhook operations", async () => {
  const t = await makeTestApp();
  try {
    const response = await t.request("GET", "/api/v1/openapi.json");
    assert.equal(response.status, 200);
    const document = await response.json();
    for (
      const path of [
        "/api/v1/webhook-endpoints",
        "/api/v1/webhook-endpoints/{id}",
        "/api/v1/webhook-endpoints/{id}/rotate-secret",
        "/api/v1/webhook-endpoints/{id}/secret",
        "/api/v1/webhook-endpoints/{id}/test",
        "/api/v1/webhook-endpoints/{id}/records",
        "/api/v1/events/{id}/deliveries",
        "/api/v1/events/{id}/resend",
      ]
    ) {
      assert.ok(document.paths[path], path);
    }
    assert.ok(document.components.schemas.WebhookDelivery);
    assert.ok(document.components.schemas.WebhookEndpointWithSecret);
  } finally {
    await t.close();
  }
});
