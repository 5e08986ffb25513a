/**
 * End to end through PayU's wire: real Paystead processes configured with PAYMENT_PROVIDER=payu
 * against a real `fake-payu` process, customers paying with Chromium.
 */
import assert from "node:assert/strict";
import { startFakePayuProcess } from "../support/payu_fake_process.ts";
import { demoApiKey, productionApiKey, startPaystead } from "../support/processes.ts";
import { startReceiver } from "../support/webhook_receiver.ts";
import {
  collectErrors,
  launchBrowser,
  localhostCertificate,
  receivedMessages,
  screenshot,
  startMerchantSite,
  waitForCallback,
} from "../support/browser.ts";

/** A JSON call to a Paystead process's API with its key. */
async function call(
  url: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
  // deno-lint-ignore no-explicit-any
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** The payment.succeeded events of one payment, through the events API. */
async function succeededEvents(url: string, key: string, paymentId: string) {
  const events = await call(url, key, "GET", "/api/v1/events?type=payment.succeeded&limit=100");
  assert.equal(events.status, 200);
  return events.body.data.filter((event: { data: { paymentId: string } }) =>
    event.data.paymentId === paymentId
  );
}

/** Waits until `condition` holds (a hang fails the test after 30 s; nothing is timed). */
async function waitUntil(condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

Deno.test("[e2e] production takes BLIK through PayU: hosted page and checkout iframe", async (t) => {
  // PayU notifies every status twice here: each payment must still succeed once.
  const fake = await startFakePayuProcess(["--notify-delay", "500ms", "--duplicates"]);
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-payu-e2e-" });
  const key = await productionApiKey(dataDir);
  const server = await startPaystead(dataDir, { PAYSTEAD_ENV: "production", ...fake.env });
  const browser = await launchBrowser();
  const tls = await localhostCertificate();
  const merchant = startMerchantSite(server.url, tls);
  const shopOrigin = `https://localhost:${merchant.port}`;
  try {
    const offer = await call(server.url, key, "POST", "/api/v1/qr", {
      name: "Flat white, large",
      amount: 1850,
      currency: "PLN",
    });
    assert.equal(offer.status, 201);
    const qrId = offer.body.qrId;
    const newPayment = async (order: string) => {
      const created = await call(server.url, key, "POST", "/payments", { qrId }, {
        "idempotency-key": order,
      });
      assert.equal(created.status, 201);
      return created.body as { paymentId: string; paymentUrl: string };
    };

    await t.step("the hosted page: 777123 ends SUCCEEDED, one event, one PayU order", async () => {
      const payment = await newPayment("order-1");
      const page = await browser.newPage({
        viewport: { width: 390, height: 844 },
        locale: "en-US",
      });
      const errors = collectErrors(page);
      await page.goto(payment.paymentUrl);
      // Production shows no sandbox banner and no test codes.
      assert.equal(await page.getByText("Sandbox test codes").count(), 0);
      await page.getByLabel("BLIK code").fill("777 123");
      await page.getByRole("button", { name: "Pay PLN 18.50" }).click();
      await page.getByRole("heading", { name: "Payment successful" }).waitFor();
      await screenshot(page, "payu-hosted-succeeded");
      const paid = await call(server.url, key, "GET", `/api/v1/payments/${payment.paymentId}`);
      assert.equal(paid.body.status, "SUCCEEDED");
      assert.equal((await fake.control("GET", "/idle")).body.idle, true);
      assert.equal((await succeededEvents(server.url, key, payment.paymentId)).length, 1);

      const orders = (await fake.control("GET", "/orders")).body.orders;
      assert.equal(orders.length, 1);
      assert.match(orders[0].extOrderId, /^att_/);
      assert.equal(orders[0].status, "COMPLETED");
      assert.equal(orders[0].totalAmount, "1850");
      assert.equal(orders[0].currencyCode, "PLN");
      assert.equal(orders[0].customerIp, "127.0.0.1");
      assert.equal(orders[0].notifyUrl, `${server.url}/providers/payu/notify`);
      const notifications = (await fake.control("GET", "/notifications")).body.notifications;
      assert.deepEqual(
        notifications.map((n: { status: string; answer: number }) => [n.status, n.answer]).sort(),
        [["COMPLETED", 200], ["COMPLETED", 200], ["PENDING", 200], ["PENDING", 200]],
      );
      assert.deepEqual(errors, []);
      await page.close();
    });

    await t.step("an expired BLIK code (700701) fails with code_expired", async () => {
      const payment = await newPayment("order-2");
      const page = await browser.newPage({ locale: "en-US" });
      await page.goto(payment.paymentUrl);
      await page.getByLabel("BLIK code").fill("700701");
      await page.getByRole("button", { name: "Pay PLN 18.50" }).click();
      await page.getByRole("heading", { name: "Payment failed" }).waitFor();
      await page.getByText("The BLIK code expired before it was used.").waitFor();
      const failed = await call(server.url, key, "GET", `/api/v1/payments/${payment.paymentId}`);
      assert.deepEqual([failed.body.status, failed.body.failureCode], ["FAILED", "code_expired"]);
      assert.equal((await succeededEvents(server.url, key, payment.paymentId)).length, 0);
      await page.close();
    });

    await t.step("the checkout iframe on an https shop: PROCESSING, then COMPLETED", async () => {
      const settings = await call(server.url, key, "PUT", "/api/v1/checkout-settings", {
        allowedOrigins: [shopOrigin],
      });
      assert.equal(settings.status, 200);
      const session = await call(server.url, key, "POST", `/api/v1/checkout-sessions/${qrId}`, {
        embedLink: `${shopOrigin}/shop`,
      });
      assert.equal(session.status, 201);
      const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: "en-US" });
      const page = await context.newPage();
      const errors = collectErrors(page);
      await page.goto(`${shopOrigin}/shop?embedUrl=${encodeURIComponent(session.body.embedUrl)}`);
      await waitForCallback(page, "ready");
      const frame = page.frameLocator("#checkout iframe");
      await frame.getByLabel("BLIK code").fill("777123");
      await frame.getByLabel("BLIK code").press("Enter");
      await waitForCallback(page, "processing");
      const [completed] = await waitForCallback(page, "complete");
      await screenshot(page, "payu-embedded-completed");
      const paymentId = completed.paymentId as string;
      const paid = await call(server.url, key, "GET", `/api/v1/payments/${paymentId}`);
      assert.equal(paid.body.status, "SUCCEEDED");
      assert.equal((await fake.control("GET", "/idle")).body.idle, true);
      assert.equal((await succeededEvents(server.url, key, paymentId)).length, 1);
      assert.deepEqual(
        (await receivedMessages(page)).filter((m) => m.data.type !== "CHECKOUT_RESIZE")
          .map((m) => m.data),
        [
          { type: "CHECKOUT_READY", sessionId: session.body.sessionId },
          { type: "CHECKOUT_PROCESSING", sessionId: session.body.sessionId },
          { type: "CHECKOUT_COMPLETED", sessionId: session.body.sessionId, paymentId },
        ],
      );
      assert.deepEqual(errors, []);
      await context.close();
    });
  } finally {
    await browser.close();
    await merchant.close();
    await server.stop();
    await fake.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[e2e] one payment.succeeded webhook per PayU payment, however PayU repeats itself", async () => {
  // Production sends webhooks only to public https addresses; the sandbox, configured with PayU
  // (the same provider path), may deliver to this machine's receiver.
  const fake = await startFakePayuProcess(["--notify-delay", "300ms", "--duplicates", "--reorder"]);
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-payu-webhook-" });
  const server = await startPaystead(dataDir, fake.env);
  const receiver = startReceiver();
  try {
    const key = await demoApiKey(server);
    const endpoint = await call(server.url, key, "POST", "/api/v1/webhook-endpoints", {
      url: receiver.url,
      events: ["payment.succeeded"],
    });
    assert.equal(endpoint.status, 201);
    const offer = await call(server.url, key, "POST", "/api/v1/qr", {
      name: "Beans",
      amount: 4999,
      currency: "PLN",
    });
    const payment = await call(server.url, key, "POST", "/payments", { qrId: offer.body.qrId }, {
      "idempotency-key": "webhook-order",
    });
    const page = await (await fetch(`${server.url}/pay/${payment.body.paymentId}`, {
      headers: { "accept-language": "en" },
    })).text();
    assert.match(page, /Test mode: no real money moves\./);
    assert.equal(
      page.includes("Sandbox test codes"),
      false,
      "the simulator's codes are not PayU's",
    );
    const answer = await fetch(`${server.url}/pay/${payment.body.paymentId}`, {
      method: "POST",
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
      body: JSON.stringify({ code: "777123" }),
    });
    assert.equal(answer.status, 200);
    assert.equal((await answer.json()).phase, "processing");
    await waitUntil(() => receiver.received.length >= 1);
    assert.equal((await fake.control("GET", "/idle")).body.idle, true);
    const events = await succeededEvents(server.url, key, payment.body.paymentId);
    assert.equal(events.length, 1);
    await waitUntil(async () =>
      (await call(server.url, key, "GET", `/api/v1/payments/${payment.body.paymentId}`)).body
        .status === "SUCCEEDED"
    );
    assert.equal(receiver.received.length, 1);
    const delivered = JSON.parse(receiver.received[0].body);
    assert.equal(delivered.type, "payment.succeeded");
    assert.equal(delivered.id, events[0].id);
    assert.equal(delivered.data.paymentId, payment.body.paymentId);
    const statuses = (await fake.control("GET", "/notifications")).body.notifications
      .map((n: { status: string }) => n.status);
    // PayU's PENDING arrived after its COMPLETED, each twice, and changed nothing.
    assert.equal(statuses[0], "COMPLETED");
    assert.deepEqual([...statuses].sort(), ["COMPLETED", "COMPLETED", "PENDING", "PENDING"]);
  } finally {
    await receiver.close();
    await server.stop();
    await fake.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
