import assert from "node:assert/strict";
import { type FakePayuProcess, startFakePayuProcess } from "./support/payu_fake_process.ts";
import { type ChildServer, productionApiKey, startPaystead } from "./support/processes.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

async function waitFor<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Production on a fake-payu process, both real processes under the shipped flags. */
async function production(
  fn: (setup: {
    server: ChildServer;
    fake: FakePayuProcess;
    api: (path: string, body?: unknown) => Promise<Json>;
    page: (path: string, fields: Record<string, string>) => Promise<Response>;
  }) => Promise<void>,
) {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-paid-once-" });
  // A code other than PayU's sandbox ones waits for the customer's confirmation.
  const fake = await startFakePayuProcess(["--notify-delay", "0s", "--confirm-timeout", "10m"]);
  let server: ChildServer | undefined;
  try {
    const key = await productionApiKey(dataDir);
    server = await startPaystead(dataDir, { PAYSTEAD_ENV: "production", ...fake.env });
    const url = server.url;
    const api = (path: string, body?: unknown) =>
      fetch(`${url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((response) => response.json());
    const page = (path: string, fields: Record<string, string>) =>
      fetch(`${url}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "sec-fetch-site": "same-origin",
        },
        body: new URLSearchParams(fields).toString(),
        redirect: "manual",
      });
    await fn({ server, fake, api, page });
  } finally {
    await server?.stop("SIGKILL");
    await fake.stop("SIGKILL");
    await Deno.remove(dataDir, { recursive: true });
  }
}

async function orders(fake: FakePayuProcess): Promise<Json[]> {
  return (await fake.control("GET", "/orders")).body.orders;
}

/** Starts a transfer from mBank on the hosted page and returns the fake's order for it. */
async function transferStarted(
  fake: FakePayuProcess,
  page: (path: string, fields: Record<string, string>) => Promise<Response>,
  paymentId: string,
): Promise<Json> {
  const chosen = await page(`/pay/${paymentId}/redirect`, { method: "transfer", bank: "m" });
  assert.equal(chosen.status, 303);
  const location = chosen.headers.get("location")!;
  assert.ok(location.startsWith(fake.url), location);
  const order = (await orders(fake)).filter((o) => o.payMethodValue === "m").at(-1)!;
  assert.equal(order.status, "NEW");
  return order;
}

Deno.test({
  name:
    "[paid once] a transfer paid at the bank while a BLIK code is confirmed charges the customer once",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await production(async ({ fake, api, page }) => {
      const offer = await api("/api/v1/qr", { name: "Kawa", amount: 1250, currency: "PLN" });
      // First in order: the code cancels the transfer at PayU, whose bank then refuses to pay it.
      const first = await api("/api/v1/payments", { qrId: offer.qrId });
      const cancelled = await transferStarted(fake, page, first.paymentId);
      assert.equal((await page(`/pay/${first.paymentId}`, { code: "123456" })).status, 303);
      const atBank = await fake.control("POST", `/orders/${cancelled.orderId}/pay`);
      assert.notEqual(atBank.status, 200, JSON.stringify(atBank.body));
      const byCode = (await orders(fake)).find((o) =>
        o.extOrderId !== cancelled.extOrderId &&
        o.payMethodValue === "blik" && !["COMPLETED", "CANCELED"].includes(o.status)
      )!;
      assert.deepEqual(
        (await orders(fake)).filter((o) => o.orderId === cancelled.orderId).map((o) => o.status),
        ["CANCELED"],
      );
      await fake.control("POST", `/orders/${byCode.orderId}/complete`);
      await waitFor("the code's payment", async () => {
        const current = await api(`/api/v1/payments/${first.paymentId}`);
        return current.status === "SUCCEEDED" ? current : undefined;
      });
      // Then raced: the customer types the code while the bank takes the transfer.
      for (let round = 0; round < 3; round++) {
        const payment = await api("/api/v1/payments", { qrId: offer.qrId });
        const transfer = await transferStarted(fake, page, payment.paymentId);
        const [code, bank] = await Promise.all([
          page(`/pay/${payment.paymentId}`, { code: "123456" }),
          fake.control("POST", `/orders/${transfer.orderId}/pay`),
        ]);
        assert.ok(code.status === 303 || code.status === 409, `code: ${code.status}`);
        const blik = (await orders(fake)).find((o) =>
          o.payMethodValue === "blik" && o.extOrderId !== transfer.extOrderId &&
          !["COMPLETED", "CANCELED"].includes(o.status)
        );
        if (blik) await fake.control("POST", `/orders/${blik.orderId}/complete`);
        const settled = await waitFor("the payment and its refunds to settle", async () => {
          const current = await api(`/api/v1/payments/${payment.paymentId}`);
          const refunds = (await api(`/api/v1/payments/${payment.paymentId}/refunds`)).data;
          const completed = (await orders(fake)).filter((o) =>
            o.status === "COMPLETED" &&
            (o.extOrderId === transfer.extOrderId || o.orderId === blik?.orderId)
          );
          return current.status === "SUCCEEDED" && refunds.length === completed.length - 1
            ? { current, refunds, completed, bankAnswer: bank.status }
            : undefined;
        });
        // The transfer was cancelled at PayU before the code went out, or was paid first and
        // then no code went out: one order completed, nothing to refund.
        assert.equal(settled.completed.length, 1, JSON.stringify(settled));
        assert.deepEqual([settled.current.amountRefunded, settled.refunds], [0, []]);
        const events = (await api(`/api/v1/events?type=payment.succeeded`)).data
          .filter((event: Json) => event.data.paymentId === payment.paymentId);
        assert.equal(events.length, 1);
      }
    });
  },
});

Deno.test({
  name:
    "[paid once] when PayU cannot cancel the transfer, both successes are kept apart and the second refunded in full",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await production(async ({ fake, api, page }) => {
      const offer = await api("/api/v1/qr", { name: "Kawa", amount: 1250, currency: "PLN" });
      const payment = await api("/api/v1/payments", { qrId: offer.qrId });
      const transfer = await transferStarted(fake, page, payment.paymentId);
      // The cancellation (DELETE) answers 503: the transfer stays payable at the bank.
      await fake.control("PATCH", "/switches", { apiErrorStatus: 503, apiErrorRemaining: 1 });
      const code = await page(`/pay/${payment.paymentId}`, { code: "123456" });
      assert.equal(code.status, 303);
      const [attemptA, attemptB] = (await api(`/api/v1/payments/${payment.paymentId}/attempts`))
        .data;
      assert.deepEqual([attemptA.status, attemptB.status], ["CANCELED", "PENDING"]);
      const blik = (await orders(fake)).find((o) => o.payMethodValue === "blik")!;
      assert.equal((await fake.control("POST", `/orders/${transfer.orderId}/pay`)).status, 200);
      await waitFor("the transfer's money", async () => {
        const current = await api(`/api/v1/payments/${payment.paymentId}`);
        return current.status === "SUCCEEDED" ? current : undefined;
      });
      await fake.control("POST", `/orders/${blik.orderId}/complete`);
      const refund = await waitFor("the duplicate's refund at PayU", async () => {
        const [made] = (await fake.control("GET", "/refunds")).body.refunds;
        return made;
      });
      assert.equal(refund.orderId, blik.orderId);
      assert.equal(Number(refund.amount), 1250);
      const after = await api(`/api/v1/payments/${payment.paymentId}`);
      assert.deepEqual(
        [after.status, after.paymentMethod, after.bank, after.amountRefunded],
        ["SUCCEEDED", "transfer", "m", 0],
      );
      const [duplicate] = (await api(`/api/v1/payments/${payment.paymentId}/refunds`)).data;
      assert.deepEqual([duplicate.amount, duplicate.reason], [1250, "duplicate_payment"]);
      const attempts = (await api(`/api/v1/payments/${payment.paymentId}/attempts`)).data;
      assert.deepEqual(attempts.map((a: Json) => a.status), ["SUCCEEDED", "SUCCEEDED"]);
    });
  },
});
