import assert from "node:assert/strict";
import {
  checkPublicHost,
  type HostChecker,
  type HostResolver,
  isPublicAddress,
} from "../lib/webhooks/address_policy.ts";
import { sendAttempt } from "../lib/webhooks/delivery/sender.ts";
import { nextAttemptAt, parseRetryAfter } from "../lib/webhooks/delivery/retry.ts";
import { sign, webhookHeaders } from "../lib/webhooks/signing.ts";
import { isSubscriptionPattern, subscribes } from "../lib/webhooks/subscriptions.ts";
import { verifyWebhook, WebhookVerificationError } from "../examples/verify_webhook.ts";
import { startReceiver } from "./webhook_receiver.ts";

Deno.test("[webhooks] only public unicast addresses count as public", () => {
  const notPublic = [
    "0.0.0.0",
    "10.0.0.1",
    "100.64.0.1",
    "127.0.0.1",
    "127.255.255.254",
    "169.254.169.254",
    "172.16.0.1",
    "172.31.255.255",
    "192.0.0.8",
    "192.0.2.1",
    "192.168.0.1",
    "198.18.0.1",
    "198.51.100.7",
    "203.0.113.9",
    "224.0.0.1",
    "240.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "[::1]",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.1.2.3",
    "64:ff9b::10.0.0.1",
    "2002:c0a8:0101::1",
    "2001:db8::1",
    "fc00::1",
    "fd12:3456::1",
    "fe80::1",
    "fe80::1%eth0",
    "ff02::1",
    "not an address",
    "1.2.3",
    "256.1.1.1",
  ];
  for (const address of notPublic) assert.equal(isPublicAddress(address), false, address);
  const publicAddresses = [
    "1.1.1.1",
    "8.8.8.8",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:0808:0808::1",
  ];
  for (const address of publicAddresses) assert.equal(isPublicAddress(address), true, address);
});

Deno.test("[webhooks] every attempt resolves again and connects to the address it checked", async (t) => {
  const receiver = startReceiver();
  const port = new URL(receiver.url).port;
  // `.invalid` never resolves: a request that reaches the receiver went to the checked address.
  const url = `http://hooks.paystead.invalid:${port}/hook`;
  const answers = [["127.0.0.1"], ["10.0.0.1"], ["127.0.0.1"], ["127.0.0.1"]];
  const lookups: string[] = [];
  const resolve: HostResolver = (host) => {
    lookups.push(host);
    return Promise.resolve(answers.shift() ?? []);
  };
  // The receiver is on loopback, so here loopback plays the public address.
  const checkHost: HostChecker = (url, signal) =>
    checkPublicHost(url, resolve, signal, (address) => address === "127.0.0.1");
  const attempt = () =>
    sendAttempt({
      url,
      body: '{"id":"evt_1"}',
      headers: { "content-type": "application/json", "webhook-id": "evt_1" },
      checkHost,
      stop: new AbortController().signal,
      timeoutMs: 10_000,
      now: Date.now(),
    });
  try {
    await t.step("a public answer: delivered there, with the name as Host", async () => {
      const outcome = await attempt();
      assert.equal(outcome.kind, "succeeded");
      assert.equal(outcome.responseStatus, 200);
      assert.equal(outcome.responseBody, "ok");
      assert.equal(receiver.received.length, 1);
      const [received] = receiver.received;
      assert.equal(received.headers.get("host"), `hooks.paystead.invalid:${port}`);
      assert.equal(received.headers.get("webhook-id"), "evt_1");
      assert.equal(received.body, '{"id":"evt_1"}');
    });
    await t.step("the name repointed at a private address: refused, nothing sent", async () => {
      const outcome = await attempt();
      assert.equal(outcome.kind, "failed");
      assert.equal(outcome.errorCode, "address_not_allowed");
      assert.equal(
        outcome.errorMessage,
        "hooks.paystead.invalid resolves to 10.0.0.1, which is not a public address.",
      );
      assert.equal(receiver.received.length, 1);
      assert.deepEqual(lookups, ["hooks.paystead.invalid", "hooks.paystead.invalid"]);
    });
    await t.step("the receiver's status, Retry-After and body come through", async () => {
      receiver.answer = () =>
        new Response("busy", { status: 503, headers: { "Retry-After": "120" } });
      const outcome = await attempt();
      assert.equal(outcome.kind, "failed");
      assert.equal(outcome.errorCode, "http_status");
      assert.equal(outcome.responseStatus, 503);
      assert.equal(outcome.responseBody, "busy");
      assert.equal(outcome.retryAfterMs, 120_000);
      assert.equal(receiver.received.length, 2);
    });
    await t.step("a receiver that never answers: the attempt times out", async () => {
      const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
      const held: Deno.Conn[] = [];
      const accepting = (async () => {
        for await (const conn of silent) held.push(conn);
      })();
      try {
        const outcome = await sendAttempt({
          url: `https://hooks.paystead.invalid:${silent.addr.port}/hook`,
          body: "{}",
          headers: {},
          checkHost,
          stop: new AbortController().signal,
          timeoutMs: 200,
          now: Date.now(),
        });
        assert.equal(outcome.kind, "failed");
        assert.equal(outcome.errorCode, "timeout");
        assert.equal(outcome.errorMessage, "No complete answer within 0.2 s.");
        assert.equal(held.length, 1, "the connection went to the checked address");
      } finally {
        silent.close();
        for (const conn of held) conn.close();
        await accepting.catch(() => {});
      }
    });
  } finally {
    await receiver.close();
  }
});

Deno.test("[webhooks] Retry-After is read as seconds or a date, capped at 24 hours", () => {
  const now = Date.UTC(2026, 10, 21, 10, 0, 0);
  assert.equal(parseRetryAfter(null, now), null);
  assert.equal(parseRetryAfter("120", now), 120_000);
  assert.equal(parseRetryAfter(" 0 ", now), 0);
  assert.equal(parseRetryAfter("Sat, 21 Nov 2026 10:05:00 GMT", now), 300_000);
  assert.equal(parseRetryAfter("Sat, 21 Nov 2026 09:00:00 GMT", now), 0);
  assert.equal(parseRetryAfter("999999999", now), 24 * 3_600_000);
  assert.equal(parseRetryAfter("soon", now), null);
  assert.equal(parseRetryAfter("-5", now), null);
});

Deno.test("[webhooks] the next attempt follows the schedule within ±10 % jitter", () => {
  const schedule = [0, 5_000, 300_000];
  const at = (attempts: number, random: number, retryAfterMs: number | null = null) =>
    nextAttemptAt({ schedule, attempts, now: 0, retryAfterMs, random: () => random });
  assert.equal(at(1, 0), 4_500);
  assert.equal(at(1, 0.5), 5_000);
  assert.equal(at(1, 0.999999), 5_500);
  assert.equal(at(2, 0.5), 300_000);
  assert.equal(at(3, 0.5), null, "the schedule is used up");
  assert.equal(at(1, 0.5, 60_000), 60_000, "Retry-After lengthens");
  assert.equal(at(2, 0.5, 60_000), 300_000, "but never shortens");
  assert.equal(at(0, 0.9), 0, "no jitter on an immediate attempt");
});

Deno.test("[webhooks] subscriptions: '*', exact types and families; never webhook.test", () => {
  for (const pattern of ["*", "payment.*", "checkout.*", "checkout.session.*", "refund.failed"]) {
    assert.equal(isSubscriptionPattern(pattern), true, pattern);
  }
  for (
    const pattern of ["payment", "payment.", "pay*", "*.succeeded", "webhook.*", "webhook.test"]
  ) {
    assert.equal(isSubscriptionPattern(pattern), false, pattern);
  }
  assert.equal(subscribes(["*"], "subscription.renewed"), true);
  assert.equal(subscribes(["payment.*"], "payment.failed"), true);
  assert.equal(subscribes(["payment.*"], "refund.created"), false);
  assert.equal(subscribes(["checkout.*"], "checkout.session.expired"), true);
  assert.equal(subscribes(["refund.succeeded"], "refund.failed"), false);
  assert.equal(subscribes(["*"], "webhook.test"), false);
});

Deno.test("[webhooks] the merchant's verifier accepts good deliveries and refuses the rest", async (t) => {
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw2sEz1r5Fz/8=";
  const other = "whsec_" + btoa("another secret of 32 bytes......");
  const now = Date.UTC(2026, 10, 21, 10, 0, 0);
  const body = '{"id":"evt_1","type":"payment.succeeded"}';
  const headers = webhookHeaders({
    id: "evt_1",
    timestampSeconds: now / 1000,
    body,
    secrets: [secret],
  });
  const verify = (h: Record<string, string>, b = body, secrets: string | string[] = secret) =>
    verifyWebhook(b, h, secrets, { now });

  await t.step("a good delivery returns the event", async () => {
    assert.deepEqual(await verify(headers), { id: "evt_1", type: "payment.succeeded" });
    assert.deepEqual(await verify(headers, body, [other, secret]), JSON.parse(body));
    assert.deepEqual(
      await verifyWebhook(body, new Headers(headers), secret, { now }),
      JSON.parse(body),
    );
  });
  await t.step("any of several signatures may match", async () => {
    const both = {
      ...headers,
      "webhook-signature": `v1,${btoa("x".repeat(32))} ${headers["webhook-signature"]}`,
    };
    assert.deepEqual(await verify(both), JSON.parse(body));
  });
  const refusals: [string, () => Promise<unknown>, RegExp][] = [
    [
      "a changed body",
      () => verify(headers, body.replace("succeeded", "failed")),
      /No webhook-signature/,
    ],
    ["another secret", () => verify(headers, body, other), /No webhook-signature/],
    ["a missing header", () => verify({ ...headers, "webhook-id": "" }), /Missing/],
    ["another id", () => verify({ ...headers, "webhook-id": "evt_2" }), /No webhook-signature/],
    [
      "an old timestamp",
      () => verifyWebhook(body, headers, secret, { now: now + 301_000 }),
      /tolerance/,
    ],
    [
      "a future timestamp",
      () => verifyWebhook(body, headers, secret, { now: now - 301_000 }),
      /tolerance/,
    ],
    [
      "a v2 signature",
      () =>
        verify({
          ...headers,
          "webhook-signature": headers["webhook-signature"].replace("v1,", "v2,"),
        }),
      /No webhook-signature/,
    ],
    ["a bad secret", () => verify(headers, body, "whsec_"), /signing secret/],
    [
      "a non-numeric timestamp",
      () => verify({ ...headers, "webhook-timestamp": "soon" }),
      /Unix time/,
    ],
  ];
  for (const [name, attempt, message] of refusals) {
    await t.step(name, async () => {
      await assert.rejects(attempt(), (error: unknown) => {
        assert.ok(error instanceof WebhookVerificationError);
        assert.match((error as Error).message, message);
        return true;
      });
    });
  }
});

Deno.test("[webhooks] signatures are HMAC-SHA256 over id.timestamp.body with the decoded secret", async () => {
  const secret = "whsec_" + btoa("k".repeat(32));
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode("k".repeat(32)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign(
    "HMAC",
    key,
    new TextEncoder().encode("evt_1.1700000000.{}"),
  );
  const expected = "v1," + btoa(String.fromCharCode(...new Uint8Array(mac)));
  assert.equal(sign(secret, "evt_1", 1700000000, "{}"), expected);
});
