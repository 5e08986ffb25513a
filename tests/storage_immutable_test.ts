import assert from "node:assert/strict";
import { demoApiKey, startPaystead } from "./support/processes.ts";

async function chattr(flag: "+i" | "-i", files: string[]): Promise<string | null> {
  const result = await new Deno.Command("chattr", { args: [flag, ...files], stderr: "piped" })
    .output().catch((error) => ({ code: 1, stderr: new TextEncoder().encode(String(error)) }));
  return result.code === 0 ? null : new TextDecoder().decode(result.stderr).trim();
}

async function errorCode(response: Response): Promise<string> {
  const body = await response.json();
  return body.error.code;
}

Deno.test({
  name:
    "[storage] with the database files immutable every path is a 503, the process lives, and it recovers",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dataDir = await Deno.makeTempDir({ prefix: "paystead-immutable-" });
    const files = ["sandbox.db", "sandbox.db-wal", "sandbox.db-shm"].map((f) => `${dataDir}/${f}`);
    const server = await startPaystead(dataDir);
    try {
      const key = await demoApiKey(server);
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const offer = await (await fetch(`${server.url}/api/v1/qr`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Immutable", amount: 100, currency: "PLN" }),
      })).json();
      const create = (idempotencyKey: string) =>
        fetch(`${server.url}/api/v1/payments`, {
          method: "POST",
          headers: { ...headers, "idempotency-key": idempotencyKey },
          body: JSON.stringify({ qrId: offer.qrId }),
        });
      const payment = await (await create("first")).json();
      const pay = `${server.url}/pay/${payment.paymentId}`;
      const submit = (code: string) =>
        fetch(pay, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json",
            "sec-fetch-site": "same-origin",
          },
          body: JSON.stringify({ code }),
        });

      const refused = await chattr("+i", files);
      if (refused !== null) {
        console.log(`skipped: chattr +i does not work here (${refused})`);
        return;
      }
      await t.step("a BLIK code on the hosted page is a 503, as every other path", async () => {
        const code = await submit("777123");
        assert.equal(code.status, 503);
        assert.equal(await errorCode(code), "storage_unavailable");
        const form = await fetch(pay, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "sec-fetch-site": "same-origin",
            accept: "text/html",
          },
          body: "code=777123",
          redirect: "manual",
        });
        assert.equal(form.status, 503);
        assert.equal(form.headers.get("content-type"), "text/html; charset=UTF-8");
        await form.body?.cancel();
        const page = await fetch(pay);
        assert.equal(page.status, 503);
        await page.body?.cancel();
        const created = await create("second");
        assert.equal(created.status, 503);
        assert.equal(await errorCode(created), "storage_unavailable");
        const read = await fetch(`${server.url}/api/v1/payments/${payment.paymentId}`, {
          headers,
        });
        assert.equal(read.status, 503);
        assert.equal(await errorCode(read), "storage_unavailable");
        const health = await fetch(`${server.url}/healthz`);
        assert.equal(health.status, 200);
        await health.body?.cancel();
        const ready = await fetch(`${server.url}/readyz`);
        assert.equal(ready.status, 503);
        await ready.body?.cancel();
      });

      await t.step("writable again, it is ready and the code goes through", async () => {
        assert.equal(await chattr("-i", files), null);
        for (let tries = 0; tries < 100; tries++) {
          const ready = await fetch(`${server.url}/readyz`);
          await ready.body?.cancel();
          if (ready.status === 200) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const code = await submit("777123");
        const state = await code.text();
        assert.equal(code.status, 200, state);
        assert.equal(JSON.parse(state).phase, "succeeded");
        const created = await create("second");
        assert.equal(created.status, 201);
        await created.body?.cancel();
      });

      await t.step("the process never died", async () => {
        const stopped = await server.stop();
        assert.deepEqual([stopped.code, stopped.signal], [0, null]);
      });
    } finally {
      await chattr("-i", files);
      await server.stop();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});

Deno.test("[storage] a data folder deleted under the server is a 503, never a write into files that are gone", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-vanished-" });
  const server = await startPaystead(dataDir);
  try {
    const key = await demoApiKey(server);
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const offer = () =>
      fetch(`${server.url}/api/v1/qr`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Gone", amount: 100, currency: "PLN" }),
      });
    const before = await offer();
    assert.equal(before.status, 201);
    await before.body?.cancel();
    await Deno.remove(dataDir, { recursive: true });
    const after = await offer();
    assert.equal(after.status, 503);
    assert.equal(await errorCode(after), "storage_unavailable");
    const read = await fetch(`${server.url}/api/v1/qr`, { headers });
    assert.equal(read.status, 503);
    assert.equal(await errorCode(read), "storage_unavailable");
    const stopped = await server.stop();
    assert.deepEqual([stopped.code, stopped.signal], [0, null]);
    assert.match(server.logs(), /sandbox\.db-shm was deleted/);
  } finally {
    await server.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
