/**
 * Renewal by pay link end to end: a real production Paystead process with PAYMENT_PROVIDER=payu
 * against a real `fake-payu` process, sending e-mail to a real SMTP server process.
 */
import assert from "node:assert/strict";
import { SHOP_DETAILS } from "./support/customer_helpers.ts";
import { startFakePayuProcess } from "./support/payu_fake_process.ts";
import { demoApiKey, productionApiKey, runCli, startPaystead } from "./support/processes.ts";
import { type ReceivedMessage, startSmtpServer } from "./support/smtp_process.ts";

type Json = Record<string, unknown>;

async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, what: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

Deno.test("[renewal links] production with PayU and SMTP: a first payment, then its renewal link, paid", async () => {
  const fake = await startFakePayuProcess();
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-renewal-links-" });
  const smtp = await startSmtpServer(`${dataDir}/received.jsonl`);
  const key = await productionApiKey(dataDir);
  const server = await startPaystead(dataDir, {
    PAYSTEAD_ENV: "production",
    ...fake.env,
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    MAIL_FROM: "Kawiarnia Ziarno <sklep@ziarno.example.pl>",
    EMAIL_RETRY_SCHEDULE: "0,1s,1s,1s",
  });
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  // What the hosted page's script sends when the customer enters a BLIK code.
  const enterCode = async (paymentUrl: string, code: string) => {
    const response = await fetch(paymentUrl, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ code }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    await response.body?.cancel();
  };
  const received = (subject: string) => async () => {
    const messages = await smtp.messages();
    const found = messages.filter((message: ReceivedMessage) => message.subject === subject);
    return found.length > 0 ? found : null;
  };
  try {
    assert.equal((await api("PUT", "/api/v1/business-details", SHOP_DETAILS)).status, 200);
    const offer = await api("POST", "/api/v1/qr", {
      name: "Kawa na co dzień",
      amount: 1500,
      currency: "PLN",
      recurring: { interval: "DAY" },
    });
    assert.equal(offer.status, 201);
    const qrId = offer.body.qrId;
    const withoutAddress = await api("POST", "/payments", { qrId });
    assert.equal(withoutAddress.status, 400);
    assert.equal(withoutAddress.body.error.param, "customer.email");

    const first = await api("POST", "/payments", { qrId, customer: { email: "ada@example.pl" } });
    assert.equal(first.status, 201);
    await enterCode(first.body.paymentUrl, "777123");
    // A day is shorter than the notice: the renewal link is made as the subscription starts.
    const subscription = await waitFor(async () => {
      const list = await api("GET", `/api/v1/subscriptions?qrId=${qrId}`);
      const [found] = list.body.data as Json[];
      return found?.renewalPaymentId ? found : null;
    }, "the subscription's renewal link");
    assert.equal(subscription.status, "ACTIVE");
    assert.equal(subscription.paymentId, first.body.paymentId);
    const renewalId = String(subscription.renewalPaymentId);
    const renewal = await api("GET", `/api/v1/payments/${renewalId}`);
    assert.equal(renewal.body.status, "PENDING");
    assert.equal(renewal.body.amount, 1500);
    assert.equal(
      Date.parse(renewal.body.expiresAt),
      Date.parse(String(subscription.currentPeriodEnd)) + 4 * 86_400_000,
    );

    const [notice] = await waitFor(
      received("Odnów subskrypcję – Kawiarnia Ziarno sp. z o.o."),
      "the renewal notice",
    );
    assert.equal(notice.to, "ada@example.pl");
    assert.equal(notice.replyTo, "kontakt@ziarno.example.pl");
    assert.equal(notice.contentLanguage, "pl");
    assert.match(notice.text, /^Twoja subskrypcja wygasa /);
    const link = /Zapłać teraz: (\S+)/.exec(notice.text)![1];
    assert.equal(link, `${server.url}/pay/${renewalId}?lang=pl`);
    assert.ok(notice.html.includes(`href="${link}"`));
    const page = await fetch(link);
    assert.equal(page.status, 200);
    await page.body?.cancel();

    await enterCode(`${server.url}/pay/${renewalId}`, "777123");
    const renewed = await waitFor(async () => {
      const found = await api("GET", `/api/v1/subscriptions/${subscription.subscriptionId}`);
      return found.body.latestPaymentId === renewalId ? found.body : null;
    }, "the renewal");
    assert.equal(renewed.status, "ACTIVE");
    assert.equal(renewed.currentPeriodStart, subscription.currentPeriodEnd);
    assert.equal(renewed.renewalPaymentId, null);
    const events = await api("GET", "/api/v1/events?type=subscription.renewed");
    assert.deepEqual(events.body.data.map((event: { data: Json }) => event.data.latestPaymentId), [
      renewalId,
    ]);
    // Each payment confirmed once, and one notice: nothing sent twice.
    const confirmations = await waitFor(async () => {
      const found = await received("Potwierdzenie płatności – Kawiarnia Ziarno sp. z o.o.")();
      return found?.length === 2 ? found : null;
    }, "both confirmations");
    assert.deepEqual(
      confirmations.map((message) => /Numer płatności: (\S+)/.exec(message.text)![1]).sort(),
      [first.body.paymentId, renewalId].sort(),
    );
    assert.equal((await received("Odnów subskrypcję – Kawiarnia Ziarno sp. z o.o.")())?.length, 1);
  } finally {
    await server.stop();
    await smtp.stop();
    await fake.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[renewal links] a sandbox with PAYMENT_PROVIDER=payu renews by link; trigger works there", async () => {
  const fake = await startFakePayuProcess();
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-sandbox-payu-" });
  const server = await startPaystead(dataDir, fake.env);
  try {
    const key = await demoApiKey(server);
    const host = ["--api-key", key, "--host", server.url];
    for (const event of ["subscription.renewed", "subscription.past_due"]) {
      const run = await runCli(["trigger", event, ...host]);
      assert.equal(run.code, 0, run.stderr);
      assert.ok(run.stdout.endsWith(`Triggered ${event}.`), run.stdout);
      const found = await waitFor(async () => {
        const response = await fetch(`${server.url}/api/v1/events?type=${event}`, {
          headers: { authorization: `Bearer ${key}` },
        });
        const { data } = await response.json();
        return data.length === 1 ? data[0] : null;
      }, event);
      if (event === "subscription.renewed") {
        // Renewed by the link trigger paid: the renewal payment is the subscription's latest.
        const link = /renewal {2}(pay_\w+) \(the renewal link, paid with 777123\)/.exec(run.stdout);
        assert.equal(found.data.latestPaymentId, link?.[1], run.stdout);
      } else {
        assert.match(run.stdout, /the renewal link is unpaid at the period end/);
        assert.equal(found.data.status, "PAST_DUE");
        assert.match(found.data.renewalPaymentId, /^pay_\w{30}$/);
      }
    }
  } finally {
    await server.stop();
    await fake.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
