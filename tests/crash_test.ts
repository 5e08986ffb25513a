import assert from "node:assert/strict";
import { demoApiKey, startPaystead } from "./support/processes.ts";

Deno.test({
  name: "[crash] no acknowledged payment is lost when the server is killed with SIGKILL",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "paystead-crash-" });
    let server = await startPaystead(dataDir);
    try {
      const key = await demoApiKey(server);
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const offer = await (await fetch(`${server.url}/api/v1/qr`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Crash test", amount: 100, currency: "PLN" }),
      })).json();

      const acknowledged: string[] = [];
      let failures = 0;
      let killed = false;
      const client = async () => {
        while (!killed) {
          try {
            const response = await fetch(`${server.url}/api/v1/payments`, {
              method: "POST",
              headers,
              body: JSON.stringify({ qrId: offer.qrId }),
            });
            const body = await response.json();
            if (response.status === 201) acknowledged.push(body.paymentId);
          } catch {
            failures++;
            return;
          }
        }
      };
      const clients = Array.from({ length: 16 }, client);
      const deadline = Date.now() + 30_000;
      while (acknowledged.length < 300) {
        assert.ok(
          Date.now() < deadline,
          `only ${acknowledged.length} payments acknowledged in 30 s`,
        );
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const status = await server.stop("SIGKILL");
      killed = true;
      await Promise.all(clients);
      assert.equal(status.signal, "SIGKILL");
      assert.ok(failures > 0, "the kill should interrupt requests in flight");

      server = await startPaystead(dataDir, {}, server.port);
      const missing: string[] = [];
      for (const paymentId of acknowledged) {
        const response = await fetch(`${server.url}/api/v1/payments/${paymentId}`, { headers });
        if (response.status !== 200) missing.push(`${paymentId} ${response.status}`);
        await response.body?.cancel();
      }
      assert.deepEqual(
        missing,
        [],
        `${missing.length} of ${acknowledged.length} acknowledged payments lost`,
      );
      // The restart found the same organisation and key: no second demo was created.
      assert.ok(!/First start/.test(server.output()));
    } finally {
      await server.stop("SIGKILL");
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
