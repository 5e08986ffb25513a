import assert from "node:assert/strict";
import type { FakeP24 } from "../fakes/p24/mod.ts";
import {
  p24Api,
  p24WithReceiver,
  refundNotificationSign,
  registered,
  verifyBody,
} from "./support/p24_fake_helpers.ts";

/** A BLIK transaction paid and verified; its session and order ids. */
async function verified(
  fake: FakeP24,
  amount = 1250,
): Promise<{ sessionId: string; orderId: number }> {
  const { token, sessionId } = await registered(fake, {
    amount,
    urlCardPaymentNotification: undefined,
    urlStatus: undefined,
  });
  await p24Api(fake, "POST", "/api/v1/paymentMethod/blik/chargeByCode", {
    token,
    blikCode: "777000",
  });
  await fake.idle();
  const orderId = fake.transactions().find((t) => t.request.sessionId === sessionId)!.orderId;
  const body = await verifyBody(fake, { sessionId, orderId, amount });
  assert.equal((await p24Api(fake, "PUT", "/api/v1/transaction/verify", body)).status, 200);
  return { sessionId, orderId };
}

function refundRequest(
  items: { orderId: number; sessionId: string; amount: number; description?: string }[],
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    requestId: `ref_${crypto.randomUUID().slice(0, 30)}`,
    refunds: items,
    refundsUuid: `rf_${crypto.randomUUID().slice(0, 30)}`,
    urlStatus: "https://shop.test/providers/przelewy24/refund",
    ...overrides,
  };
}

Deno.test("[fake p24 refunds] 201 with every item, then completed, notified and signed, and looked up", async () => {
  const { fake, received } = p24WithReceiver();
  const { sessionId, orderId } = await verified(fake);
  const request = refundRequest([{ orderId, sessionId, amount: 500, description: "Zwrot" }]);
  const answer = await p24Api(fake, "POST", "/api/v1/transaction/refund", request);
  assert.equal(answer.status, 201);
  assert.deepEqual(answer.body, {
    data: [{
      orderId,
      sessionId,
      amount: 500,
      description: "Zwrot",
      status: true,
      message: "success",
    }],
    responseCode: 0,
  });
  const refundId = fake.refunds()[0].refundId;
  const pending = await p24Api(fake, "GET", `/api/v1/refund/by/orderId/${orderId}`);
  assert.equal(pending.body.data.refunds[0].status, 3, "awaiting P24's acceptance");
  await fake.idle();
  assert.equal(received.length, 1);
  const n = received[0].body;
  assert.equal(received[0].url, "https://shop.test/providers/przelewy24/refund");
  assert.equal(typeof n.timestamp, "number");
  assert.deepEqual(n, {
    orderId,
    sessionId,
    merchantId: fake.credentials.merchantId,
    requestId: request.requestId,
    refundsUuid: request.refundsUuid,
    amount: 500,
    currency: "PLN",
    timestamp: n.timestamp,
    status: 0,
    sign: await refundNotificationSign(n, fake.credentials.crc),
  });
  const done = await p24Api(fake, "GET", `/api/v1/refund/by/orderId/${orderId}`);
  assert.equal(done.status, 200);
  assert.deepEqual(done.body, {
    data: {
      orderId,
      sessionId,
      amount: 1250,
      currency: "PLN",
      refunds: [{
        batchId: fake.refunds()[0].batchId,
        requestId: request.requestId,
        date: done.body.data.refunds[0].date,
        login: "api",
        description: "Zwrot",
        status: 1,
        amount: 500,
      }],
    },
    responseCode: 0,
  });
  assert.ok(refundId > 0);
  fake.close();
});

Deno.test("[fake p24 refunds] refused as documented: 409 items, 400 repeats and bad bodies; nothing refunded", async (t) => {
  const { fake } = p24WithReceiver();
  const { sessionId, orderId } = await verified(fake);
  const unverified = await registered(fake);
  const unverifiedOrderId = fake.transactions().find((x) => x.token === unverified.token)!.orderId;
  const conflict = (items: unknown[]) => ({ error: items, code: 409 });
  await t.step("more than the transaction has", async () => {
    const answer = await p24Api(
      fake,
      "POST",
      "/api/v1/transaction/refund",
      refundRequest([
        { orderId, sessionId, amount: 1251 },
      ]),
    );
    assert.equal(answer.status, 409);
    assert.deepEqual(
      answer.body,
      conflict([{
        orderId,
        sessionId,
        amount: 1251,
        description: "",
        status: false,
        message: "The amount of refund exceeds available amount for the transaction",
      }]),
    );
  });
  await t.step("two items summing past it", async () => {
    const answer = await p24Api(
      fake,
      "POST",
      "/api/v1/transaction/refund",
      refundRequest([
        { orderId, sessionId, amount: 1000 },
        { orderId, sessionId, amount: 300 },
      ]),
    );
    assert.equal(answer.status, 409);
    assert.equal(answer.body.error.length, 1);
    assert.equal(answer.body.error[0].amount, 300);
  });
  await t.step("an unverified transaction, and an unknown one", async () => {
    const answer = await p24Api(
      fake,
      "POST",
      "/api/v1/transaction/refund",
      refundRequest([
        { orderId: unverifiedOrderId, sessionId: unverified.sessionId, amount: 100 },
        { orderId, sessionId: "att_other", amount: 100 },
      ]),
    );
    assert.equal(answer.status, 409);
    assert.deepEqual(answer.body.error.map((item: { message: string }) => item.message), [
      "Transaction in wrong status - cannot refund",
      "Transaction not found",
    ]);
  });
  assert.equal(fake.refunds().length, 0);
  await t.step("a bad body: 400 Invalid input parameters", async () => {
    for (const body of [{ requestId: "x" }, refundRequest([]), "{"]) {
      const answer = await p24Api(fake, "POST", "/api/v1/transaction/refund", body);
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.body, { error: "Invalid input parameters", code: 400 });
    }
  });
  await t.step("a repeated requestId: 400 Request already exists, one refund", async () => {
    const request = refundRequest([{ orderId, sessionId, amount: 100 }]);
    assert.equal((await p24Api(fake, "POST", "/api/v1/transaction/refund", request)).status, 201);
    const again = await p24Api(fake, "POST", "/api/v1/transaction/refund", request);
    assert.equal(again.status, 400);
    assert.deepEqual(again.body, { error: "Request already exists", code: 400 });
    assert.equal(fake.refunds().length, 1);
  });
  await t.step("no refunds of an order: 404", async () => {
    const answer = await p24Api(fake, "GET", `/api/v1/refund/by/orderId/${unverifiedOrderId}`);
    assert.equal(answer.status, 404);
    assert.deepEqual(answer.body, { error: "Transaction not found", responseCode: 0 });
  });
  fake.close();
});

Deno.test("[fake p24 refunds] a full refund returns the payment; a rejected one gives the amount back", async () => {
  const { fake, received } = p24WithReceiver({
    switches: { refundNotifyUrl: "https://shop.test/panel-refunds" },
  });
  const { sessionId, orderId } = await verified(fake);
  fake.set({ refundOutcome: "rejected" });
  await p24Api(
    fake,
    "POST",
    "/api/v1/transaction/refund",
    refundRequest([
      { orderId, sessionId, amount: 1250 },
    ], { urlStatus: undefined }),
  );
  await fake.idle();
  assert.deepEqual(received.map((n) => [n.url, n.body.status]), [[
    "https://shop.test/panel-refunds",
    1,
  ]]);
  const lookup = () => p24Api(fake, "GET", `/api/v1/transaction/by/sessionId/${sessionId}`);
  assert.equal((await lookup()).body.data.status, 2);
  fake.set({ refundOutcome: "completed" });
  const again = await p24Api(
    fake,
    "POST",
    "/api/v1/transaction/refund",
    refundRequest([
      { orderId, sessionId, amount: 1250 },
    ]),
  );
  assert.equal(again.status, 201);
  await fake.idle();
  assert.equal((await lookup()).body.data.status, 3, "payment returned");
  fake.close();
});

Deno.test("[fake p24 report] history: transactions and refunds of a period, in TransactionObject's names", async (t) => {
  const { fake } = p24WithReceiver({ switches: { feeBasisPoints: 120 } });
  const { sessionId, orderId } = await verified(fake, 10_000);
  const unpaid = await registered(fake, { amount: 700 });
  await p24Api(
    fake,
    "POST",
    "/api/v1/transaction/refund",
    refundRequest([
      { orderId, sessionId, amount: 2500, description: "Część" },
    ]),
  );
  await fake.idle();
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Warsaw" }).format(new Date())
    .replaceAll("-", "");
  const history = (query: string) => p24Api(fake, "GET", `/api/v1/report/history?${query}`);
  await t.step("everything of today", async () => {
    const answer = await history(`dateFrom=${today}&dateTo=${today}`);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.pageInformation, {
      recordsOnPage: 3,
      recordsAll: 3,
      pageCount: 1,
    });
    assert.equal(answer.body.token, "");
    assert.equal(answer.body.responseCode, 0);
    const [transactions, refunds] = answer.body.data;
    assert.deepEqual([transactions.type, transactions.amount, transactions.currency], [
      "transaction",
      10_700,
      "PLN",
    ]);
    const paid = transactions.details[0];
    assert.deepEqual(paid, {
      settledAmount: 9_880,
      ordrId: orderId,
      sessionId,
      status: 2,
      date: paid.date,
      dateOfTransaction: paid.dateOfTransaction,
      dateOfVerification: paid.dateOfVerification,
      clientEmail: "buyer@example.com",
      accountChecksum: "",
      paymentMethod: 154,
      description: "Coffee",
      clientName: "",
      clientAddress: "",
      clientCity: "",
      clientZip: "",
      statement: fake.transactions()[0].statement,
      fee: 120,
    });
    assert.match(paid.dateOfVerification, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    assert.deepEqual(
      [
        transactions.details[1].sessionId,
        transactions.details[1].status,
        transactions.details[1].fee,
      ],
      [unpaid.sessionId, 0, 0],
    );
    assert.deepEqual([refunds.type, refunds.amount], ["refund", 2500]);
    assert.deepEqual(refunds.details[0], {
      refundId: fake.refunds()[0].refundId,
      orderId,
      requestId: fake.refunds()[0].requestId,
      dateIn: refunds.details[0].dateIn,
      dateOut: refunds.details[0].dateOut,
      status: 1,
      description: "Część",
    });
  });
  await t.step("type=refund only; another day: nothing", async () => {
    const refundsOnly = await history(`dateFrom=${today}&dateTo=${today}&type=refund`);
    assert.deepEqual(refundsOnly.body.data.map((group: { type: string }) => group.type), [
      "refund",
    ]);
    const none = await history("dateFrom=20200101&dateTo=20200131");
    assert.deepEqual(none.body.data, []);
    assert.deepEqual(none.body.pageInformation, { recordsOnPage: 0, recordsAll: 0, pageCount: 1 });
  });
  await t.step("bad queries: 400 with the documented body", async () => {
    const unknown = await history(`dateFrom=${today}&dateTo=${today}&type=payout`);
    assert.equal(unknown.status, 400);
    assert.deepEqual(unknown.body, {
      error: "Invalid data provided",
      code: "400",
      validation: [{ type: ["Provided type is unknown"] }],
    });
    assert.equal((await history("dateFrom=2024-01-01&dateTo=20240102")).status, 400);
    assert.equal((await history("dateFrom=20240230&dateTo=20240301")).status, 400);
    const long = await history("dateFrom=20240101&dateTo=20240201");
    assert.deepEqual(long.body.validation, [{ dateTo: ["Max period length is 31 days"] }]);
    assert.equal((await history("dateFrom=20240101&dateTo=20240131")).status, 200);
  });
  fake.close();
});

Deno.test("[fake p24 report] more than a page: a token for the next", async () => {
  const { fake } = p24WithReceiver();
  for (let i = 0; i < 101; i++) await registered(fake);
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Warsaw" }).format(new Date())
    .replaceAll("-", "");
  const first = await p24Api(
    fake,
    "GET",
    `/api/v1/report/history?dateFrom=${today}&dateTo=${today}`,
  );
  assert.deepEqual(first.body.pageInformation, {
    recordsOnPage: 100,
    recordsAll: 101,
    pageCount: 2,
  });
  assert.notEqual(first.body.token, "");
  const second = await p24Api(fake, "GET", `/api/v1/report/history/${first.body.token}`);
  assert.equal(second.status, 200);
  assert.deepEqual(second.body.pageInformation, {
    recordsOnPage: 1,
    recordsAll: 101,
    pageCount: 2,
  });
  assert.equal(second.body.token, "");
  assert.equal(
    second.body.data[0].details[0].sessionId,
    fake.transactions()[100].request.sessionId,
  );
  assert.equal((await p24Api(fake, "GET", "/api/v1/report/history/garbage")).status, 400);
  fake.close();
});
