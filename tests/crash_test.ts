import assert from "node:assert/strict";
import { demoApiKey, startPaystead } from "./support/processes.ts";
import { startSqld } from "./support/sqld.ts";

/**
 * Kills a server under 16 clients creating payments, each under its own Idempotency-Key, and
 * checks after a restart that every acknowledged payment is there and its key replays it.
 */
async function killUnderCreates(dataDir: string, env: Record<string, string> = {}) {
  let server = await startPaystead(dataDir, env);
  try {
    const key = await demoApiKey(server);
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const offer = await (await fetch(`${server.url}/api/v1/qr`, {
      method: "POST",
      headers,
      body: JSON.stringify({ name: "Crash test", amount: 100, currency: "PLN" }),
    })).json();

    const acknowledged: string[] = [];
    const keys = new Map<string, string>();
    let failures = 0;
    let killed = false;
    let sent = 0;
    const client = async () => {
      while (!killed) {
        const idempotencyKey = `crash-${sent++}`;
        try {
          const response = await fetch(`${server.url}/api/v1/payments`, {
            method: "POST",
            headers: { ...headers, "idempotency-key": idempotencyKey },
            body: JSON.stringify({ qrId: offer.qrId }),
          });
          const body = await response.json();
          if (response.status === 201) {
            acknowledged.push(body.paymentId);
            keys.set(idempotencyKey, body.paymentId);
          }
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

    server = await startPaystead(dataDir, env, server.port);
    const missing: string[] = [];
    for (const paymentId of acknowledged) {
      const response = await fetch(`${server.url}/api/v1/payments/${paymentId}`, { headers });
      if (response.status !== 200) missing.push(`${paymentId} ${response.status}`);
      await response.body?.cancel();
    }
    // A retry of an acknowledged create answers its payment again: its key was kept with it.
    for (const [idempotencyKey, paymentId] of [...keys].slice(-20)) {
      const response = await fetch(`${server.url}/api/v1/payments`, {
        method: "POST",
        headers: { ...headers, "idempotency-key": idempotencyKey },
        body: JSON.stringify({ qrId: offer.qrId }),
      });
      const body = await response.json();
      if (response.headers.get("idempotent-replayed") !== "true" || body.paymentId !== paymentId) {
        missing.push(`${idempotencyKey} replayed ${response.status} ${body.paymentId}`);
      }
    }
    assert.deepEqual(
      missing,
      [],
      `${missing.length} lost or not replayed, of ${acknowledged.length} acknowledged payments`,
    );
    // The restart found the same organisation and key: no second demo was created.
    assert.ok(!/First start/.test(server.output()));
  } finally {
    await server.stop("SIGKILL");
  }
}

Deno.test({
  name: "[crash] no acknowledged payment is lost when the server is killed with SIGKILL",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "paystead-crash-" });
    try {
      await killUnderCreates(dataDir);
    } finally {
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "[crash] over a libSQL server, creates sharing statements lose no acknowledged payment to SIGKILL",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "paystead-crash-sqld-" });
    const accounts = await startSqld(`${dir}/accounts`);
    const sandbox = await startSqld(`${dir}/sandbox`);
    try {
      await killUnderCreates(`${dir}/app`, {
        DATABASE_URL: sandbox.url.replace("http://", "ws://"),
        ACCOUNTS_DATABASE_URL: accounts.url.replace("http://", "ws://"),
      });
    } finally {
      await accounts.stop();
      await sandbox.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
