import assert from "node:assert/strict";
import { expectError } from "./support/helpers.ts";
import { demoApiKey, startPaystead } from "./support/processes.ts";

const EVENTS = 20;

async function waitFor(condition: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

Deno.test("[webhooks] recoveries of shifted windows never send a delivered event again", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-recover-" });
  const received: string[] = [];
  const receiver = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.text();
    received.push(req.headers.get("webhook-id")!);
    return new Response("ok");
  });
  const server = await startPaystead(dataDir, { LOG_LEVEL: "error" });
  try {
    const apiKey = await demoApiKey(server);
    const call = (method: string, path: string, body?: unknown) =>
      fetch(server.url + path, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await call(method, path, body);
      const json = await response.json();
      assert.ok(response.ok, `${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };
    const since = new Date().toISOString();
    const endpoint = await api("POST", "/api/v1/webhook-endpoints", {
      url: `http://127.0.0.1:${receiver.addr.port}/hook`,
      events: ["payment.created"],
    });
    const offer = await api("POST", "/api/v1/qr", { name: "Tea", amount: 900, currency: "PLN" });
    for (let i = 0; i < EVENTS; i++) await api("POST", "/api/v1/payments", { qrId: offer.qrId });
    await waitFor(() => received.length >= EVENTS, 20_000, "the events' deliveries");
    const delivered = new Set(received);
    assert.equal(delivered.size, EVENTS);

    // 21 recoveries whose windows differ by a millisecond queue nothing: all was delivered.
    const recover = `/api/v1/webhook-endpoints/${endpoint.id}/recover`;
    const until = Date.now();
    for (let shift = 0; shift <= 20; shift++) {
      const response = await call("POST", recover, {
        since,
        until: new Date(until - shift).toISOString(),
      });
      assert.equal(response.status, 201);
      const recovery = await response.json();
      assert.equal(recovery.queued, 0);
      assert.equal(recovery.includeDelivered, false);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(received.length, EVENTS);

    // Re-sending what was delivered is asked for explicitly, and only once an hour.
    const resend = await call("POST", recover, { since, includeDelivered: true });
    assert.equal(resend.status, 201);
    const recovery = await resend.json();
    assert.equal(recovery.queued, EVENTS);
    assert.equal(recovery.includeDelivered, true);
    await waitFor(() => received.length >= 2 * EVENTS, 20_000, "the re-sent deliveries");
    assert.deepEqual(new Set(received.slice(EVENTS)), delivered);

    const again = await call("POST", recover, {
      since,
      until: new Date(until - 1).toISOString(),
      includeDelivered: true,
    });
    const retryAfter = Number(again.headers.get("retry-after"));
    assert.ok(retryAfter > 3500 && retryAfter <= 3600, `Retry-After: ${retryAfter}`);
    await expectError(
      again,
      429,
      "rate_limit",
      "recovery_rate_limited",
      "This endpoint re-sent delivered events less than an hour ago; recover without " +
        `includeDelivered, or retry in ${retryAfter} s.`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(received.length, 2 * EVENTS);
  } finally {
    await server.stop();
    await receiver.shutdown();
    await Deno.remove(dataDir, { recursive: true });
  }
});
