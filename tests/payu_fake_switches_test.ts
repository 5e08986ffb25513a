import assert from "node:assert/strict";
import { startFakePayu } from "../fakes/payu/mod.ts";
import { parseDuration } from "../fakes/shared/duration.ts";
import {
  api,
  fakeWithReceiver,
  orderRequest,
  payuSignature,
  tokenOf,
  waitFor,
} from "./support/payu_fake_helpers.ts";

function statuses(received: { body: string }[]): string[] {
  return received.map((n) => JSON.parse(n.body).order.status);
}

Deno.test("[fake payu switches] duplicates: every notification twice", async () => {
  const { fake, received } = fakeWithReceiver({ switches: { duplicateNotifications: true } });
  await api(fake, "POST", "/api/v2_1/orders", orderRequest(fake, "777123"));
  await fake.idle();
  assert.deepEqual(statuses(received).sort(), ["COMPLETED", "COMPLETED", "PENDING", "PENDING"]);
  assert.equal(
    received[0].body,
    received.find((n, i) => i > 0 && n.body === received[0].body)?.body,
  );
  fake.close();
});

Deno.test("[fake payu switches] reordering: PENDING arrives after COMPLETED", async () => {
  const { fake, received } = fakeWithReceiver({ switches: { reorderNotifications: true } });
  await api(fake, "POST", "/api/v2_1/orders", orderRequest(fake, "777123"));
  await fake.idle();
  assert.deepEqual(statuses(received), ["COMPLETED", "PENDING"]);
  fake.close();
});

Deno.test("[fake payu switches] dropping: nothing is sent, the order is still decided", async () => {
  const { fake, received } = fakeWithReceiver({ switches: { dropNotifications: true } });
  const created = await api(fake, "POST", "/api/v2_1/orders", orderRequest(fake, "777123"));
  await fake.idle();
  assert.equal(received.length, 0);
  assert.deepEqual(fake.notifications().map((n) => [n.status, n.outcome]), [
    ["PENDING", "dropped"],
    ["COMPLETED", "dropped"],
  ]);
  const polled = await api(fake, "GET", `/api/v2_1/orders/${created.body.orderId}`);
  assert.equal(polled.body.orders[0].status, "COMPLETED");
  fake.close();
});

Deno.test("[fake payu switches] a notification is sent again until answered 200", async () => {
  const { fake, received, answers } = fakeWithReceiver({
    switches: { notifyRetryDelaysMs: [0, 0, 0, 0] },
  });
  answers.push(500, 401, 302);
  await api(
    fake,
    "POST",
    "/api/v2_1/orders",
    orderRequest(fake, "777123", { notifyUrl: "http://x.test/n" }),
  );
  await fake.idle();
  assert.deepEqual(fake.notifications().map((n) => n.answer), [500, 401, 302, 200, 200]);
  const delivered = fake.notifications().filter((n) => n.outcome === "delivered");
  assert.deepEqual(delivered.map((n) => n.status).sort(), ["COMPLETED", "PENDING"]);
  assert.equal(received.length, 5);
  fake.close();
});

Deno.test("[fake payu switches] retries stop after the last delay", async () => {
  const { fake, answers } = fakeWithReceiver({
    switches: { notifyRetryDelaysMs: [0, 0], dropNotifications: false },
  });
  answers.push(...Array(10).fill(503));
  fake.set({ notifyDelayMs: 60_000 });
  await api(fake, "POST", "/api/v2_1/orders", orderRequest(fake, "777123"));
  await waitFor(() => fake.notifications().length === 3);
  assert.deepEqual(fake.notifications().map((n) => n.outcome), ["failed", "failed", "failed"]);
  fake.close();
});

Deno.test("[fake payu switches] an unreachable notify URL counts as a failed attempt", async () => {
  const fake = await startFakePayu({
    switches: { notifyDelayMs: 0, confirmTimeoutMs: null, notifyRetryDelaysMs: [0] },
  });
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  try {
    const token = await tokenOfServer(fake.url, fake.credentials);
    const response = await fetch(`${fake.url}/api/v2_1/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        notifyUrl: `http://127.0.0.1:${port}/notify`,
        customerIp: "127.0.0.1",
        merchantPosId: fake.credentials.posId,
        description: "x",
        currencyCode: "PLN",
        totalAmount: "100",
        products: [{ name: "x", unitPrice: "100", quantity: "1" }],
        payMethods: { payMethod: { type: "PBL", value: "blik", authorizationCode: "777123" } },
      }),
    });
    assert.equal(response.status, 201);
    await response.body?.cancel();
    await fake.idle();
    assert.equal(
      fake.notifications().every((n) => n.answer === null && n.outcome === "failed"),
      true,
    );
    assert.equal(fake.notifications().length, 4);
  } finally {
    await fake.close();
  }
});

Deno.test("[fake payu switches] API errors: 500, 503, 408, counted down, nothing done", async (t) => {
  const { fake } = fakeWithReceiver();
  const token = await tokenOf(fake);
  const expected: [500 | 503 | 408, string][] = [
    [500, "ERROR_INTERNAL"],
    [503, "SERVICE_NOT_AVAILABLE"],
    [408, "TIMEOUT"],
  ];
  for (const [status, statusCode] of expected) {
    await t.step(String(status), async () => {
      fake.set({ apiErrorStatus: status, apiErrorRemaining: 2 });
      for (let i = 0; i < 2; i++) {
        const failed = await api(
          fake,
          "POST",
          "/api/v2_1/orders",
          orderRequest(fake, "777123"),
          token,
        );
        assert.equal(failed.status, status);
        assert.equal(failed.body.status.statusCode, statusCode);
      }
      assert.equal(fake.orders().length, 0);
      assert.equal(fake.switches().apiErrorRemaining, 0);
    });
  }
  await t.step("the token endpoint is not affected", async () => {
    fake.set({ apiErrorStatus: 500, apiErrorRemaining: null });
    assert.equal(typeof (await tokenOf(fake)), "string");
    assert.equal((await api(fake, "GET", "/api/v2_1/orders/X", undefined, token)).status, 500);
    assert.equal(fake.switches().apiErrorRemaining, null);
    fake.set({ apiErrorStatus: null });
    assert.equal((await api(fake, "GET", "/api/v2_1/orders/X", undefined, token)).status, 404);
  });
  fake.close();
});

Deno.test("[fake payu switches] slowness: the order is recorded before the slow answer", async () => {
  const { fake } = fakeWithReceiver({ switches: { responseDelayMs: 600_000 } });
  const token = await tokenOf(fake);
  let answered = false;
  const answer = api(fake, "POST", "/api/v2_1/orders", orderRequest(fake, "777123"), token)
    .then((a) => {
      answered = true;
      return a;
    });
  await waitFor(() => fake.orders().length === 1);
  await fake.idle();
  assert.equal(fake.orders()[0].status, "COMPLETED");
  assert.equal(answered, false);
  fake.close(); // ends the wait, as a test stopping the fake would
  assert.equal((await answer).status, 201);
});

Deno.test("[fake payu switches] the signature algorithm is PayU's choice", async () => {
  const { fake, received } = fakeWithReceiver({ switches: { signatureAlgorithm: "SHA-256" } });
  await api(fake, "POST", "/api/v2_1/orders", orderRequest(fake, "777123"));
  await fake.idle();
  for (const notification of received) {
    assert.match(
      notification.signature!,
      /^sender=checkout;signature=[0-9a-f]{64};algorithm=SHA-256;content=DOCUMENT$/,
    );
    assert.equal(
      notification.signature,
      payuSignature(notification.body, fake.credentials.secondKey, "SHA-256"),
    );
    assert.notEqual(notification.signature, payuSignature(notification.body, "other", "SHA-256"));
  }
  fake.close();
});

Deno.test("[fake payu switches] invalid switches are refused", () => {
  const { fake } = fakeWithReceiver();
  assert.throws(() => fake.set({ notifyDelayMs: -1 }), /notifyDelayMs/);
  assert.throws(() => fake.set({ apiErrorStatus: 404 as 500 }), /apiErrorStatus/);
  assert.throws(() => fake.set({ nonsense: true } as never), /Invalid fake PayU switch/);
  assert.equal(fake.switches().notifyDelayMs, 0);
  fake.close();
});

Deno.test("[fake payu switches] durations for the CLI", () => {
  assert.equal(parseDuration("1500"), 1500);
  assert.equal(parseDuration("500ms"), 500);
  assert.equal(parseDuration("2s"), 2000);
  assert.equal(parseDuration("1m"), 60_000);
  for (const bad of ["", "1h", "-1s", "1.5s", "s"]) assert.equal(parseDuration(bad), null, bad);
});

Deno.test("[fake payu switches] the HTTP control surface drives a listening fake", async () => {
  const received: string[] = [];
  const receiver = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      received.push(await request.text());
      return new Response("ok");
    },
  );
  const fake = await startFakePayu({ switches: { confirmTimeoutMs: null } });
  const control = (path: string, init?: RequestInit) =>
    fetch(`${fake.url}/__fake${path}`, init).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
  try {
    const patched = await control("/switches", {
      method: "PATCH",
      body: JSON.stringify({ notifyDelayMs: 0, duplicateNotifications: true }),
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.notifyDelayMs, 0);
    assert.equal(patched.body.duplicateNotifications, true);
    const refused = await control("/switches", {
      method: "PATCH",
      body: '{"notifyDelayMs":"soon"}',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /^notifyDelayMs: /);

    const token = await tokenOfServer(fake.url, fake.credentials);
    const create = await fetch(`${fake.url}/api/v2_1/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        notifyUrl: `http://127.0.0.1:${receiver.addr.port}/notify`,
        customerIp: "127.0.0.1",
        merchantPosId: fake.credentials.posId,
        description: "x",
        currencyCode: "PLN",
        totalAmount: "100",
        extOrderId: "att_http",
        products: [{ name: "x", unitPrice: "100", quantity: "1" }],
        payMethods: { payMethod: { type: "PBL", value: "blik", authorizationCode: "123456" } },
      }),
      redirect: "manual",
    });
    const created = await create.json();
    assert.equal(create.status, 201);
    assert.equal((await control("/idle")).body.idle, true);
    const orders = await control("/orders");
    assert.deepEqual(orders.body.orders.map((o: { status: string }) => o.status), ["PENDING"]);
    const completed = await control(`/orders/${created.orderId}/complete`, { method: "POST" });
    assert.equal(completed.status, 200);
    assert.equal(completed.body.status, "COMPLETED");
    assert.equal(
      (await control(`/orders/${created.orderId}/cancel`, { method: "POST" })).status,
      409,
    );
    assert.equal((await control("/orders/NOPE/complete", { method: "POST" })).status, 404);
    await control("/idle");
    assert.deepEqual(received.map((b) => JSON.parse(b).order.status).sort(), [
      "COMPLETED",
      "COMPLETED",
      "PENDING",
      "PENDING",
    ]);
    const notifications = await control("/notifications");
    assert.equal(notifications.body.notifications.length, 4);
    assert.equal((await control("/tokens/revoke", { method: "POST" })).body.revoked, 1);
    const rejected = await fetch(`${fake.url}/api/v2_1/orders/${created.orderId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(rejected.status, 401);
    await rejected.body?.cancel();
  } finally {
    await fake.close();
    await receiver.shutdown();
  }
});

async function tokenOfServer(
  url: string,
  credentials: { clientId: string; clientSecret: string },
): Promise<string> {
  const response = await fetch(`${url}/pl/standard/user/oauth/authorize`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
    }),
  });
  return (await response.json()).access_token;
}

Deno.test("[fake payu switches] refunds and tokens can be decided from outside", async () => {
  const fake = await startFakePayu({
    switches: { notifyDelayMs: 600_000, confirmTimeoutMs: null },
  });
  const control = (path: string) =>
    fetch(`${fake.url}/__fake${path}`, { method: "POST" }).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
  try {
    const token = await tokenOfServer(fake.url, fake.credentials);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const created = await (await fetch(`${fake.url}/api/v2_1/orders`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        customerIp: "127.0.0.1",
        merchantPosId: fake.credentials.posId,
        description: "x",
        currencyCode: "PLN",
        totalAmount: "100",
        products: [{ name: "x", unitPrice: "100", quantity: "1" }],
        payMethods: { payMethod: { type: "PBL", value: "blik", authorizationCode: "777123" } },
      }),
    })).json();
    assert.equal(fake.decide(created.orderId, "COMPLETED"), true);
    assert.equal(fake.decide(created.orderId, "CANCELED"), false);
    const refund = await (await fetch(`${fake.url}/api/v2_1/orders/${created.orderId}/refunds`, {
      method: "POST",
      headers,
      body: JSON.stringify({ refund: { description: "back", extRefundId: "re_x" } }),
    })).json();
    assert.equal(refund.refund.status, "PENDING");
    const canceled = await control(`/refunds/${refund.refund.refundId}/cancel`);
    assert.equal(canceled.status, 200);
    assert.equal(canceled.body.status, "CANCELED");
    assert.equal((await control(`/refunds/${refund.refund.refundId}/finalize`)).status, 409);
    assert.equal((await control("/refunds/123/finalize")).status, 404);
    assert.equal((await control("/tokens/expire")).body.expired, 1);
    const expired = await fetch(`${fake.url}/api/v2_1/orders/${created.orderId}`, { headers });
    assert.equal(expired.status, 401);
    assert.equal((await expired.json()).status.statusDesc, "Access token expired");
  } finally {
    await fake.close();
  }
});
