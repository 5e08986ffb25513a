import assert from "node:assert/strict";
import { startFakePayu } from "../fakes/payu/mod.ts";
import { toWireOrder } from "../fakes/payu/state.ts";
import { signNotification } from "../lib/providers/payu/signature.ts";
import {
  type ChildServer,
  PAYU_TEST_ENV,
  productionApiKey,
  startPaystead,
} from "./support/processes.ts";

const METRICS_TOKEN = "metrics-token-for-the-notification-test";

Deno.test({
  name: "[payu] a signed notification that differs from the order sent changes nothing",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "paystead-payu-notify-" });
    // The customer never confirms (a code outside PayU's sandbox list) and PayU notifies
    // nothing: only the notifications this test signs decide the payment.
    const payu = await startFakePayu({
      switches: { dropNotifications: true, confirmTimeoutMs: null },
    });
    let server: ChildServer | undefined;
    try {
      const key = await productionApiKey(dataDir);
      server = await startPaystead(dataDir, {
        PAYSTEAD_ENV: "production",
        ...PAYU_TEST_ENV,
        PAYU_API_URL: payu.url,
        METRICS_TOKEN,
        LOG_LEVEL: "error",
      });
      const url = server.url;
      const api = async (path: string, body?: unknown) => {
        const response = await fetch(`${url}${path}`, {
          method: body === undefined ? "GET" : "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return await response.json();
      };
      const offer = await api("/api/v1/qr", { name: "Coffee", amount: 1250, currency: "PLN" });
      const payment = await api("/api/v1/payments", { qrId: offer.qrId });
      const entered = await fetch(`${url}/pay/${payment.paymentId}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          "sec-fetch-site": "same-origin",
        },
        body: JSON.stringify({ code: "123456" }),
      });
      await entered.body?.cancel();
      assert.equal((await api(`/api/v1/payments/${payment.paymentId}`)).status, "PROCESSING");
      const [sent] = payu.orders();
      assert.equal(sent.totalAmount, "1250");

      const notify = async (changes: Record<string, string>) => {
        const body = JSON.stringify({
          order: { ...toWireOrder(sent), status: "COMPLETED", ...changes },
        });
        const response = await fetch(`${url}/providers/payu/notify`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "OpenPayu-Signature": signNotification(body, PAYU_TEST_ENV.PAYU_SECOND_KEY),
          },
          body,
        });
        assert.equal(response.status, 200);
        assert.equal(await response.text(), "OK");
      };
      const forged: Record<string, string>[] = [
        { totalAmount: "1" },
        { currencyCode: "EUR" },
        { merchantPosId: "999999" },
        { orderId: "FORGEDORDER000000000001" },
      ];
      for (const changes of forged) {
        await notify(changes);
        const current = await api(`/api/v1/payments/${payment.paymentId}`);
        assert.equal(current.status, "PROCESSING", JSON.stringify(changes));
      }
      const logged = server.logs().split("\n")
        .filter((line) => line.includes("does not match the order sent"))
        .map((line) => JSON.parse(line).field);
      assert.deepEqual(logged, ["amount", "currency", "merchant", "reference"]);
      const metrics = await (await fetch(`${url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      })).text();
      for (const field of logged) {
        assert.ok(
          metrics.includes(`paystead_provider_notifications_rejected_total{field="${field}"} 1\n`),
          `${field} is not counted in:\n${metrics}`,
        );
      }

      // The true notification still decides it, and the refund goes to the order sent.
      assert.ok(payu.decide(sent.orderId, "COMPLETED"));
      await notify({});
      assert.equal((await api(`/api/v1/payments/${payment.paymentId}`)).status, "SUCCEEDED");
      const refund = await api(`/api/v1/payments/${payment.paymentId}/refunds`, {});
      assert.equal(refund.status, "PENDING", JSON.stringify(refund));
      const deadline = Date.now() + 10_000;
      while (payu.refunds().length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.deepEqual(payu.refunds().map((made) => made.orderId), [sent.orderId]);
    } finally {
      await server?.stop();
      await payu.close();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
