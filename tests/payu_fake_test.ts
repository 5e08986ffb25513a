import assert from "node:assert/strict";
import {
  api,
  fakeWithReceiver,
  oauth,
  orderRequest,
  payuSignature,
  tokenOf,
  waitFor,
} from "./support/payu_fake_helpers.ts";

const JSON_TYPE = "application/json;charset=UTF-8";
const ORDER_ID = /^[A-Z0-9]{10}\d{6}GUEST000P01$/;

Deno.test("[fake payu] OAuth client_credentials, as PayU answers it", async (t) => {
  const { fake } = fakeWithReceiver();
  const { clientId, clientSecret } = fake.credentials;
  await t.step("a token with expires_in", async () => {
    const answer = await oauth(fake, {
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.contentType, JSON_TYPE);
    assert.match(answer.body.access_token, /^[0-9a-f-]{36}$/);
    assert.deepEqual({ ...answer.body, access_token: "" }, {
      access_token: "",
      token_type: "bearer",
      expires_in: 43199,
      grant_type: "client_credentials",
    });
  });
  await t.step("wrong secret: 401 invalid_client", async () => {
    const answer = await oauth(fake, {
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: "nope",
    });
    assert.equal(answer.status, 401);
    assert.deepEqual(answer.body, {
      error: "invalid_client",
      error_description: "Bad client credentials",
    });
  });
  await t.step("no client_id: 401 invalid_client", async () => {
    const answer = await oauth(fake, { grant_type: "client_credentials" });
    assert.equal(answer.status, 401);
    assert.equal(answer.body.error, "invalid_client");
  });
  await t.step("not form-encoded: 401", async () => {
    const answer = await oauth(fake, {
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    }, "application/json");
    assert.equal(answer.status, 401);
    assert.equal(answer.body.error, "invalid_request");
  });
  await t.step("another grant type: 400 unsupported_grant_type", async () => {
    const answer = await oauth(fake, {
      grant_type: "password",
      client_id: clientId,
      client_secret: clientSecret,
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error, "unsupported_grant_type");
  });
  await t.step("tokenTtlSeconds sets expires_in", async () => {
    fake.set({ tokenTtlSeconds: 5 });
    const answer = await oauth(fake, {
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    });
    assert.equal(answer.body.expires_in, 5);
  });
  fake.close();
});

Deno.test("[fake payu] the API wants a valid bearer token: 401 otherwise", async (t) => {
  const { fake } = fakeWithReceiver();
  const unauthorized = (statusDesc: string) => ({
    status: { statusCode: "UNAUTHORIZED", severity: "ERROR", statusDesc },
  });
  await t.step("none", async () => {
    const answer = await api(fake, "GET", "/api/v2_1/orders/X", undefined, "");
    assert.equal(answer.status, 401);
    assert.deepEqual(answer.body, unauthorized("Invalid access token"));
  });
  await t.step("unknown", async () => {
    const answer = await api(fake, "GET", "/api/v2_1/orders/X", undefined, "made-up");
    assert.equal(answer.status, 401);
  });
  await t.step("revoked", async () => {
    const token = await tokenOf(fake);
    assert.equal((await api(fake, "GET", "/api/v2_1/orders/X", undefined, token)).status, 404);
    assert.equal(fake.revokeTokens() >= 1, true);
    const answer = await api(fake, "GET", "/api/v2_1/orders/X", undefined, token);
    assert.equal(answer.status, 401);
  });
  await t.step("expired", async () => {
    const token = await tokenOf(fake);
    fake.expireTokens();
    const answer = await api(fake, "GET", "/api/v2_1/orders/X", undefined, token);
    assert.equal(answer.status, 401);
    assert.deepEqual(answer.body, unauthorized("Access token expired"));
  });
  fake.close();
});

Deno.test("[fake payu] a 777xxx code: 201, PENDING then COMPLETED, both notified and signed", async () => {
  const { fake, received } = fakeWithReceiver();
  const request = orderRequest(fake, "777123");
  const created = await api(fake, "POST", "/api/v2_1/orders", request);
  assert.equal(created.status, 201);
  assert.equal(created.contentType, JSON_TYPE);
  assert.match(created.body.orderId, ORDER_ID);
  assert.deepEqual(created.body, {
    status: { statusCode: "SUCCESS" },
    orderId: created.body.orderId,
    extOrderId: request.extOrderId,
  });
  await fake.idle();
  assert.deepEqual(received.map((n) => JSON.parse(n.body).order.status), ["PENDING", "COMPLETED"]);
  for (const notification of received) {
    assert.equal(notification.url, "http://paystead.test/providers/payu/notify");
    assert.equal(notification.contentType, JSON_TYPE);
    assert.match(
      notification.signature!,
      /^sender=checkout;signature=[0-9a-f]{32};algorithm=MD5;content=DOCUMENT$/,
    );
    assert.equal(
      notification.signature,
      payuSignature(notification.body, fake.credentials.secondKey),
    );
  }
  const completed = JSON.parse(received[1].body);
  assert.equal(completed.order.orderId, created.body.orderId);
  assert.equal(completed.order.extOrderId, request.extOrderId);
  assert.equal(completed.order.totalAmount, "1250");
  assert.equal(completed.order.customerIp, "203.0.113.7");
  assert.equal(typeof completed.localReceiptDateTime, "string");
  assert.equal(completed.properties?.[0].name, "PAYMENT_ID");
  const retrieved = await api(fake, "GET", `/api/v2_1/orders/${created.body.orderId}`);
  assert.equal(retrieved.status, 200);
  assert.equal(retrieved.body.orders.length, 1);
  assert.equal(retrieved.body.orders[0].status, "COMPLETED");
  assert.deepEqual(retrieved.body.status, {
    statusCode: "SUCCESS",
    statusDesc: "Request processing successful",
  });
  assert.deepEqual(retrieved.body.properties, completed.properties);
  fake.close();
});

Deno.test("[fake payu] PayU's sandbox codes decide each outcome", async (t) => {
  const cases: [string, string, string | null][] = [
    ["777000", "COMPLETED", null],
    ["777999", "COMPLETED", null],
    ["200201", "COMPLETED", null],
    ["500500", "CANCELED", "AUT_ERROR_USER_DECLINED"],
    ["700701", "CANCELED", "REG_ERROR_AUTH_CODE_EXPIRED"],
    ["700702", "CANCELED", "REG_ERROR_AUTH_CODE_CANCELED"],
    ["700703", "CANCELED", "REG_ERROR_AUTH_CODE_USED"],
  ];
  const { fake, received } = fakeWithReceiver();
  for (const [code, status, resultCode] of cases) {
    await t.step(code, async () => {
      const created = await api(fake, "POST", "/api/v2_1/orders", orderRequest(fake, code));
      assert.equal(created.status, 201);
      await fake.idle();
      const orderId = created.body.orderId;
      const last = JSON.parse(received[received.length - 1].body);
      assert.deepEqual([last.order.orderId, last.order.status], [orderId, status]);
      const transactions = await api(fake, "GET", `/api/v2_1/orders/${orderId}/transactions`);
      assert.equal(transactions.status, 200);
      assert.deepEqual(transactions.body, {
        transactions: [{
          payMethod: { value: "blik" },
          paymentFlow: "BLIK_AUTHORIZATION_CODE",
          ...(resultCode === null ? {} : { resultCode }),
        }],
      });
    });
  }
  await t.step("the newer BLIK_AUTHORIZATION_CODE shape too", async () => {
    const request = orderRequest(fake, "", {
      payMethods: { payMethod: { type: "BLIK_AUTHORIZATION_CODE", value: "700701" } },
    });
    const created = await api(fake, "POST", "/api/v2_1/orders", request);
    assert.equal(created.status, 201);
    await fake.idle();
    const order = fake.orders().find((o) => o.orderId === created.body.orderId)!;
    assert.deepEqual([order.status, order.payMethodType], ["CANCELED", "BLIK_AUTHORIZATION_CODE"]);
  });
  fake.close();
});

Deno.test("[fake payu] another code waits for the banking app: timeout, or forever", async (t) => {
  const { fake } = fakeWithReceiver();
  await t.step("confirmTimeoutMs passes: CANCELED with AUT_ERROR_TIMEOUT", async () => {
    fake.set({ confirmTimeoutMs: 1 });
    const created = await api(fake, "POST", "/api/v2_1/orders", orderRequest(fake, "123456"));
    await fake.idle();
    const order = fake.orders().find((o) => o.orderId === created.body.orderId)!;
    assert.deepEqual([order.status, order.resultCode], ["CANCELED", "AUT_ERROR_TIMEOUT"]);
  });
  await t.step("null: PENDING until cancelled", async () => {
    fake.set({ confirmTimeoutMs: null });
    const created = await api(fake, "POST", "/api/v2_1/orders", orderRequest(fake, "600600"));
    await fake.idle();
    const orderId = created.body.orderId;
    assert.equal(
      (await api(fake, "GET", `/api/v2_1/orders/${orderId}`)).body.orders[0].status,
      "PENDING",
    );
    const canceled = await api(fake, "DELETE", `/api/v2_1/orders/${orderId}`);
    assert.equal(canceled.status, 200);
    assert.deepEqual(canceled.body, {
      orderId,
      extOrderId: fake.orders().find((o) => o.orderId === orderId)!.extOrderId,
      status: { statusCode: "SUCCESS" },
    });
    assert.equal(
      (await api(fake, "GET", `/api/v2_1/orders/${orderId}`)).body.orders[0].status,
      "CANCELED",
    );
    assert.equal((await api(fake, "DELETE", `/api/v2_1/orders/${orderId}`)).status, 200);
  });
  await t.step("a COMPLETED order cannot be cancelled", async () => {
    const created = await api(fake, "POST", "/api/v2_1/orders", orderRequest(fake, "777123"));
    await fake.idle();
    const answer = await api(fake, "DELETE", `/api/v2_1/orders/${created.body.orderId}`);
    assert.equal(answer.status, 400);
    assert.equal(answer.body.status.statusCode, "ERROR_VALUE_INVALID");
  });
  await t.step("validityTime passes: CANCELED", async () => {
    const created = await api(
      fake,
      "POST",
      "/api/v2_1/orders",
      orderRequest(fake, "600600", { validityTime: "0" }),
    );
    await waitFor(() =>
      fake.orders().find((o) => o.orderId === created.body.orderId)!.status === "CANCELED"
    );
  });
  fake.close();
});

Deno.test("[fake payu] order validation answers like PayU and creates nothing", async (t) => {
  const { fake } = fakeWithReceiver();
  const cases: [string, unknown, number, Record<string, unknown>][] = [
    ["not JSON", "{", 400, { statusCode: "ERROR_SYNTAX" }],
    ["missing description", { description: undefined }, 400, {
      statusCode: "ERROR_VALUE_MISSING",
      statusDesc: "Missing required field: description",
    }],
    ["amount as a number", { totalAmount: 1250 }, 400, {
      statusCode: "ERROR_VALUE_INVALID",
      statusDesc: "Invalid value of field: totalAmount",
    }],
    ["amount with decimals", { totalAmount: "12.50" }, 400, { statusCode: "ERROR_VALUE_INVALID" }],
    ["zero amount", { totalAmount: "0" }, 400, { statusCode: "ERROR_VALUE_INVALID" }],
    ["lower-case currency", { currencyCode: "pln" }, 400, { statusCode: "ERROR_VALUE_INVALID" }],
    ["no products", { products: [] }, 400, { statusCode: "ERROR_VALUE_INVALID" }],
    ["another POS", { merchantPosId: "145227" }, 403, {
      statusCode: "ERROR_VALUE_INVALID",
      codeLiteral: "INVALID_AUTH_FOR_THIS_ORDER",
    }],
    [
      "5-digit code",
      {
        payMethods: { payMethod: { type: "PBL", value: "blik", authorizationCode: "77712" } },
      },
      400,
      { statusCode: "ERROR_VALUE_INVALID", statusDesc: "INVALID_BLIK_CODE" },
    ],
    [
      "letters in the code",
      {
        payMethods: { payMethod: { type: "PBL", value: "blik", authorizationCode: "77712a" } },
      },
      400,
      { statusCode: "ERROR_VALUE_INVALID", statusDesc: "INVALID_BLIK_CODE" },
    ],
  ];
  for (const [name, change, status, expected] of cases) {
    await t.step(name, async () => {
      const body = typeof change === "string" ? change : JSON.parse(
        JSON.stringify(orderRequest(fake, "777123", change as Record<string, unknown>)),
      );
      const answer = await api(fake, "POST", "/api/v2_1/orders", body);
      assert.equal(answer.status, status);
      assert.equal(answer.contentType, JSON_TYPE);
      for (const [key, value] of Object.entries(expected)) {
        assert.equal(answer.body.status[key], value, key);
      }
    });
  }
  assert.equal(fake.orders().length, 0);
  fake.close();
});

Deno.test("[fake payu] a repeated extOrderId is refused: one order, one charge", async () => {
  const { fake } = fakeWithReceiver();
  const request = orderRequest(fake, "777123");
  const first = await api(fake, "POST", "/api/v2_1/orders", request);
  assert.equal(first.status, 201);
  const again = await Promise.all([
    api(fake, "POST", "/api/v2_1/orders", request),
    api(fake, "POST", "/api/v2_1/orders", {
      ...request,
      payMethods: { payMethod: { type: "PBL", value: "blik", authorizationCode: "777456" } },
    }),
  ]);
  for (const answer of again) {
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, {
      status: {
        statusCode: "ERROR_ORDER_NOT_UNIQUE",
        severity: "ERROR",
        statusDesc: "Order already exists",
      },
    });
  }
  assert.equal(fake.orders().length, 1);
  const byExt = await api(fake, "GET", `/api/v2_1/orders/ext/${request.extOrderId}`);
  assert.equal(byExt.status, 200);
  assert.deepEqual(byExt.body.orders.map((o: { orderId: string }) => o.orderId), [
    first.body.orderId,
  ]);
  const unknown = await api(fake, "GET", "/api/v2_1/orders/ext/att_unknown");
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.status.statusCode, "DATA_NOT_FOUND");
  await fake.idle();
  fake.close();
});

Deno.test("[fake payu] an order without payMethods is a 302 to PayU's page, left NEW", async () => {
  const { fake, received } = fakeWithReceiver();
  const answer = await api(
    fake,
    "POST",
    "/api/v2_1/orders",
    orderRequest(fake, "", { payMethods: undefined }),
  );
  assert.equal(answer.status, 302);
  assert.equal(answer.headers.get("location"), answer.body.redirectUri);
  assert.match(answer.body.redirectUri, /^http:\/\/127\.0\.0\.1\/pay\/\?orderId=[A-Z0-9]+&token=/);
  assert.equal(answer.body.status.statusCode, "SUCCESS");
  await fake.idle();
  assert.equal(fake.orders()[0].status, "NEW");
  assert.equal(received.length, 0);
  fake.close();
});

Deno.test("[fake payu] unknown orders and paths are 404 DATA_NOT_FOUND", async () => {
  const { fake } = fakeWithReceiver();
  for (
    const [method, path] of [
      ["GET", "/api/v2_1/orders/NOPE"],
      ["DELETE", "/api/v2_1/orders/NOPE"],
      ["GET", "/api/v2_1/orders/NOPE/transactions"],
      ["GET", "/api/v2_1/orders/NOPE/refunds"],
      ["GET", "/api/v2_1/nothing"],
    ]
  ) {
    const answer = await api(fake, method, path);
    assert.equal(answer.status, 404, path);
    assert.equal(answer.body.status.statusCode, "DATA_NOT_FOUND");
  }
  fake.close();
});

Deno.test("[fake payu] refunds: PENDING, then FINALIZED and notified; extRefundId is idempotent", async (t) => {
  const { fake, received } = fakeWithReceiver();
  const created = await api(fake, "POST", "/api/v2_1/orders", orderRequest(fake, "777123"));
  const orderId = created.body.orderId;
  await t.step("before the order completes: TRANS_NOT_ENDED", async () => {
    const early = await api(fake, "POST", `/api/v2_1/orders/${orderId}/refunds`, {
      refund: { description: "early", amount: "100", extRefundId: "re_early" },
    });
    assert.equal(early.status, 400);
    assert.equal(early.body.status.codeLiteral, "TRANS_NOT_ENDED");
  });
  await fake.idle();
  const request = { refund: { description: "Damaged box", amount: "500", extRefundId: "re_1" } };
  let refundId = "";
  await t.step("created PENDING", async () => {
    const answer = await api(fake, "POST", `/api/v2_1/orders/${orderId}/refunds`, request);
    assert.equal(answer.status, 200);
    refundId = answer.body.refund.refundId;
    assert.match(refundId, /^\d{10}$/);
    assert.deepEqual(answer.body.status, {
      statusCode: "SUCCESS",
      statusDesc: "Refund queued for processing",
    });
    assert.deepEqual(
      { ...answer.body.refund, creationDateTime: "", statusDatetime: "" },
      {
        refundId,
        extRefundId: "re_1",
        amount: "500",
        currencyCode: "PLN",
        description: "Damaged box",
        creationDateTime: "",
        status: "PENDING",
        statusDatetime: "",
      },
    );
  });
  await t.step("the same extRefundId again: the same refund", async () => {
    const answers = await Promise.all(
      [1, 2].map(() => api(fake, "POST", `/api/v2_1/orders/${orderId}/refunds`, request)),
    );
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.equal(answer.body.refund.refundId, refundId);
    }
    assert.equal(fake.refunds().length, 1);
  });
  await t.step("the same extRefundId with other data: REFUND_IDEMPOTENCY_MISMATCH", async () => {
    const answer = await api(fake, "POST", `/api/v2_1/orders/${orderId}/refunds`, {
      refund: { ...request.refund, amount: "600" },
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.status.codeLiteral, "REFUND_IDEMPOTENCY_MISMATCH");
  });
  await t.step("FINALIZED, notified and retrievable", async () => {
    await fake.idle();
    const notification = received.find((n) => JSON.parse(n.body).refund !== undefined)!;
    const parsed = JSON.parse(notification.body);
    assert.deepEqual([
      parsed.orderId,
      parsed.refund.refundId,
      parsed.refund.status,
      parsed.refund.amount,
    ], [
      orderId,
      refundId,
      "FINALIZED",
      "500",
    ]);
    assert.equal(
      notification.signature,
      payuSignature(notification.body, fake.credentials.secondKey),
    );
    const one = await api(fake, "GET", `/api/v2_1/orders/${orderId}/refunds/${refundId}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.status, "FINALIZED");
    const all = await api(fake, "GET", `/api/v2_1/orders/${orderId}/refunds`);
    assert.deepEqual(all.body.refunds.map((r: { refundId: string }) => r.refundId), [refundId]);
    assert.equal((await api(fake, "GET", `/api/v2_1/orders/${orderId}/refunds/123`)).status, 404);
  });
  await t.step("more than is left: AMOUNT_TO_BIG; the rest; then NO_BALANCE", async () => {
    const tooBig = await api(fake, "POST", `/api/v2_1/orders/${orderId}/refunds`, {
      refund: { description: "x", amount: "751" },
    });
    assert.equal(tooBig.body.status.codeLiteral, "AMOUNT_TO_BIG");
    const rest = await api(fake, "POST", `/api/v2_1/orders/${orderId}/refunds`, {
      refund: { description: "rest" },
    });
    assert.equal(rest.status, 200);
    assert.equal(rest.body.refund.amount, "750");
    const none = await api(fake, "POST", `/api/v2_1/orders/${orderId}/refunds`, {
      refund: { description: "x" },
    });
    assert.equal(none.body.status.codeLiteral, "NO_BALANCE");
  });
  await t.step("no refund section: ERROR_VALUE_MISSING 8300", async () => {
    const answer = await api(fake, "POST", `/api/v2_1/orders/${orderId}/refunds`, {});
    assert.equal(answer.status, 400);
    assert.deepEqual(answer.body, {
      status: {
        statusCode: "ERROR_VALUE_MISSING",
        severity: "ERROR",
        code: "8300",
        codeLiteral: "MISSING_REFUND_SECTION",
        statusDesc: "Missing required field",
      },
    });
  });
  await fake.idle();
  fake.close();
});

Deno.test("[fake payu] refundOutcome CANCELED gives the amount back", async () => {
  const { fake, received } = fakeWithReceiver({ switches: { refundOutcome: "CANCELED" } });
  const created = await api(fake, "POST", "/api/v2_1/orders", orderRequest(fake, "777123"));
  await fake.idle();
  const orderId = created.body.orderId;
  const refund = await api(fake, "POST", `/api/v2_1/orders/${orderId}/refunds`, {
    refund: { description: "all" },
  });
  assert.equal(refund.body.refund.amount, "1250");
  await fake.idle();
  assert.equal(JSON.parse(received[received.length - 1].body).refund.status, "CANCELED");
  fake.set({ refundOutcome: "FINALIZED" });
  const again = await api(fake, "POST", `/api/v2_1/orders/${orderId}/refunds`, {
    refund: { description: "all" },
  });
  assert.equal(again.body.refund.amount, "1250");
  await fake.idle();
  fake.close();
});
