import assert from "node:assert/strict";
import type { FakeP24 } from "../fakes/p24/mod.ts";
import { startFakeP24 } from "../fakes/p24/mod.ts";
import {
  basic,
  p24Api,
  p24WithReceiver,
  registerBody,
  registered,
  statusNotificationSign,
} from "./support/p24_fake_helpers.ts";

const RETURN = "https://shop.test/pay/pay_1/return";

async function page(
  fake: FakeP24,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string | null; html: string }> {
  const response = await fake.fetch(new Request(`http://127.0.0.1${path}`, { headers }));
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    html: await response.text(),
  };
}

async function submit(
  fake: FakeP24,
  token: string,
  fields: Record<string, string>,
): Promise<{ status: number; location: string | null; html: string }> {
  const response = await fake.fetch(
    new Request(`http://127.0.0.1/trnRequest/${token}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual",
    }),
  );
  return {
    status: response.status,
    location: response.headers.get("location"),
    html: await response.text(),
  };
}

Deno.test("[fake p24 methods] the documented shape: banks, BLIK, card, Google Pay, Apple Pay", async (t) => {
  const { fake } = p24WithReceiver();
  await t.step("Polish, for an amount in PLN", async () => {
    const answer = await p24Api(fake, "GET", "/api/v1/payment/methods/pl?amount=1250&currency=PLN");
    assert.equal(answer.status, 200);
    assert.deepEqual(Object.keys(answer.body), ["data", "agreements", "responseCode"]);
    assert.deepEqual(answer.body.agreements, []);
    assert.equal(answer.body.responseCode, 0);
    assert.deepEqual(
      answer.body.data.map((m: { id: number; group: string }) => [m.id, m.group]),
      [
        [25, "FastTransfers"],
        [112, "FastTransfers"],
        [20, "FastTransfers"],
        [65, "FastTransfers"],
        [31, "FastTransfers"],
        [87, "FastTransfers"],
        [117, "FastTransfers"],
        [154, "Blik"],
        [218, "Credit Card"],
        [229, "Wallet"],
        [252, "Wallet"],
      ],
    );
    assert.deepEqual(answer.body.data[0], {
      id: 25,
      name: "mTransfer - mBank",
      group: "FastTransfers",
      subgroup: "FastTransfers",
      status: true,
      imgUrl: "http://127.0.0.1/storage/methods/25.svg",
      mobileImgUrl: "http://127.0.0.1/storage/methods/25.svg",
      mobile: true,
      availabilityHours: { mondayToFriday: "00-24", saturday: "00-24", sunday: "00-24" },
    });
    assert.equal(answer.body.data[8].name, "Karta płatnicza");
  });
  await t.step("English names; EUR leaves the PLN-only methods out", async () => {
    const answer = await p24Api(fake, "GET", "/api/v1/payment/methods/en?currency=EUR");
    assert.deepEqual(
      answer.body.data.map((m: { id: number; name: string }) => [m.id, m.name]),
      [[218, "Payment card"], [229, "Google Pay"], [252, "Apple Pay"]],
    );
  });
  await t.step("switched off, or the amount outside its range: status false", async () => {
    fake.set({ methods: { "25": { status: false }, "218": { minAmount: 2000 } } });
    const answer = await p24Api(fake, "GET", "/api/v1/payment/methods/pl?amount=1250");
    const status = new Map(
      answer.body.data.map((m: { id: number; status: boolean }) => [m.id, m.status]),
    );
    assert.equal(status.get(25), false);
    assert.equal(status.get(218), false);
    assert.equal(status.get(112), true);
    const bigger = await p24Api(fake, "GET", "/api/v1/payment/methods/pl?amount=3000");
    assert.equal(bigger.body.data[8].status, true);
    assert.throws(() => fake.set({ methods: { "999": { status: false } } }), /methods\.999/);
  });
  await t.step("another language or a bad amount: 400; a currency nobody takes: 404", async () => {
    assert.equal((await p24Api(fake, "GET", "/api/v1/payment/methods/de")).status, 400);
    assert.equal((await p24Api(fake, "GET", "/api/v1/payment/methods/pl?amount=x")).status, 400);
    const none = await p24Api(fake, "GET", "/api/v1/payment/methods/pl?currency=JPY");
    assert.equal(none.status, 404);
    assert.deepEqual(none.body, { data: ["Payment methods not found"], responseCode: 404 });
  });
  await t.step("the logos are the fake's own", async () => {
    const logo = await fake.fetch(new Request("http://127.0.0.1/storage/methods/154.svg"));
    assert.equal(logo.headers.get("content-type"), "image/svg+xml");
    assert.match(await logo.text(), /aria-label="BLIK"/);
  });
  fake.close();
});

Deno.test("[fake p24 redirect] a method chosen in the shop: the page names it; pay notifies and returns to urlReturn", async () => {
  const { fake, received } = p24WithReceiver();
  const { token, sessionId } = await registered(fake, {
    method: 25,
    channel: 64,
    language: "en",
    urlCardPaymentNotification: undefined,
  });
  const shown = await page(fake, `/trnRequest/${token}`);
  assert.equal(shown.status, 200);
  assert.equal(shown.type, "text/html; charset=utf-8");
  assert.match(shown.html, /<html lang="en">/, "the transaction's language");
  assert.match(shown.html, /<dt>Payment method<\/dt><dd>mTransfer - mBank<\/dd>/);
  assert.match(shown.html, /<dt>Amount<\/dt><dd>PLN\s?12\.50<\/dd>/);
  for (
    const [value, label] of [
      ["pay", "Pay"],
      ["decline", "Decline the payment"],
      ["leave", "Back to the shop without paying"],
    ]
  ) {
    assert.ok(
      shown.html.includes(`<button type="submit" name="action" value="${value}">${label}</button>`),
    );
  }
  assert.match(
    (await page(fake, `/trnRequest/${token}?lang=pl`)).html,
    /Wróć do sklepu bez płacenia/,
  );
  const paid = await submit(fake, token, { action: "pay" });
  assert.equal(paid.status, 303);
  assert.equal(paid.location, RETURN);
  await fake.idle();
  assert.equal(received.length, 1);
  assert.equal(received[0].body.methodId, 25);
  assert.equal(received[0].body.sessionId, sessionId);
  assert.equal(
    received[0].body.sign,
    await statusNotificationSign(received[0].body, fake.credentials.crc),
  );
  const again = await submit(fake, token, { action: "pay" });
  assert.equal(again.status, 409);
  assert.match(again.html, /<p role="status">This transaction is paid\.<\/p>/);
  fake.close();
});

Deno.test("[fake p24 redirect] decline and leave go back to urlReturn; a decline notifies nothing", async () => {
  const { fake, received } = p24WithReceiver();
  const declined = await registered(fake, { method: 218, channel: 4096 });
  const back = await submit(fake, declined.token, { action: "decline" });
  assert.equal(back.status, 303);
  assert.equal(back.location, RETURN);
  const left = await registered(fake, { method: 229, channel: 256 });
  assert.equal((await submit(fake, left.token, { action: "leave" })).location, RETURN);
  await fake.idle();
  assert.equal(received.length, 0, "P24 does not send information on failed payments");
  for (const sessionId of [declined.sessionId, left.sessionId]) {
    const lookup = await p24Api(fake, "GET", `/api/v1/transaction/by/sessionId/${sessionId}`);
    assert.equal(lookup.body.data.status, 0);
  }
  assert.equal((await submit(fake, left.token, { action: "pay" })).status, 303, "still payable");
  assert.equal((await submit(fake, declined.token, { action: "pay" })).status, 409);
  fake.close();
});

Deno.test("[fake p24 redirect] without a method the page offers the channel's methods; one must be chosen", async () => {
  const { fake, received } = p24WithReceiver();
  const { token } = await registered(fake, {
    channel: 1 | 2,
    urlCardPaymentNotification: undefined,
  });
  const shown = await page(fake, `/trnRequest/${token}`, { "accept-language": "de" });
  assert.match(shown.html, /<html lang="pl">/);
  assert.match(shown.html, /<legend>Wybierz metodę płatności<\/legend>/);
  assert.ok(
    shown.html.includes(
      '<label for="method-218"><input type="radio" id="method-218" name="method" value="218"> <img src="http://127.0.0.1/storage/methods/218.svg" alt=""> Karta płatnicza</label>',
    ),
  );
  assert.ok(shown.html.includes('value="25"'), "transfer (2)");
  assert.ok(!shown.html.includes('value="154"'), "no BLIK in channels 1 and 2");
  const none = await submit(fake, token, { action: "pay" });
  assert.equal(none.status, 400);
  assert.match(none.html, /role="alert">Wybierz metodę płatności, żeby zapłacić\./);
  assert.equal((await submit(fake, token, { action: "pay", method: "154" })).status, 400);
  const paid = await submit(fake, token, { action: "pay", method: "252" });
  assert.equal(paid.status, 303);
  await fake.idle();
  assert.equal(received[0].body.methodId, 252);
  assert.equal((await page(fake, "/trnRequest/NOPE")).status, 404);
  fake.close();
});

Deno.test("[fake p24 redirect] waitForResult: the notification is out before the customer is sent back", async () => {
  const { fake, received } = p24WithReceiver({ switches: { notifyDelayMs: 5_000 } });
  const { token } = await registered(fake, {
    method: 112,
    channel: 2,
    waitForResult: true,
    urlCardPaymentNotification: undefined,
  });
  const paid = await submit(fake, token, { action: "pay" });
  assert.equal(paid.status, 303);
  assert.equal(received.length, 1, "delivered before the redirect, whatever the delay");
  fake.close();
});

Deno.test("[fake p24 redirect] the control API pays a transaction at a precise moment, another still pending", async () => {
  const received: { sessionId: string; methodId: number }[] = [];
  const receiver = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (r) => {
    const body = await r.json();
    if (body.methodId !== undefined) received.push(body);
    return new Response(null, { status: 200 });
  });
  const fake = await startFakeP24({
    switches: { notifyDelayMs: 0, blikDecisionDelayMs: 0, blikConfirmTimeoutMs: null },
  });
  try {
    const urlStatus = `http://127.0.0.1:${receiver.addr.port}/notify`;
    const register = async (overrides: Record<string, unknown>) => {
      const body = await registerBody(fake, { urlStatus, ...overrides });
      const response = await fetch(`${fake.url}/api/v1/transaction/register`, {
        method: "POST",
        headers: { authorization: basic(fake), "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 200);
      return { token: (await response.json()).data.token, sessionId: body.sessionId as string };
    };
    const blik = await register({ urlCardPaymentNotification: undefined });
    const charged = await fetch(`${fake.url}/api/v1/paymentMethod/blik/chargeByCode`, {
      method: "POST",
      headers: { authorization: basic(fake), "content-type": "application/json" },
      body: JSON.stringify({ token: blik.token, blikCode: "600600" }),
    });
    assert.equal(charged.status, 201);
    await charged.body?.cancel();
    const transfer = await register({ channel: 2, urlCardPaymentNotification: undefined });
    const control = async (path: string, body?: unknown) => {
      const response = await fetch(`${fake.url}/__fake${path}`, {
        method: "POST",
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    assert.equal((await control(`/transactions/${transfer.sessionId}/pay`)).status, 400);
    const paid = await control(`/transactions/${transfer.sessionId}/pay`, { methodId: 65 });
    assert.equal(paid.status, 200);
    assert.equal(paid.body.location, RETURN);
    assert.equal(paid.body.transaction.methodId, 65);
    assert.equal(
      (await control(`/transactions/${transfer.sessionId}/pay`, { methodId: 65 })).status,
      409,
    );
    await fetch(`${fake.url}/__fake/idle`).then((r) => r.body?.cancel());
    assert.deepEqual(received.map((n) => [n.sessionId, n.methodId]), [[transfer.sessionId, 65]]);
    assert.equal(fake.transactions().find((t) => t.token === blik.token)!.paidAt, null);
    const decided = await control(`/transactions/${blik.sessionId}/blik`, { outcome: "success" });
    assert.equal(decided.status, 200);
    await fetch(`${fake.url}/__fake/idle`).then((r) => r.body?.cancel());
    assert.deepEqual(received.map((n) => n.methodId), [65, 154]);
    assert.equal(
      (await control(`/transactions/${blik.sessionId}/blik`, { outcome: "declined" })).status,
      409,
    );
    assert.equal((await control("/transactions/none/pay")).status, 404);
  } finally {
    await fake.close();
    await receiver.shutdown();
  }
});
