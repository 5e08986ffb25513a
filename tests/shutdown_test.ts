import assert from "node:assert/strict";
import { demoApiKey, startPaystead } from "./support/processes.ts";

Deno.test({
  name: "[shutdown] SIGTERM turns new requests away, finishes the one in flight, exits 0",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "paystead-drain-" });
    let server = await startPaystead(dataDir, { LOG_LEVEL: "info" });
    try {
      const key = await demoApiKey(server);
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const offer = await (await fetch(`${server.url}/api/v1/qr`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Drain", amount: 100, currency: "PLN" }),
      })).json();

      // A request still in flight when the signal arrives: its body trickles in for 1.5 s.
      const encoder = new TextEncoder();
      const pieces = [`{"qrId":"${offer.qrId}"`, ...Array(15).fill(" "), "}"];
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          const piece = pieces.shift();
          if (piece === undefined) return controller.close();
          await new Promise((resolve) => setTimeout(resolve, 100));
          controller.enqueue(encoder.encode(piece));
        },
      });
      const slow = fetch(`${server.url}/api/v1/payments`, { method: "POST", headers, body });
      await new Promise((resolve) => setTimeout(resolve, 300));
      server.process.kill("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 200));

      const refused = await fetch(`${server.url}/readyz`);
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get("connection"), "close");
      assert.equal(refused.headers.get("retry-after"), "1");
      assert.equal((await refused.json()).error.code, "service_unavailable");
      const response = await slow;
      assert.equal(response.status, 201, server.logs());
      const payment = await response.json();
      const status = await server.exited();
      assert.equal(status.code, 0);
      assert.match(server.logs(), /"message":"stopped","signal":"SIGTERM"/);
      await assert.rejects(fetch(`${server.url}/healthz`), "the listener is closed once drained");

      server = await startPaystead(dataDir, {}, server.port);
      const stored = await fetch(`${server.url}/api/v1/payments/${payment.paymentId}`, { headers });
      assert.equal(stored.status, 200);
      assert.equal((await stored.json()).status, "PENDING");
    } finally {
      await server.stop("SIGKILL");
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
