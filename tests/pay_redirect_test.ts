import assert from "node:assert/strict";
import { allowOrigins, createTestSession } from "./support/checkout_helpers.ts";
import {
  createTestOffer,
  createTestPayment,
  expectError,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";

/** A plain HTML form posted from the page itself (no JavaScript). */
function form(t: TestApp, path: string, fields: Record<string, string>) {
  return t.app.request(path, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "sec-fetch-site": "same-origin",
    },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

async function page(t: TestApp, path: string): Promise<string> {
  const response = await t.app.request(path);
  assert.equal(response.status, 200, path);
  return await response.text();
}

async function api(t: TestApp, path: string) {
  const response = await t.request("GET", path);
  assert.equal(response.status, 200, path);
  return await response.json();
}

async function hostedPayment(t: TestApp, fields: Record<string, unknown> = {}) {
  const offer = await createTestOffer(t);
  return await createTestPayment(t, offer.qrId as string, {
    successUrl: "https://shop.example/thanks",
    cancelUrl: "https://shop.example/cart",
    ...fields,
  });
}

Deno.test("[redirect] a bank chosen on the hosted page is paid on the sandbox's bank page", async () => {
  const t = await makeTestApp();
  try {
    const payment = await hostedPayment(t);
    const chosen = await form(t, `/pay/${payment.paymentId}/redirect`, {
      method: "transfer",
      bank: "test_bank_a",
      email: "Anna@Example.pl",
    });
    assert.equal(chosen.status, 303);
    const location = chosen.headers.get("location")!;
    assert.match(location, /^\/sandbox\/redirect\/att_[0-9A-Za-z]{24}$/);
    const bank = await page(t, location);
    assert.match(bank, /<h1>Bank testowy<\/h1>/);
    assert.match(bank, /zastępuje Test Bank A/);
    assert.match(bank, /Zapłać 12,50\u00a0zł/);
    const [attempt] = (await api(t, `/api/v1/payments/${payment.paymentId}/attempts`)).data;
    assert.deepEqual(
      [attempt.method, attempt.bank, attempt.status],
      ["transfer", "test_bank_a", "PENDING"],
    );
    assert.equal((await api(t, `/api/v1/payments/${payment.paymentId}`)).status, "PENDING");

    const paid = await form(t, location, { action: "pay" });
    assert.equal(paid.status, 303);
    assert.equal(paid.headers.get("location"), `/pay/${payment.paymentId}/return`);
    const back = await page(t, `/pay/${payment.paymentId}/return`);
    assert.match(back, /<h1>Płatność zakończona<\/h1>/);
    assert.match(back, /href="https:\/\/shop.example\/thanks"/);
    const after = await api(t, `/api/v1/payments/${payment.paymentId}`);
    assert.deepEqual(
      [after.status, after.paymentMethod, after.bank, after.customer.email],
      ["SUCCEEDED", "transfer", "test_bank_a", "anna@example.pl"],
    );
    // The bank's page of a decided attempt offers nothing more to decide.
    const decided = await page(t, location);
    assert.match(decided, /została już rozstrzygnięta/);
    assert.doesNotMatch(decided, /value="pay"/);
  } finally {
    await t.close();
  }
});

Deno.test("[redirect] declining at the bank fails the payment; leaving keeps it waiting", async () => {
  const t = await makeTestApp();
  try {
    const declined = await hostedPayment(t);
    const card = await form(t, `/pay/${declined.paymentId}/redirect`, { method: "card" });
    const cardPage = card.headers.get("location")!;
    assert.match(await page(t, `${cardPage}?lang=en`), /stands in for the card payment page/);
    const refused = await form(t, `${cardPage}?lang=en`, { action: "decline" });
    assert.equal(refused.headers.get("location"), `/pay/${declined.paymentId}/return?lang=en`);
    const failed = await page(t, `/pay/${declined.paymentId}/return?lang=en`);
    assert.match(failed, /<h1>Payment failed<\/h1>/);
    assert.match(failed, new RegExp(`action="/pay/${declined.paymentId}/again\\?lang=en"`));
    const after = await api(t, `/api/v1/payments/${declined.paymentId}`);
    assert.deepEqual([after.status, after.failureCode], ["FAILED", "declined"]);

    const left = await hostedPayment(t);
    const wallet = await form(t, `/pay/${left.paymentId}/redirect`, { method: "google_pay" });
    const leave = await form(t, wallet.headers.get("location")!, { action: "leave" });
    assert.equal(leave.headers.get("location"), `/pay/${left.paymentId}/return`);
    const waiting = await page(t, `/pay/${left.paymentId}/return`);
    assert.match(waiting, /<h1>Czekamy na potwierdzenie z banku<\/h1>/);
    // Waiting reloads itself, with or without JavaScript, keeping when the customer came back.
    const reload = /<meta http-equiv="refresh" content="3; url=([^"]+)"/.exec(waiting)!;
    assert.match(reload[1], new RegExp(`^/pay/${left.paymentId}/return\\?since=\\d+$`));
    assert.match(waiting, new RegExp(`href="/pay/${left.paymentId}"`), "choose another way");
    assert.match(waiting, /href="https:\/\/shop.example\/cart"/);
    // A minute later the page says the bank is late, and reloads less often.
    const since = t.clock.now();
    t.clock.advance(61_000);
    const late = await page(t, `/pay/${left.paymentId}/return?since=${since}`);
    assert.match(late, /<h1>Bank jeszcze nie potwierdził płatności<\/h1>/);
    assert.match(late, /content="15; url=/);
    const [attempt] = (await api(t, `/api/v1/payments/${left.paymentId}/attempts`)).data;
    assert.equal(attempt.status, "PENDING");
    // Nothing in the return URL's query decides anything.
    await page(t, `/pay/${left.paymentId}/return?error=501&status=SUCCEEDED`);
    assert.equal((await api(t, `/api/v1/payments/${left.paymentId}`)).status, "PENDING");
  } finally {
    await t.close();
  }
});

Deno.test("[redirect] a wrong choice is a 400 that starts nothing", async () => {
  const t = await makeTestApp();
  try {
    const payment = await hostedPayment(t);
    const path = `/pay/${payment.paymentId}/redirect`;
    const json = (body: unknown, site = "same-origin") =>
      t.app.request(path, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          "sec-fetch-site": site,
        },
        body: JSON.stringify(body),
      });
    const cases: [unknown, string, string][] = [
      [{ method: "cash" }, "parameter_invalid", "method"],
      [{ method: "transfer" }, "parameter_missing", "bank"],
      [{ method: "transfer", bank: "test_bank_c" }, "payment_method_unavailable", "bank"],
      [{ method: "transfer", bank: "no_such_bank" }, "payment_method_unavailable", "bank"],
      [{ method: "card", email: "not-an-address" }, "parameter_invalid", "email"],
      [{ method: ["card"] }, "parameter_invalid", "method"],
    ];
    for (const [body, code, param] of cases) {
      const refused = await expectError(await json(body), 400, "invalid_request", code);
      assert.equal(refused.error.param, param, JSON.stringify(body));
    }
    const crossSite = await json({ method: "card" }, "cross-site");
    assert.equal(crossSite.status, 403);
    assert.deepEqual((await api(t, `/api/v1/payments/${payment.paymentId}/attempts`)).data, []);
    // The island's JSON answer: where to send the browser.
    const chosen = await json({ method: "apple_pay" });
    assert.equal(chosen.status, 200);
    const body = await chosen.json();
    assert.match(body.redirectUrl, /^\/sandbox\/redirect\/att_\w+$/);
    assert.equal(body.state.phase, "ready");
  } finally {
    await t.close();
  }
});

Deno.test("[redirect] paid twice: the second success is refunded in full at once", async () => {
  const t = await makeTestApp();
  try {
    const payment = await hostedPayment(t);
    const first = await form(t, `/pay/${payment.paymentId}/redirect`, {
      method: "transfer",
      bank: "test_bank_b",
    });
    // The customer comes back and chooses a card: the transfer is given up first.
    const second = await form(t, `/pay/${payment.paymentId}/redirect`, { method: "card" });
    const attempts = (await api(t, `/api/v1/payments/${payment.paymentId}/attempts`)).data;
    assert.deepEqual(attempts.map((a: { status: string }) => a.status), ["CANCELED", "PENDING"]);
    // The bank took the money before the cancellation arrived; then the card pays too.
    const firstPage = await page(t, first.headers.get("location")!);
    assert.match(firstPage, /Sklep zrezygnował z tej próby płatności/);
    await form(t, first.headers.get("location")!, { action: "pay" });
    await form(t, second.headers.get("location")!, { action: "pay" });
    const paid = await api(t, `/api/v1/payments/${payment.paymentId}`);
    assert.deepEqual(
      [paid.status, paid.paymentMethod, paid.bank, paid.amountRefunded],
      ["SUCCEEDED", "transfer", "test_bank_b", 0],
    );
    const after = (await api(t, `/api/v1/payments/${payment.paymentId}/attempts`)).data;
    assert.deepEqual(after.map((a: { status: string }) => a.status), ["SUCCEEDED", "SUCCEEDED"]);
    const refunds = (await api(t, `/api/v1/payments/${payment.paymentId}/refunds`)).data;
    assert.equal(refunds.length, 1);
    assert.deepEqual([refunds[0].amount, refunds[0].reason], [1250, "duplicate_payment"]);
    const events = (await api(t, `/api/v1/events?type=refund.created`)).data;
    assert.equal(events.length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("[redirect] the iframe's choice goes to the top window and comes back to the session's URLs", async () => {
  const t = await makeTestApp();
  try {
    await allowOrigins(t, ["https://shop.example"]);
    const offer = await createTestOffer(t);
    const session = await createTestSession(t, offer.qrId as string, {
      successUrl: "https://shop.example/ok",
      cancelUrl: "https://shop.example/back",
    });
    const sessionId = session.sessionId as string;
    const chosen = await form(t, `/checkout/${sessionId}/redirect?lang=en`, {
      method: "transfer",
      bank: "test_bank_a",
    });
    assert.equal(chosen.status, 303);
    const bank = chosen.headers.get("location")!;
    assert.match(bank, /^\/sandbox\/redirect\/att_\w+$/);
    const paid = await form(t, `${bank}?lang=en`, { action: "pay" });
    const back = await page(t, paid.headers.get("location")!);
    assert.match(back, /<h1>Payment successful<\/h1>/);
    assert.match(back, /href="https:\/\/shop.example\/ok"/);
    const after = await api(t, `/api/v1/checkout-sessions/${sessionId}`);
    assert.equal(after.status, "COMPLETED");
  } finally {
    await t.close();
  }
});

Deno.test("[redirect] pages offering a provider's methods let their forms go to it", async () => {
  const t = await makeTestApp({ environment: "production" });
  try {
    const payment = await hostedPayment(t);
    const response = await t.app.request(`/pay/${payment.paymentId}`);
    const csp = response.headers.get("content-security-policy")!;
    // PayU's pages are https; a local fake's plain http origin would be named beside.
    assert.equal(new URL(t.services.provider.status.account!.apiUrl).protocol, "https:");
    assert.match(csp, /form-action 'self' https:;/);
    const sandbox = await makeTestApp();
    try {
      const other = await hostedPayment(sandbox);
      const own = (await sandbox.app.request(`/pay/${other.paymentId}`)).headers
        .get("content-security-policy")!;
      assert.match(own, /form-action 'self';/);
      // The sandbox's bank is the sandbox's alone.
      const attempt = await form(sandbox, `/pay/${other.paymentId}/redirect`, { method: "card" });
      const path = attempt.headers.get("location")!;
      assert.equal((await t.app.request(path)).status, 404);
    } finally {
      await sandbox.close();
    }
  } finally {
    await t.close();
  }
});
