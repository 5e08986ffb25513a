import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { demoApiKey, startPaystead } from "./support/processes.ts";

const EVENTS = 300;
const RETRIES = {
  LOG_LEVEL: "error",
  WEBHOOK_RETRY_SCHEDULE: "0,100ms,200ms,400ms,800ms,1s,1s,2s,2s,2s",
};

async function waitFor(condition: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

Deno.test("[webhooks] a server killed mid-delivery delivers every event after a restart", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-crash-" });
  let verifier: Webhook | null = null;
  const bodies = new Map<string, Set<string>>();
  const answered = new Set<string>();
  const failedOnce = new Set<string>();
  let requests = 0;
  let badSignatures = 0;
  const receiver = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    const id = req.headers.get("webhook-id")!;
    requests++;
    try {
      verifier!.verify(body, Object.fromEntries(req.headers));
    } catch {
      badSignatures++;
    }
    const seen = bodies.get(id) ?? new Set();
    seen.add(body);
    bodies.set(id, seen);
    // Slow enough that attempts are in flight when the server dies; a third of the events
    // fail their first attempt.
    await new Promise((resolve) => setTimeout(resolve, 150));
    if (id.charCodeAt(id.length - 1) % 3 === 0 && !failedOnce.has(id)) {
      failedOnce.add(id);
      return new Response("flaky", { status: 500 });
    }
    answered.add(id);
    return new Response("ok");
  });
  const hook = `http://127.0.0.1:${receiver.addr.port}/hook`;
  let server = await startPaystead(dataDir, RETRIES);
  try {
    const apiKey = await demoApiKey(server);
    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(server.url + path, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = await response.json();
      if (!response.ok) {
        throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
      }
      return json;
    };
    const endpoint = await api("POST", "/api/v1/webhook-endpoints", { url: hook });
    verifier = new Webhook(endpoint.secret);
    const offer = await api("POST", "/api/v1/qr", { name: "Tea", amount: 900, currency: "PLN" });
    for (let batch = 0; batch < EVENTS / 25; batch++) {
      await Promise.all(
        Array.from({ length: 25 }, () => api("POST", "/api/v1/payments", { qrId: offer.qrId })),
      );
    }
    await waitFor(() => answered.size >= 40, 20_000, "the first deliveries");
    await server.stop("SIGKILL");
    const deliveredBeforeCrash = answered.size;
    assert.ok(deliveredBeforeCrash < EVENTS, "killed while deliveries were still going on");

    server = await startPaystead(dataDir, RETRIES);
    const events: string[] = [];
    let cursor = "";
    for (;;) {
      const page = await api("GET", `/api/v1/events?type=payment.created&limit=100${cursor}`);
      events.push(...page.data.map((event: { id: string }) => event.id));
      if (!page.hasMore) break;
      cursor = `&startingAfter=${page.data.at(-1).id}`;
    }
    assert.equal(events.length, EVENTS);
    await waitFor(
      () => events.every((id) => answered.has(id)),
      30_000,
      "every event to be delivered after the restart",
    );

    // Every event was delivered with a 2xx, and nothing else was delivered.
    assert.deepEqual([...bodies.keys()].sort(), [...events].sort());
    assert.equal(badSignatures, 0);
    // The webhook-id is stable: every request for an id carried the same bytes, whose id it is.
    for (const [id, seen] of bodies) {
      assert.equal(seen.size, 1, id);
      assert.equal(JSON.parse([...seen][0]).id, id);
    }
    // Attempts cut short by the kill were recorded as lost and made again.
    let lost = 0;
    for (const id of events) {
      const { data } = await api("GET", `/api/v1/events/${id}/deliveries`);
      assert.equal(data.length, 1);
      assert.equal(data[0].status, "SUCCEEDED", id);
      lost += data[0].attempts.filter((a: { errorCode: string }) => a.errorCode === "lease_expired")
        .length;
    }
    assert.ok(lost > 0, "some attempts were in flight at the kill");
    assert.ok(requests >= EVENTS);
  } finally {
    await server.stop("SIGTERM");
    await receiver.shutdown();
    await Deno.remove(dataDir, { recursive: true });
  }
});
