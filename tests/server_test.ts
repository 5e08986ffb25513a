import assert from "node:assert/strict";
import { demoApiKey, startPaystead } from "./support/processes.ts";

Deno.test({
  name: "[server] first start creates and prints the demo organisation; a restart does not",
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "paystead-start-" });
    let server = await startPaystead(dataDir);
    try {
      const key = await demoApiKey(server);
      const output = server.output();
      assert.match(output, new RegExp(`Paystead sandbox is running on port ${server.port}\\.`));
      assert.match(output, new RegExp(`API: +${server.url.replaceAll(".", "\\.")}/api/v1`));
      assert.match(output, new RegExp(`Panel: +${server.url.replaceAll(".", "\\.")}/panel\n`));
      assert.match(output, /Login: +owner@demo\.paystead\.test /);
      assert.match(
        output,
        /First start: created the demo organisation 'demo' \(plan ENTERPRISE\)\./,
      );
      assert.match(output, /Login: +owner@demo\.paystead\.test/);
      assert.match(
        output,
        /Password: +[0-9A-Za-z]{20} +\(one-time; choose your own at first sign-in\)/,
      );
      const response = await fetch(`${server.url}/api/v1/qr`, {
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(response.status, 200);
      await response.body?.cancel();

      const status = await server.stop("SIGTERM");
      assert.equal(status.code, 0);
      server = await startPaystead(dataDir, {}, server.port);
      assert.doesNotMatch(server.output(), /First start/);
      const again = await fetch(`${server.url}/api/v1/qr`, {
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(again.status, 200);
      await again.body?.cancel();
    } finally {
      await server.stop("SIGKILL");
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});

Deno.test({
  name: "[server] production never creates a demo organisation",
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "paystead-prod-" });
    const server = await startPaystead(dataDir, { PAYSTEAD_ENV: "production" });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.match(server.output(), /Paystead production is running/);
      assert.doesNotMatch(server.output(), /demo/);
    } finally {
      await server.stop("SIGKILL");
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
