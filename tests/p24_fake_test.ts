import assert from "node:assert/strict";
import {
  basic,
  blikNotificationSign,
  p24Api,
  p24WithReceiver,
  registerBody,
  registered,
  registerSign,
  sha384,
  statusNotificationSign,
  verifyBody,
  verifySign,
} from "./support/p24_fake_helpers.ts";
import { waitFor } from "./support/payu_fake_helpers.ts";

const JSON_TYPE = "application/json";
const INVALID = { error: "Invalid input data", code: 400 };

Deno.test("[fake p24] HTTP Basic is posId : API key; anything else is 401 Incorrect authentication", async (t) => {
  const { fake } = p24WithReceiver();
  await t.step("testAccess with the account's pair", async () => {
    const answer = await p24Api(fake, "GET", "/api/v1/testAccess");
    assert.equal(answer.status, 200);
    assert.equal(answer.contentType, JSON_TYPE);
    assert.deepEqual(answer.body, { data: true, error: "" });
  });
  for (
    const [name, auth] of [
      ["no header", null],
      ["a wrong key", basic(fake, undefined, "nope")],
      ["another user", basic(fake, "1", undefined)],
      ["not Basic", `Bearer ${fake.credentials.apiKey}`],
      ["not base64", "Basic ***"],
    ] as const
  ) {
    await t.step(name, async () => {
      const answer = await p24Api(fake, "GET", "/api/v1/testAccess", undefined, auth);
      assert.equal(answer.status, 401);
      assert.deepEqual(answer.body, { error: "Incorrect authentication", code: 401 });
    });
  }
  await t.step("the payment methods list documents 403", async () => {
    const answer = await p24Api(fake, "GET", "/api/v1/payment/methods/pl", undefined, null);
    assert.equal(answer.status, 403);
    assert.deepEqual(answer.body, { error: "Incorrect authentication", code: 403 });
  });
  fake.close();
});

Deno.test("[fake p24] register: a token for a correctly signed body", async () => {
  const { fake } = p24WithReceiver();
  const body = await registerBody(fake);
  const answer = await p24Api(fake, "POST", "/api/v1/transaction/register", body);
  assert.equal(answer.status, 200);
  assert.equal(answer.contentType, JSON_TYPE);
  assert.match(answer.body.data.token, /^[0-9A-F-]{36}$/);
  assert.deepEqual(answer.body, { data: { token: answer.body.data.token }, responseCode: 0 });
  const [transaction] = fake.transactions();
  assert.equal(transaction.token, answer.body.data.token);
  assert.ok(transaction.orderId > 2_147_483_647, "order ids need BIGINT, as P24 warns");
  fake.close();
});

Deno.test("[fake p24] register's sign is over the unescaped JSON: slashes and Polish letters as they are", async () => {
  const { fake } = p24WithReceiver();
  const sessionId = 'zamówienie/ł "1"\\2';
  const body = await registerBody(fake, { sessionId });
  assert.equal(
    body.sign,
    await registerSign(sessionId, fake.credentials.merchantId, 1250, "PLN", fake.credentials.crc),
  );
  const answer = await p24Api(fake, "POST", "/api/v1/transaction/register", body);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  // The same hash of PHP's default json_encode (escaped slashes and \u0142) is refused.
  const escaped = await registerBody(fake, { sessionId: "a/ł" });
  escaped.sign = await sha384(
    `{"sessionId":"a\\/\\u0142","merchantId":${fake.credentials.merchantId},"amount":1250,"currency":"PLN","crc":"${fake.credentials.crc}"}`,
  );
  assert.deepEqual(
    (await p24Api(fake, "POST", "/api/v1/transaction/register", escaped)).body,
    INVALID,
  );
  fake.close();
});

Deno.test("[fake p24] register refuses as documented and registers nothing", async (t) => {
  const { fake } = p24WithReceiver();
  const cases: [string, () => Promise<unknown>, string][] = [
    ["a bad sign", async () => ({ ...await registerBody(fake), sign: "0".repeat(96) }), "sign"],
    [
      "the sign of another amount",
      async () => ({ ...await registerBody(fake), amount: 1251 }),
      "sign",
    ],
    [
      "another merchant",
      () => registerBody(fake, { merchantId: 1 }),
      "merchantId or posId is not this account's",
    ],
    ["no email", async () => {
      const body = await registerBody(fake);
      delete body.email;
      return body;
    }, "email: "],
    ["an unknown language", () => registerBody(fake, { language: "xx" }), "language: "],
    [
      "a 101-character sessionId",
      () => registerBody(fake, { sessionId: "s".repeat(101) }),
      "sessionId: ",
    ],
    [
      "a method the account lacks",
      () => registerBody(fake, { method: 999 }),
      "method 999 is not available",
    ],
    ["not JSON", () => Promise.resolve("{"), "the body is not JSON"],
  ];
  for (const [name, body, reason] of cases) {
    await t.step(name, async () => {
      const answer = await p24Api(fake, "POST", "/api/v1/transaction/register", await body());
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.body, INVALID);
      const rejection = await fake.fetch(new Request("http://127.0.0.1/__fake/rejections"));
      const last = (await rejection.json()).rejections.at(-1);
      assert.equal(last.path, "/api/v1/transaction/register");
      assert.ok(last.reason.startsWith(reason), `${last.reason} / ${reason}`);
    });
  }
  assert.equal(fake.transactions().length, 0);
  await t.step("a repeated sessionId: one transaction", async () => {
    const first = await registered(fake);
    const again = await p24Api(fake, "POST", "/api/v1/transaction/register", first.body);
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, INVALID);
    assert.equal(fake.transactions().length, 1);
  });
  fake.close();
});

Deno.test("[fake p24] BLIK 777xxx: 201, the BLIK result and the urlStatus notification, both signed; then verify", async () => {
  const { fake, received } = p24WithReceiver();
  const { token, sessionId } = await registered(fake);
  const charged = await p24Api(fake, "POST", "/api/v1/paymentMethod/blik/chargeByCode", {
    token,
    blikCode: "777123",
  });
  assert.equal(charged.status, 201);
  const orderId = fake.transactions()[0].orderId;
  assert.deepEqual(charged.body, { data: { orderId, message: "success" }, responseCode: 0 });
  await fake.idle();
  assert.deepEqual(received.map((n) => n.url), [
    "https://shop.test/providers/przelewy24/blik",
    "https://shop.test/providers/przelewy24/notify",
  ]);
  const blik = received[0].body.data;
  assert.match(blik.result.trxRef, /^\d{12}$/);
  assert.deepEqual(received[0].body, {
    data: {
      orderId,
      sessionId,
      method: 154,
      result: { error: "0", message: "success", status: "AUTHORIZED", trxRef: blik.result.trxRef },
      sign: await blikNotificationSign(blik, fake.credentials.crc),
    },
  });
  const status = received[1].body;
  assert.equal(received[1].contentType, JSON_TYPE);
  assert.deepEqual(status, {
    merchantId: fake.credentials.merchantId,
    posId: fake.credentials.posId,
    sessionId,
    amount: 1250,
    originAmount: 1250,
    currency: "PLN",
    orderId,
    methodId: 154,
    statement: status.statement,
    sign: await statusNotificationSign(status, fake.credentials.crc),
  });
  assert.match(status.statement, /^p24-\d{3}-\d{3}-\d{3}$/);
  const lookup = () => p24Api(fake, "GET", `/api/v1/transaction/by/sessionId/${sessionId}`);
  assert.equal((await lookup()).body.data.status, 1, "an advance payment until verified");
  const verified = await p24Api(
    fake,
    "PUT",
    "/api/v1/transaction/verify",
    await verifyBody(fake, { sessionId, orderId }),
  );
  assert.equal(verified.status, 200);
  assert.deepEqual(verified.body, { data: { status: "success" }, responseCode: 0 });
  const after = await lookup();
  assert.equal(after.status, 200);
  assert.deepEqual(Object.keys(after.body.data), [
    "statement",
    "orderId",
    "sessionId",
    "status",
    "amount",
    "currency",
    "date",
    "dateOfTransaction",
    "clientEmail",
    "accountMD5",
    "paymentMethod",
    "description",
    "clientName",
    "clientAddress",
    "clientCity",
    "clientPostcode",
    "batchId",
    "fee",
  ]);
  assert.equal(after.body.data.status, 2);
  assert.equal(after.body.data.orderId, orderId);
  assert.equal(after.body.data.paymentMethod, 154);
  assert.equal(after.body.data.clientEmail, "buyer@example.com");
  assert.match(after.body.data.date, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  assert.match(after.body.data.dateOfTransaction, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  assert.equal(after.body.responseCode, 0);
  fake.close();
});

Deno.test("[fake p24] BLIK failures: a BLIK result notification with result.error, no urlStatus, no payment", async (t) => {
  const cases: [string, string, string][] = [
    ["500500", "25", "Transaction declined by the customer"],
    ["700701", "31", "BLIK code expired"],
    ["700702", "32", "BLIK code canceled"],
    ["700703", "33", "BLIK code already used"],
    ["123456", "25", "Transaction declined by the customer"],
  ];
  for (const [code, error, message] of cases) {
    await t.step(code, async () => {
      const { fake, received } = p24WithReceiver();
      const { token, sessionId } = await registered(fake);
      const charged = await p24Api(fake, "POST", "/api/v1/paymentMethod/blik/chargeByCode", {
        token,
        blikCode: code,
      });
      assert.equal(charged.status, 201);
      await fake.idle();
      assert.equal(received.length, 1);
      const data = received[0].body.data;
      assert.deepEqual(data.result, {
        error,
        message,
        status: "REJECTED",
        trxRef: data.result.trxRef,
      });
      assert.equal(data.sign, await blikNotificationSign(data, fake.credentials.crc));
      const lookup = await p24Api(fake, "GET", `/api/v1/transaction/by/sessionId/${sessionId}`);
      assert.equal(lookup.body.data.status, 0);
      assert.equal(lookup.body.data.paymentMethod, 0);
      fake.close();
    });
  }
  await t.step("600600 waits for the banking app; the timeout then fails it", async () => {
    const { fake, received } = p24WithReceiver({ switches: { blikConfirmTimeoutMs: 30 } });
    const { token } = await registered(fake);
    await p24Api(fake, "POST", "/api/v1/paymentMethod/blik/chargeByCode", {
      token,
      blikCode: "600600",
    });
    assert.equal(received.length, 0);
    await fake.idle();
    assert.equal(received[0].body.data.result.error, "36");
    assert.equal(received[0].body.data.result.status, "TIMEOUT");
    fake.close();
  });
  await t.step("without urlCardPaymentNotification: the panel's address, or none", async () => {
    const { fake, received } = p24WithReceiver({
      switches: { blikNotifyUrl: "https://shop.test/panel-blik" },
    });
    const { token } = await registered(fake, { urlCardPaymentNotification: undefined });
    await p24Api(fake, "POST", "/api/v1/paymentMethod/blik/chargeByCode", {
      token,
      blikCode: "500500",
    });
    await fake.idle();
    assert.deepEqual(received.map((n) => n.url), ["https://shop.test/panel-blik"]);
    fake.set({ blikNotifyUrl: null });
    const other = await registered(fake, { urlCardPaymentNotification: undefined });
    await p24Api(fake, "POST", "/api/v1/paymentMethod/blik/chargeByCode", {
      token: other.token,
      blikCode: "500500",
    });
    await fake.idle();
    assert.equal(received.length, 1);
    fake.close();
  });
});

Deno.test("[fake p24] chargeByCode refuses what P24 cannot charge: 400, nothing charged", async (t) => {
  const { fake } = p24WithReceiver({ switches: { blikDecisionDelayMs: 60_000 } });
  const { token } = await registered(fake);
  const noPsu = await registered(fake, { additional: {} });
  const cases: [string, unknown, string][] = [
    ["an unknown token", { token: "NOPE", blikCode: "777123" }, "no transaction with this token"],
    ["five digits", { token, blikCode: "77712" }, "blikCode: not 6 digits"],
    ["no blikCode", { token }, "blikCode: "],
    [
      "register sent no PSU",
      { token: noPsu.token, blikCode: "777123" },
      "register sent no additional.PSU",
    ],
  ];
  for (const [name, body, reason] of cases) {
    await t.step(name, async () => {
      const answer = await p24Api(fake, "POST", "/api/v1/paymentMethod/blik/chargeByCode", body);
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.body, INVALID);
      const rejections = await (await fake.fetch(new Request("http://127.0.0.1/__fake/rejections")))
        .json();
      assert.ok(rejections.rejections.at(-1).reason.startsWith(reason));
    });
  }
  await t.step("a second code while the first is being confirmed", async () => {
    const first = await p24Api(fake, "POST", "/api/v1/paymentMethod/blik/chargeByCode", {
      token,
      blikCode: "777123",
    });
    assert.equal(first.status, 201);
    const second = await p24Api(fake, "POST", "/api/v1/paymentMethod/blik/chargeByCode", {
      token,
      blikCode: "777456",
    });
    assert.equal(second.status, 400);
    assert.equal(fake.transactions()[0].blik?.code, "777123");
  });
  fake.close();
});

Deno.test("[fake p24] verify: a mismatch or a bad sign is 400 and verifies nothing; a repeat changes nothing", async (t) => {
  const { fake } = p24WithReceiver();
  const { token, sessionId } = await registered(fake);
  const orderId = fake.transactions()[0].orderId;
  const verify = (body: unknown) => p24Api(fake, "PUT", "/api/v1/transaction/verify", body);
  await t.step("before the payment", async () => {
    assert.deepEqual((await verify(await verifyBody(fake, { sessionId, orderId }))).body, INVALID);
  });
  await p24Api(fake, "POST", "/api/v1/paymentMethod/blik/chargeByCode", {
    token,
    blikCode: "777000",
  });
  await fake.idle();
  const cases: [string, () => Promise<Record<string, unknown>>, string][] = [
    [
      "a bad sign",
      async () => ({ ...await verifyBody(fake, { sessionId, orderId }), sign: "ab" }),
      "sign",
    ],
    [
      "another amount, signed",
      () => verifyBody(fake, { sessionId, orderId, amount: 1249 }),
      "amount or currency differs",
    ],
    [
      "another currency, signed",
      () => verifyBody(fake, { sessionId, orderId, currency: "EUR" }),
      "amount or currency differs",
    ],
    [
      "another orderId, signed",
      () => verifyBody(fake, { sessionId, orderId: orderId + 1 }),
      "orderId differs",
    ],
    [
      "another session",
      () => verifyBody(fake, { sessionId: "att_other", orderId }),
      "no transaction with this sessionId",
    ],
    ["the sign of the amount without the orderId's", async () => {
      const body = await verifyBody(fake, { sessionId, orderId });
      return { ...body, orderId: orderId + 1 };
    }, "sign"],
    [
      "another merchant",
      async () => ({ ...await verifyBody(fake, { sessionId, orderId }), merchantId: 7 }),
      "merchantId or posId",
    ],
  ];
  for (const [name, body, refusal] of cases) {
    await t.step(name, async () => {
      const answer = await verify(await body());
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.body, INVALID);
      const last = fake.verifications().at(-1)!;
      assert.equal(last.ok, false);
      assert.ok(last.refusal!.startsWith(refusal), `${last.refusal} / ${refusal}`);
    });
  }
  assert.equal(fake.transactions()[0].verifiedAt, null);
  await t.step("the right one, twice", async () => {
    const body = await verifyBody(fake, { sessionId, orderId });
    assert.equal((await verify(body)).status, 200);
    const at = fake.transactions()[0].verifiedAt;
    assert.equal((await verify(body)).status, 200);
    assert.equal(fake.transactions()[0].verifiedAt, at);
    assert.deepEqual(fake.verifications().filter((v) => v.ok).length, 2);
  });
  assert.equal(
    (await verifyBody(fake, { sessionId, orderId })).sign,
    await verifySign(sessionId, orderId, 1250, "PLN", fake.credentials.crc),
  );
  fake.close();
});

Deno.test("[fake p24] the lookup of an unknown sessionId: 404 Transaction not found", async () => {
  const { fake } = p24WithReceiver();
  const answer = await p24Api(fake, "GET", "/api/v1/transaction/by/sessionId/att_none");
  assert.equal(answer.status, 404);
  assert.deepEqual(answer.body, { error: "Transaction not found", responseCode: 0 });
  fake.close();
});

Deno.test("[fake p24] the urlStatus notification comes again until the transaction is verified", async () => {
  const { fake, received } = p24WithReceiver({
    switches: { notifyRetryDelaysMs: [10, 10, 10, 10] },
  });
  const { token, sessionId } = await registered(fake, { urlCardPaymentNotification: undefined });
  await p24Api(fake, "POST", "/api/v1/paymentMethod/blik/chargeByCode", {
    token,
    blikCode: "777111",
  });
  await fake.idle();
  await waitFor(() => received.length >= 3);
  const orderId = fake.transactions()[0].orderId;
  await p24Api(
    fake,
    "PUT",
    "/api/v1/transaction/verify",
    await verifyBody(fake, { sessionId, orderId }),
  );
  const count = received.length;
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert.ok(count <= 5, `${count} attempts`);
  assert.equal(received.length, count, "none after the verification");
  assert.ok(received.every((n) => n.raw === received[0].raw), "the same body each time");
  fake.close();
});
