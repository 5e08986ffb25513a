import assert from "node:assert/strict";
import { openStore } from "../db/client.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { SHOP_DETAILS } from "./support/customer_helpers.ts";
import { type ChildServer, demoApiKey, startPaystead } from "./support/processes.ts";
import { type ReceivedMessage, type SmtpProcess, startSmtpServer } from "./support/smtp_process.ts";

const MAIL_FROM = "Kawiarnia Ziarno <sklep@ziarno.example.pl>";
/** Retries a second apart for about half a minute: long enough to outlast the outage below. */
const RETRIES = ["0", ...Array(40).fill("1s")].join(",");
const MESSAGE_ID = /^<em_[0-9A-Za-z]{30}@127\.0\.0\.1>$/;
const NBSP = "\u00a0";

async function waitFor<T>(
  probe: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function client(server: ChildServer, apiKey: string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    if (!response.ok) {
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    }
    return json;
  };
}

function paysteadEnv(smtp: SmtpProcess): Record<string, string> {
  return {
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    MAIL_FROM,
    EMAIL_RETRY_SCHEDULE: RETRIES,
    LOG_LEVEL: "warn",
  };
}

function byPayment(messages: ReceivedMessage[], paymentId: string, subject: string) {
  return messages.filter((message) =>
    message.subject === subject && message.text.includes(`Numer płatności: ${paymentId}`)
  );
}

Deno.test("[customer e-mails] through a real SMTP server: once each, across refusals and kill -9", async (t) => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-smtp-" });
  const out = `${dataDir}/received.jsonl`;
  let smtp = await startSmtpServer(out);
  let server = await startPaystead(dataDir, paysteadEnv(smtp));
  try {
    const apiKey = await demoApiKey(server);
    let api = client(server, apiKey);
    await api("PUT", "/api/v1/business-details", SHOP_DETAILS);
    const offer = await api("POST", "/api/v1/qr", {
      name: "Kawa ziarnista",
      amount: 625,
      currency: "PLN",
    });
    const pay = async (email: string) => {
      const payment = await api("POST", "/payments", {
        qrId: offer.qrId,
        quantity: 2,
        customer: { email },
      });
      await api("POST", `/api/v1/payments/${payment.paymentId}/complete`, { code: "777123" });
      return payment.paymentId as string;
    };
    const confirmation = "Potwierdzenie płatności – Kawiarnia Ziarno sp. z o.o.";
    const refundNotice = "Zwrot środków – Kawiarnia Ziarno sp. z o.o.";

    await t.step("a payment and its refund: two messages, in Polish, with the seller", async () => {
      const paymentId = await pay("jan.kowalski@example.com");
      const [message] = await waitFor(async () => {
        const found = byPayment(await smtp.messages(), paymentId, confirmation);
        return found.length > 0 && found;
      }, "the confirmation");
      assert.deepEqual(message.envelopeTo, ["jan.kowalski@example.com"]);
      assert.deepEqual(message.from, {
        name: "Kawiarnia Ziarno",
        address: "sklep@ziarno.example.pl",
      });
      assert.equal(message.to, "jan.kowalski@example.com");
      assert.equal(message.replyTo, "kontakt@ziarno.example.pl");
      assert.equal(message.subject, confirmation);
      assert.match(message.messageId, MESSAGE_ID);
      assert.equal(message.contentLanguage, "pl");
      for (
        const line of [
          "Dziękujemy za zakupy",
          `Otrzymaliśmy Twoją płatność BLIK na kwotę 12,50${NBSP}zł.`,
          `Kawa ziarnista – 2 szt. × 6,25${NBSP}zł`,
          `Razem: 12,50${NBSP}zł`,
          `Numer płatności: ${paymentId}`,
          "Metoda płatności: BLIK",
          "Sprzedawca\nKawiarnia Ziarno sp. z o.o.\nul. Mokotowska 12\n00-561 Warszawa\nNIP: 5260250274",
          "W razie pytań napisz do nas: kontakt@ziarno.example.pl",
        ]
      ) assert.ok(message.text.includes(line), `the text says ${JSON.stringify(line)}`);
      assert.match(message.html, /<html lang="pl">/);
      assert.ok(message.html.includes("Dziękujemy za zakupy"));

      await api("POST", `/api/v1/payments/${paymentId}/refunds`, { amount: 625 });
      const [notice] = await waitFor(async () => {
        const found = byPayment(await smtp.messages(), paymentId, refundNotice);
        return found.length > 0 && found;
      }, "the refund notice");
      assert.equal(notice.to, "jan.kowalski@example.com");
      assert.match(notice.messageId, MESSAGE_ID);
      assert.notEqual(notice.messageId, message.messageId);
      assert.ok(notice.text.includes(`Kwota zwrotu: 6,25${NBSP}zł`));
      // Nothing more arrives later: exactly one of each.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const all = await smtp.messages();
      assert.equal(byPayment(all, paymentId, confirmation).length, 1);
      assert.equal(byPayment(all, paymentId, refundNotice).length, 1);
      assert.equal(all.length, 2);
    });

    // A 550 is final (FAILED at once, tests/customer_emails_retry_test.ts): only retried refusals here.
    await t.step("greylisted, hung, gone and killed: every e-mail still arrives once", async () => {
      const refusals = () =>
        server.logs().split("\n").filter((line) => line.includes("not accepted"));
      await smtp.setMode("tempfail");
      const greylisted = [await pay("a@example.com"), await pay("b@example.com")];
      await waitFor(() => refusals().some((line) => line.includes("451 4.3.0")), "a 451");
      await smtp.setMode("hang");
      const hung = await pay("d@example.com");
      // Long enough for the hung attempt to be leased and mid-way through its SMTP conversation.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await server.stop("SIGKILL");
      await smtp.stop();
      const receivedBefore = (await smtp.messages()).length;
      assert.equal(receivedBefore, 2, "nothing was accepted during the refusals");

      // Paystead comes back while the SMTP server is still gone (connections refused) ...
      server = await startPaystead(dataDir, paysteadEnv(smtp));
      api = client(server, apiKey);
      await waitFor(
        () => refusals().some((line) => line.includes("ECONNREFUSED")),
        "a refused connection",
      );
      // ... then the SMTP server comes back on its port, accepting.
      smtp = await startSmtpServer(out, { port: smtp.port });
      const expected = [...greylisted, hung];
      const all = await waitFor(
        async () => {
          const messages = await smtp.messages();
          return expected.every((id) => byPayment(messages, id, confirmation).length > 0) &&
            messages;
        },
        "every confirmation after the outage",
        60_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const final = await smtp.messages();
      assert.equal(final.length, all.length, "nothing more arrived");
      for (const paymentId of expected) {
        assert.equal(byPayment(final, paymentId, confirmation).length, 1, paymentId);
      }
      assert.equal(final.length, 5);
      assert.equal(new Set(final.map((message) => message.messageId)).size, 5);
    });

    await t.step("the outbox says SENT for each, with the attempts it took", async () => {
      await server.stop();
      const store = await openStore<EnvironmentSchema>(`file:${dataDir}/sandbox.db`);
      try {
        const rows = await store.db.selectFrom("customer_emails")
          .select(["status", "transport", "attempt_count", "in_flight"]).orderBy("id").execute();
        assert.equal(rows.length, 5);
        for (const row of rows) {
          assert.equal(row.status, "SENT");
          assert.equal(row.transport, "SMTP");
          assert.equal(row.in_flight, 0);
        }
        assert.deepEqual(rows.slice(0, 2).map((row) => row.attempt_count), [1, 1]);
        assert.ok(rows.slice(2).every((row) => row.attempt_count > 1));
      } finally {
        await store.close();
      }
    });

    await t.step("a hung SMTP server does not hold up a shutdown", async () => {
      server = await startPaystead(dataDir, paysteadEnv(smtp));
      api = client(server, apiKey);
      await smtp.setMode("hang");
      await pay("e@example.com");
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const started = Date.now();
      const status = await server.stop("SIGTERM");
      assert.equal(status.code, 0);
      assert.ok(Date.now() - started < 9_000, `stopped after ${Date.now() - started} ms`);
    });
  } finally {
    await server.stop();
    await smtp.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
