import assert from "node:assert/strict";
import { startFakePayu } from "../fakes/payu/mod.ts";
import {
  type ChildServer,
  freePort,
  PAYU_TEST_ENV,
  productionApiKey,
  startPaystead,
} from "./support/processes.ts";

async function waitFor<T>(what: string, check: () => Promise<T | undefined> | T | undefined) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

Deno.test({
  name:
    "[crash] a kill -9 between sending the order and its answer is settled by asking PayU, charging once",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "paystead-payu-crash-" });
    // The order is made at once and answered after 10 s: the kill lands in between. No
    // notification is sent, so only asking PayU by extOrderId can settle the payment.
    const payu = await startFakePayu({
      switches: { responseDelayMs: 10_000, notifyDelayMs: 0, dropNotifications: true },
    });
    const port = freePort();
    const env = { PAYSTEAD_ENV: "production", ...PAYU_TEST_ENV, PAYU_API_URL: payu.url };
    let server: ChildServer | undefined;
    try {
      const key = await productionApiKey(dataDir);
      server = await startPaystead(dataDir, env, port);
      const api = (path: string, body?: unknown) =>
        fetch(`${server!.url}${path}`, {
          method: body === undefined ? "GET" : "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then((response) => response.json());
      const offer = await api("/api/v1/qr", { name: "Coffee", amount: 1250, currency: "PLN" });
      const payment = await api("/api/v1/payments", { qrId: offer.qrId });

      const entering = fetch(`${server.url}/pay/${payment.paymentId}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          "sec-fetch-site": "same-origin",
        },
        body: JSON.stringify({ code: "777123" }),
      }).then(() => "answered", () => "cut off");
      await waitFor("the order at PayU", () => payu.orders().length === 1 || undefined);
      await server.stop("SIGKILL");
      assert.equal(await entering, "cut off");
      const [order] = payu.orders();
      assert.match(order.extOrderId!, /^att_[0-9A-Za-z]{24}$/);
      payu.set({ responseDelayMs: 0 });

      server = await startPaystead(dataDir, env, port);
      const settled = await waitFor("the payment to settle", async () => {
        const current = await api(`/api/v1/payments/${payment.paymentId}`);
        return current.status === "PENDING" || current.status === "PROCESSING"
          ? undefined
          : current;
      });
      assert.equal(settled.status, "SUCCEEDED");
      assert.equal(payu.orders().length, 1);
      assert.equal(payu.orders()[0].status, "COMPLETED");
      const succeeded = await api("/api/v1/events?type=payment.succeeded");
      assert.deepEqual(
        succeeded.data.map((event: { data: { paymentId: string } }) => event.data.paymentId),
        [payment.paymentId],
      );
      const payments = await api("/api/v1/payments");
      assert.equal(payments.data.length, 1);
    } finally {
      await server?.stop("SIGKILL");
      await payu.close();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "[crash] a kill -9 before a transfer's order is recorded: PayU's order is found by its extOrderId and cancelled before the next try",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "paystead-payu-crash-redirect-" });
    const payu = await startFakePayu({ switches: { notifyDelayMs: 0 } });
    const port = freePort();
    const env = { PAYSTEAD_ENV: "production", ...PAYU_TEST_ENV, PAYU_API_URL: payu.url };
    let server: ChildServer | undefined;
    try {
      const key = await productionApiKey(dataDir);
      server = await startPaystead(dataDir, env, port);
      const api = (path: string, body?: unknown) =>
        fetch(`${server!.url}${path}`, {
          method: body === undefined ? "GET" : "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        }).then((response) => response.json());
      const choose = () =>
        fetch(`${server!.url}/pay/${payment.paymentId}/redirect`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "sec-fetch-site": "same-origin",
          },
          body: "method=transfer&bank=m",
          redirect: "manual",
        });
      const offer = await api("/api/v1/qr", { name: "Coffee", amount: 1250, currency: "PLN" });
      const payment = await api("/api/v1/payments", { qrId: offer.qrId });

      // The hosted page lists PayU's methods (kept five minutes); then the order is made at once
      // and answered after 10 s: the kill lands in between.
      assert.equal((await fetch(`${server.url}/pay/${payment.paymentId}`)).status, 200);
      payu.set({ responseDelayMs: 10_000 });
      const choosing = choose().then(() => "answered", () => "cut off");
      await waitFor("the order at PayU", () => payu.orders().length === 1 || undefined);
      await server.stop("SIGKILL");
      assert.equal(await choosing, "cut off");
      const [lost] = payu.orders();
      payu.set({ responseDelayMs: 0 });

      server = await startPaystead(dataDir, env, port);
      // The customer tries again: the order Paystead never heard back about is cancelled first.
      const again = await choose();
      assert.equal(again.status, 303);
      const orders = payu.orders();
      assert.equal(orders.length, 2);
      assert.equal(orders[0].orderId, lost.orderId);
      assert.equal(orders[0].status, "CANCELED");
      assert.ok(again.headers.get("location")!.includes(orders[1].pageToken));
      const paid = await fetch(`${payu.url}/__fake/orders/${orders[1].orderId}/pay`, {
        method: "POST",
      });
      assert.equal(paid.status, 200);
      const settled = await waitFor("the payment to settle", async () => {
        const current = await api(`/api/v1/payments/${payment.paymentId}`);
        return current.status === "SUCCEEDED" ? current : undefined;
      });
      assert.deepEqual([settled.paymentMethod, settled.bank], ["transfer", "m"]);
      assert.deepEqual(payu.orders().map((order) => order.status), ["CANCELED", "COMPLETED"]);
      const attempts = (await api(`/api/v1/payments/${payment.paymentId}/attempts`)).data;
      assert.deepEqual(attempts.map((a: { status: string }) => a.status), [
        "CANCELED",
        "SUCCEEDED",
      ]);
    } finally {
      await server?.stop("SIGKILL");
      await payu.close();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
