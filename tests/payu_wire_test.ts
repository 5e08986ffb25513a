import assert from "node:assert/strict";
import {
  blikCodeOf,
  Notification,
  OrderCreateRequest,
  OrderNotification,
  OrderRetrieveResponse,
  RefundCreateRequest,
  RefundNotification,
  TokenResponse,
} from "../lib/providers/payu/wire.ts";

const ORDER = {
  notifyUrl: "https://shop.example/providers/payu/notify",
  customerIp: "203.0.113.7",
  merchantPosId: "300746",
  description: "Coffee",
  currencyCode: "PLN",
  totalAmount: "1250",
  extOrderId: "att_123",
  buyer: { email: "buyer@example.com" },
  products: [{ name: "Coffee", unitPrice: "1250", quantity: "1" }],
  payMethods: { payMethod: { type: "PBL", value: "blik", authorizationCode: "777123" } },
};

Deno.test("[payu wire] an order request with the BLIK code in either documented shape", () => {
  const pbl = OrderCreateRequest.parse(ORDER);
  assert.equal(blikCodeOf(pbl), "777123");
  const newer = OrderCreateRequest.parse({
    ...ORDER,
    payMethods: { payMethod: { type: "BLIK_AUTHORIZATION_CODE", value: "700701" } },
  });
  assert.equal(blikCodeOf(newer), "700701");
  assert.equal(blikCodeOf(OrderCreateRequest.parse({ ...ORDER, payMethods: undefined })), null);
});

Deno.test("[payu wire] amounts are strings of minor units", () => {
  for (const totalAmount of [1250, "12.50", "-1", "", "1e3"]) {
    assert.equal(OrderCreateRequest.safeParse({ ...ORDER, totalAmount }).success, false);
  }
  assert.equal(
    RefundCreateRequest.safeParse({ refund: { description: "r", amount: 500 } }).success,
    false,
  );
  assert.equal(
    RefundCreateRequest.safeParse({ refund: { description: "r", amount: "500" } }).success,
    true,
  );
});

Deno.test("[payu wire] answers and notifications from PayU's documented examples", () => {
  assert.deepEqual(
    TokenResponse.parse({
      access_token: "3e5cac39-7e38-4139-8fd6-30adc06a61bd",
      token_type: "bearer",
      expires_in: 43199,
      grant_type: "client_credentials",
    }).expires_in,
    43199,
  );
  const order = {
    orderId: "LDLW5N7MF4140324GUEST000P01",
    extOrderId: "att_123",
    orderCreateDate: "2012-12-31T12:00:00",
    notifyUrl: "http://tempuri.org/notify",
    customerIp: "127.0.0.1",
    merchantPosId: "300746",
    description: "My order description",
    currencyCode: "PLN",
    totalAmount: "200",
    products: [{ name: "Product 1", unitPrice: "200", quantity: "1" }],
    status: "COMPLETED",
  };
  const retrieved = OrderRetrieveResponse.parse({
    orders: [order],
    status: { statusCode: "SUCCESS", statusDesc: "Request processing successful" },
  });
  assert.equal(retrieved.orders[0].status, "COMPLETED");
  const notification = Notification.parse({
    order,
    localReceiptDateTime: "2016-03-02T12:58:14.828+01:00",
  });
  assert.equal(OrderNotification.safeParse(notification).success, true);
  const refund = RefundNotification.parse({
    orderId: "2DVZMPMFPN140219GUEST000P01",
    extOrderId: "att_123",
    refund: {
      refundId: "912128",
      amount: "15516",
      currencyCode: "PLN",
      status: "FINALIZED",
      statusDateTime: "2014-08-20T19:43:47.617+02:00",
      reason: "refund",
      reasonDescription: "on customer's request",
      refundDate: "2014-08-20T19:43:47.520+02:00",
    },
  });
  assert.equal(refund.refund.status, "FINALIZED");
  assert.equal(OrderNotification.safeParse(refund).success, false);
  assert.equal(OrderNotification.safeParse({ order: { ...order, status: "PAID" } }).success, false);
});
