import assert from "node:assert/strict";
import { startFakePayu } from "../fakes/payu/mod.ts";
import type { FakePayu } from "../fakes/payu/mod.ts";
import {
  api,
  fakeWithReceiver,
  orderRequest,
  payuSignature,
  tokenOf,
} from "./support/payu_fake_helpers.ts";

const CONTINUE = "https://shop.test/pay/pay_1/return";

/** An order as a shop sends it for a method chosen on its page (or none: PayU's pay wall). */
function redirectOrder(
  fake: FakePayu,
  value: string | null,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return orderRequest(fake, "", {
    continueUrl: CONTINUE,
    payMethods: value === null ? undefined : { payMethod: { type: "PBL", value } },
    ...overrides,
  });
}

/** The path and query of the order's pay page, from the create answer's redirectUri. */
function pagePath(redirectUri: string): string {
  const url = new URL(redirectUri);
  return `${url.pathname}${url.search}`;
}

async function page(
  fake: FakePayu,
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

/** Submits the pay page's form as a browser does, without following the redirect. */
async function submit(
  fake: FakePayu,
  path: string,
  fields: Record<string, string>,
): Promise<{ status: number; location: string | null; html: string }> {
  const response = await fake.fetch(
    new Request(`http://127.0.0.1${path}`, {
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

async function created(fake: FakePayu, request: Record<string, unknown>) {
  const answer = await api(fake, "POST", "/api/v2_1/orders", request);
  assert.equal(answer.status, 302, JSON.stringify(answer.body));
  return answer;
}

Deno.test("[fake payu redirect] a PBL value with continueUrl: 302, redirectUri in body and Location, order NEW", async () => {
  const { fake, received } = fakeWithReceiver();
  const request = redirectOrder(fake, "m");
  const answer = await created(fake, request);
  assert.equal(answer.contentType, "application/json;charset=UTF-8");
  const orderId = answer.body.orderId;
  const token = fake.orders()[0].pageToken;
  const redirectUri = `http://127.0.0.1/pay/?orderId=${orderId}&token=${token}`;
  assert.deepEqual(answer.body, {
    status: { statusCode: "SUCCESS" },
    redirectUri,
    orderId,
    extOrderId: request.extOrderId,
  });
  assert.equal(answer.headers.get("location"), redirectUri);
  const retrieved = await api(fake, "GET", `/api/v2_1/orders/${orderId}`);
  assert.equal(retrieved.body.orders[0].status, "NEW");
  assert.deepEqual(retrieved.body.orders[0].payMethod, { type: "PBL", amount: "1250" });
  assert.deepEqual((await api(fake, "GET", `/api/v2_1/orders/${orderId}/transactions`)).body, {
    transactions: [],
  });
  await fake.idle();
  assert.equal(received.length, 0);
  fake.close();
});

Deno.test("[fake payu redirect] the pay page speaks Polish or English, names the bank, has three labelled buttons", async (t) => {
  const { fake } = fakeWithReceiver();
  const path = pagePath((await created(fake, redirectOrder(fake, "m"))).body.redirectUri);
  await t.step("Polish by default", async () => {
    const shown = await page(fake, path);
    assert.equal(shown.status, 200);
    assert.equal(shown.type, "text/html; charset=utf-8");
    assert.match(shown.html, /<html lang="pl">/);
    assert.match(shown.html, /<h1>Płatność za zamówienie<\/h1>/);
    assert.match(shown.html, /<dt>Kwota<\/dt><dd>12,50\s?zł<\/dd>/);
    assert.match(shown.html, /<dt>Metoda płatności<\/dt><dd>mTransfer<\/dd>/);
    for (
      const [value, label] of [
        ["pay", "Zapłać"],
        ["decline", "Odrzuć płatność"],
        ["leave", "Wróć do sklepu bez płacenia"],
      ]
    ) {
      assert.ok(
        shown.html.includes(
          `<button type="submit" name="action" value="${value}">${label}</button>`,
        ),
        value,
      );
    }
    assert.ok(shown.html.includes('hreflang="en" lang="en">English</a>'));
  });
  await t.step("English by Accept-Language, and by ?lang over it", async () => {
    const byHeader = await page(fake, path, { "accept-language": "en-GB,en;q=0.9,pl;q=0.5" });
    assert.match(byHeader.html, /<html lang="en">/);
    assert.ok(
      byHeader.html.includes(
        '<button type="submit" name="action" value="leave">Back to the shop without paying</button>',
      ),
    );
    assert.match(byHeader.html, /<dt>Amount<\/dt><dd>PLN\s?12\.50<\/dd>/);
    const byQuery = await page(fake, `${path}&lang=pl`, { "accept-language": "en" });
    assert.match(byQuery.html, /<html lang="pl">/);
  });
  await t.step("another token or order: 404, nothing shown", async () => {
    const wrong = await page(fake, path.replace(/token=[^&]+/, "token=nope"));
    assert.equal(wrong.status, 404);
    assert.match(wrong.html, /Nie ma takiego zamówienia\./);
    assert.equal((await page(fake, "/pay/?orderId=NOPE&token=x")).status, 404);
  });
  fake.close();
});

Deno.test("[fake payu redirect] pay: COMPLETED notified and signed, the browser back to continueUrl", async () => {
  const { fake, received } = fakeWithReceiver();
  const answer = await created(fake, redirectOrder(fake, "m"));
  const orderId = answer.body.orderId;
  const paid = await submit(fake, pagePath(answer.body.redirectUri), { action: "pay" });
  assert.equal(paid.status, 303);
  assert.equal(paid.location, CONTINUE);
  await fake.idle();
  assert.equal(received.length, 1);
  const notification = JSON.parse(received[0].body);
  assert.equal(notification.order.orderId, orderId);
  assert.equal(notification.order.status, "COMPLETED");
  assert.equal(notification.properties[0].name, "PAYMENT_ID");
  assert.equal(received[0].signature, payuSignature(received[0].body, fake.credentials.secondKey));
  assert.deepEqual((await api(fake, "GET", `/api/v2_1/orders/${orderId}/transactions`)).body, {
    transactions: [{ payMethod: { value: "m" }, paymentFlow: "PBL" }],
  });
  await fake.idle();
  fake.close();
});

Deno.test("[fake payu redirect] decline: CANCELED notified, continueUrl with error=501 as PayU adds it", async (t) => {
  const cases: [string, string][] = [
    [CONTINUE, `${CONTINUE}?error=501`],
    ["https://shop.test/return?lang=en", "https://shop.test/return?lang=en&error=501"],
    ["https://shop.test/return?x=1#top", "https://shop.test/return?x=1&error=501#top"],
    ["www.example.com/path", "www.example.com/path?error=501"],
  ];
  for (const [continueUrl, expected] of cases) {
    await t.step(continueUrl, async () => {
      const { fake, received } = fakeWithReceiver();
      const answer = await created(fake, redirectOrder(fake, "c", { continueUrl }));
      const declined = await submit(fake, pagePath(answer.body.redirectUri), {
        action: "decline",
      });
      assert.equal(declined.status, 303);
      assert.equal(declined.location, expected);
      await fake.idle();
      assert.deepEqual(received.map((n) => JSON.parse(n.body).order.status), ["CANCELED"]);
      fake.close();
    });
  }
});

Deno.test("[fake payu redirect] leave: back to continueUrl, undecided; DELETE cancels it, then the page refuses", async () => {
  const { fake, received } = fakeWithReceiver();
  const answer = await created(fake, redirectOrder(fake, "ap"));
  const orderId = answer.body.orderId;
  const path = pagePath(answer.body.redirectUri);
  const left = await submit(fake, path, { action: "leave" });
  assert.equal(left.status, 303);
  assert.equal(left.location, CONTINUE);
  assert.equal(fake.orders()[0].status, "NEW");
  const cancelled = await api(fake, "DELETE", `/api/v2_1/orders/${orderId}`);
  assert.equal(cancelled.status, 200);
  assert.deepEqual(cancelled.body, {
    orderId,
    extOrderId: fake.orders()[0].extOrderId,
    status: { statusCode: "SUCCESS" },
  });
  await fake.idle();
  assert.deepEqual(received.map((n) => JSON.parse(n.body).order.status), ["CANCELED"]);
  const late = await submit(fake, path, { action: "pay" });
  assert.equal(late.status, 409);
  assert.match(late.html, /<p role="status">To zamówienie jest anulowane\.<\/p>/);
  assert.equal(fake.orders()[0].status, "CANCELED");
  fake.close();
});

Deno.test("[fake payu redirect] a COMPLETED order cannot be cancelled: 400 ERROR_VALUE_INVALID, still COMPLETED", async () => {
  const { fake, received } = fakeWithReceiver();
  const answer = await created(fake, redirectOrder(fake, "jp"));
  await submit(fake, pagePath(answer.body.redirectUri), { action: "pay" });
  const refused = await api(fake, "DELETE", `/api/v2_1/orders/${answer.body.orderId}`);
  assert.equal(refused.status, 400);
  assert.deepEqual(refused.body, {
    status: {
      statusCode: "ERROR_VALUE_INVALID",
      severity: "ERROR",
      statusDesc: "Order status does not allow cancellation",
    },
  });
  await fake.idle();
  assert.equal(fake.orders()[0].status, "COMPLETED");
  assert.deepEqual(received.map((n) => JSON.parse(n.body).order.status), ["COMPLETED"]);
  fake.close();
});

Deno.test("[fake payu redirect] the pay wall: the customer chooses the method there", async (t) => {
  const { fake, received } = fakeWithReceiver({
    switches: { payMethods: { o: { status: "TEMPORARY_DISABLED" }, sgb: { status: "DISABLED" } } },
  });
  const answer = await created(fake, redirectOrder(fake, null));
  const orderId = answer.body.orderId;
  const path = pagePath(answer.body.redirectUri);
  await t.step(
    "the choice: enabled methods, a temporarily disabled one greyed, none disabled",
    async () => {
      const shown = await page(fake, `${path}&lang=en`);
      assert.match(shown.html, /<legend>Choose a payment method<\/legend>/);
      assert.ok(
        shown.html.includes(
          '<label for="method-c"><input type="radio" id="method-c" name="method" value="c"> <img src="http://127.0.0.1/images/mobile/logos/pbl_c.svg" alt=""> Online payment by card</label>',
        ),
      );
      assert.ok(shown.html.includes('value="o" disabled>'));
      assert.ok(shown.html.includes("Pekao24Przelew (temporarily unavailable)"));
      assert.ok(!shown.html.includes('value="sgb"'));
      assert.equal(fake.orders()[0].payMethodType, "PAYMENT_WALL");
    },
  );
  await t.step("pay without a method: 400, an alert, nothing decided", async () => {
    const refused = await submit(fake, path, { action: "pay", lang: "en" });
    assert.equal(refused.status, 400);
    assert.match(
      refused.html,
      /<p id="method-error" role="alert">Choose a payment method to pay\.<\/p>/,
    );
    const unavailable = await submit(fake, path, { action: "pay", method: "o" });
    assert.equal(unavailable.status, 400);
    assert.equal(fake.orders()[0].status, "NEW");
  });
  await t.step("pay by card: COMPLETED, a CARD transaction", async () => {
    const paid = await submit(fake, path, { action: "pay", method: "c" });
    assert.equal(paid.status, 303);
    assert.equal(paid.location, CONTINUE);
    await fake.idle();
    assert.deepEqual(received.map((n) => JSON.parse(n.body).order.status), ["COMPLETED"]);
    assert.equal(JSON.parse(received[0].body).order.payMethod.type, "PBL");
    assert.deepEqual((await api(fake, "GET", `/api/v2_1/orders/${orderId}/transactions`)).body, {
      transactions: [{ payMethod: { value: "c" }, paymentFlow: "CARD" }],
    });
  });
  fake.close();
});

Deno.test("[fake payu redirect] one order's page pays while another order of the same POS is pending", async () => {
  const { fake, received } = fakeWithReceiver({ switches: { confirmTimeoutMs: null } });
  const blik = await api(fake, "POST", "/api/v2_1/orders", orderRequest(fake, "123456"));
  assert.equal(blik.status, 201);
  const transfer = await created(fake, redirectOrder(fake, "p"));
  const paid = await submit(fake, pagePath(transfer.body.redirectUri), { action: "pay" });
  assert.equal(paid.status, 303);
  await fake.idle();
  const byOrder = new Map(fake.orders().map((order) => [order.orderId, order.status]));
  assert.equal(byOrder.get(blik.body.orderId), "PENDING");
  assert.equal(byOrder.get(transfer.body.orderId), "COMPLETED");
  assert.deepEqual(
    received.map((n) => [JSON.parse(n.body).order.orderId, JSON.parse(n.body).order.status]),
    [[blik.body.orderId, "PENDING"], [transfer.body.orderId, "COMPLETED"]],
  );
  fake.close();
});

Deno.test("[fake payu redirect] the control API pays or declines at the bank as the button does", async () => {
  const received: string[] = [];
  const receiver = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (r) => {
    received.push(JSON.parse(await r.text()).order.status);
    return new Response(null, { status: 200 });
  });
  const fake = await startFakePayu({ switches: { notifyDelayMs: 0 } });
  try {
    const notifyUrl = `http://127.0.0.1:${receiver.addr.port}/notify`;
    const token = await tokenOf(fake);
    const create = async (value: string | null) => {
      const response = await fetch(`${fake.url}/api/v2_1/orders`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(redirectOrder(fake, value, { notifyUrl })),
        redirect: "manual",
      });
      assert.equal(response.status, 302);
      return (await response.json()).orderId as string;
    };
    const control = async (path: string, body?: unknown) => {
      const response = await fetch(`${fake.url}/__fake${path}`, {
        method: "POST",
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
    const first = await create("m");
    const paid = await control(`/orders/${first}/pay`);
    assert.equal(paid.status, 200);
    assert.equal(paid.body.location, CONTINUE);
    assert.equal(paid.body.order.status, "COMPLETED");
    assert.equal(paid.body.order.bankOutcome, "paid");
    assert.equal((await control(`/orders/${first}/decline`)).status, 409);
    const second = await create(null);
    assert.equal((await control(`/orders/${second}/pay`)).status, 400);
    const byCard = await control(`/orders/${second}/pay`, { method: "c" });
    assert.equal(byCard.body.order.payMethodValue, "c");
    const third = await create("g");
    const declined = await control(`/orders/${third}/decline`);
    assert.equal(declined.body.location, `${CONTINUE}?error=501`);
    assert.equal((await control("/orders/NOPE/pay")).status, 404);
    await fetch(`${fake.url}/__fake/idle`).then((r) => r.body?.cancel());
    assert.deepEqual(received, ["COMPLETED", "COMPLETED", "CANCELED"]);
  } finally {
    await fake.close();
    await receiver.shutdown();
  }
});

Deno.test("[fake payu redirect] an order for a method PayU cannot take now: 400, no order", async (t) => {
  const { fake } = fakeWithReceiver({
    switches: {
      payMethods: {
        m: { status: "DISABLED" },
        g: { status: "TEMPORARY_DISABLED" },
        c: { minAmount: 2000, maxAmount: 5000 },
      },
    },
  });
  const invalid = (statusDesc: string) => ({
    status: { statusCode: "ERROR_VALUE_INVALID", severity: "ERROR", statusDesc },
  });
  const cases: [string, Record<string, unknown>, number, unknown][] = [
    [
      "a disabled bank",
      { payMethods: { payMethod: { type: "PBL", value: "m" } } },
      400,
      invalid("The pay method is DISABLED"),
    ],
    [
      "a temporarily disabled bank",
      { payMethods: { payMethod: { type: "PBL", value: "g" } } },
      400,
      invalid("The pay method is TEMPORARY_DISABLED"),
    ],
    [
      "below the card's minAmount",
      { payMethods: { payMethod: { type: "PBL", value: "c" } } },
      400,
      invalid("The amount is outside the pay method's limits"),
    ],
    [
      "an unknown value",
      { payMethods: { payMethod: { type: "PBL", value: "zz" } } },
      400,
      invalid("Invalid value of field: payMethods.payMethod.value"),
    ],
    ["a PBL without value", { payMethods: { payMethod: { type: "PBL" } } }, 400, {
      status: {
        statusCode: "ERROR_VALUE_MISSING",
        severity: "ERROR",
        statusDesc: "Missing required field: payMethods.payMethod.value",
      },
    }],
    [
      "a card token",
      { payMethods: { payMethod: { type: "CARD_TOKEN", value: "TOKC_X" } } },
      400,
      invalid("Invalid value of field: payMethods.payMethod.type (the fake has no CARD_TOKEN)"),
    ],
  ];
  for (const [name, overrides, status, body] of cases) {
    await t.step(name, async () => {
      const answer = await api(
        fake,
        "POST",
        "/api/v2_1/orders",
        redirectOrder(fake, null, overrides),
      );
      assert.equal(answer.status, status);
      assert.deepEqual(answer.body, body);
    });
  }
  await t.step("within the card's range it is taken", async () => {
    const answer = await api(
      fake,
      "POST",
      "/api/v2_1/orders",
      redirectOrder(fake, "c", {
        totalAmount: "3000",
        products: [{ name: "x", unitPrice: "3000", quantity: "1" }],
      }),
    );
    assert.equal(answer.status, 302);
  });
  assert.equal(fake.orders().length, 1);
  fake.close();
});

Deno.test("[fake payu paymethods] PayU's documented shape: Polish banks, BLIK, card, Google Pay, Apple Pay", async (t) => {
  const { fake } = fakeWithReceiver();
  await t.step("200 with every documented array", async () => {
    const answer = await api(fake, "GET", "/api/v2_1/paymethods");
    assert.equal(answer.status, 200);
    assert.equal(answer.contentType, "application/json;charset=UTF-8");
    assert.deepEqual(Object.keys(answer.body), [
      "blikTokens",
      "cardTokens",
      "pexTokens",
      "payByLinks",
      "status",
    ]);
    assert.deepEqual([answer.body.blikTokens, answer.body.cardTokens, answer.body.pexTokens], [
      [],
      [],
      [],
    ]);
    assert.deepEqual(answer.body.status, { statusCode: "SUCCESS" });
    const values = answer.body.payByLinks.map((method: { value: string }) => method.value);
    assert.deepEqual(values, ["m", "p", "o", "g", "ab", "wm", "i", "sgb", "blik", "c", "ap", "jp"]);
    assert.deepEqual(answer.body.payByLinks[0], {
      value: "m",
      name: "mTransfer",
      brandImageUrl: "http://127.0.0.1/images/mobile/logos/pbl_m.svg",
      status: "ENABLED",
      minAmount: 50,
      maxAmount: 99999999,
    });
    assert.deepEqual(answer.body.payByLinks[9], {
      value: "c",
      name: "Płatność online kartą płatniczą",
      brandImageUrl: "http://127.0.0.1/images/mobile/logos/pbl_c.svg",
      status: "ENABLED",
      minAmount: 5,
      maxAmount: 99999999,
    });
  });
  await t.step("?lang=en names the card in English", async () => {
    const answer = await api(fake, "GET", "/api/v2_1/paymethods?lang=en");
    assert.equal(answer.body.payByLinks[9].name, "Online payment by card");
  });
  await t.step("the logos are the fake's own", async () => {
    const logo = await fake.fetch(new Request("http://127.0.0.1/images/mobile/logos/pbl_m.svg"));
    assert.equal(logo.status, 200);
    assert.equal(logo.headers.get("content-type"), "image/svg+xml");
    assert.match(await logo.text(), /^<svg [^>]*aria-label="mTransfer"/);
    const none = await fake.fetch(new Request("http://127.0.0.1/images/mobile/logos/pbl_zz.svg"));
    assert.equal(none.status, 404);
    await none.body?.cancel();
  });
  await t.step("switched: statuses and ranges as set, merged method by method", async () => {
    fake.set({ payMethods: { m: { status: "TEMPORARY_DISABLED" } } });
    fake.set({ payMethods: { m: { minAmount: 100 }, blik: { status: "DISABLED" } } });
    const answer = await api(fake, "GET", "/api/v2_1/paymethods");
    const byValue = new Map(
      answer.body.payByLinks.map((method: { value: string }) => [method.value, method]),
    );
    assert.deepEqual(byValue.get("m"), {
      value: "m",
      name: "mTransfer",
      brandImageUrl: "http://127.0.0.1/images/mobile/logos/pbl_m.svg",
      status: "TEMPORARY_DISABLED",
      minAmount: 100,
      maxAmount: 99999999,
    });
    assert.equal((byValue.get("blik") as { status: string }).status, "DISABLED");
    assert.throws(() => fake.set({ payMethods: { zz: { status: "DISABLED" } } }), /zz: no such/);
    assert.throws(
      // deno-lint-ignore no-explicit-any
      () => fake.set({ payMethods: { m: { status: "OFF" as any } } }),
      /payMethods\.m\.status/,
    );
  });
  await t.step("without a bearer token: 401", async () => {
    const answer = await api(fake, "GET", "/api/v2_1/paymethods", undefined, "");
    assert.equal(answer.status, 401);
    assert.equal(answer.body.status.statusCode, "UNAUTHORIZED");
  });
  fake.close();
});

Deno.test("[fake payu outage] refusing connections: fetch throws in-process; a listener closes and reopens", async () => {
  const { fake } = fakeWithReceiver();
  fake.refuseFor(60_000);
  await assert.rejects(
    () => fake.fetch(new Request("http://127.0.0.1/api/v2_1/paymethods")),
    (error: Error) => error instanceof TypeError && /connection refused/.test(error.message),
  );
  fake.close();
  const running = await startFakePayu();
  try {
    const refused = await fetch(`${running.url}/__fake/refuse`, {
      method: "POST",
      body: JSON.stringify({ ms: 300 }),
    });
    assert.deepEqual(await refused.json(), { refusingForMs: 300 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await assert.rejects(() => fetch(`${running.url}/__fake/switches`), TypeError);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const back = await fetch(`${running.url}/__fake/switches`);
    assert.equal(back.status, 200);
    await back.body?.cancel();
    const bad = await fetch(`${running.url}/__fake/refuse`, { method: "POST", body: "{}" });
    assert.equal(bad.status, 400);
    await bad.body?.cancel();
  } finally {
    await running.close();
  }
});
