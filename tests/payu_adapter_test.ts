import assert from "node:assert/strict";
import { listAttemptsOfPayment } from "../db/payment_attempts.ts";
import { findPaymentByPublicId } from "../db/payments.ts";
import type { Fetch } from "../lib/providers/payu/http.ts";
import { signNotification } from "../lib/providers/payu/signature.ts";
import { PAYU_SANDBOX_POS } from "../fakes/payu/mod.ts";
import type { FakeOrder, FakePayuSwitchesPatch } from "../fakes/payu/mod.ts";
import { openStore } from "../db/client.ts";
import type { AccountsSchema, EnvironmentSchema } from "../db/schema.ts";
import { silentLogger } from "../lib/log.ts";
import { reconcileAtStart } from "../lib/payments/reconcile.ts";
import { createApp } from "../routes/app.ts";
import { codeRefusal, type PayuTimeouts } from "../lib/providers/payu/provider.ts";
import {
  createTestOffer,
  createTestPayment,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";
import { pageText, signedInApp } from "./support/panel_helpers.ts";
import { waitFor } from "./support/payu_fake_helpers.ts";

/** What a browser on the hosted page sends with the island's code submission. */
const SAME_ORIGIN = {
  "content-type": "application/json",
  accept: "application/json",
  "sec-fetch-site": "same-origin",
};
const MINUTE = 60_000;

async function production(
  options: {
    switches?: FakePayuSwitchesPatch;
    fetch?: (fake: Fetch) => Fetch;
    timeouts?: Partial<PayuTimeouts>;
    env?: Record<string, string>;
    currency?: string;
  } = {},
) {
  const t = await makeTestApp({
    environment: "production",
    payuSwitches: options.switches,
    payuFetch: options.fetch,
    payuTimeouts: options.timeouts,
    env: options.env,
  });
  const offer = await createTestOffer(t, {
    name: "Coffee",
    amount: 1250,
    currency: options.currency ?? "PLN",
  });
  const payment = await createTestPayment(t, offer.qrId, {
    customer: { email: "ada@example.com" },
  });
  return { t, payu: t.payu!, paymentId: payment.paymentId };
}

async function enterCode(t: TestApp, paymentId: string, code: string) {
  const response = await t.app.request(`/pay/${paymentId}`, {
    method: "POST",
    headers: SAME_ORIGIN,
    body: JSON.stringify({ code }),
  });
  return { status: response.status, body: await response.json() };
}

async function paymentOf(t: TestApp, paymentId: string) {
  return await (await t.request("GET", `/api/v1/payments/${paymentId}`)).json();
}

async function eventTypes(t: TestApp): Promise<string[]> {
  const page = await (await t.request("GET", "/api/v1/events?limit=100")).json();
  return page.data.map((event: { type: string }) => event.type).reverse();
}

async function attemptsOf(t: TestApp, paymentId: string) {
  const payment = (await findPaymentByPublicId(t.store.db, paymentId))!;
  return await listAttemptsOfPayment(t.store.db, payment.id);
}

/** Lets the fake finish its work and lets every job run that is due after `ms`. */
async function settle(t: TestApp, ms = 0) {
  await t.payu!.idle();
  t.clock.advance(ms);
  await t.services.scheduler.runDue();
  await t.payu!.idle();
}

Deno.test("[payu] a BLIK code makes one order and the notification ends the payment SUCCEEDED", async () => {
  // The customer confirms in the banking app only when the test says so (`decide`).
  const { t, payu, paymentId } = await production({ switches: { confirmTimeoutMs: null } });
  try {
    const answer = await enterCode(t, paymentId, "123456");
    assert.equal(answer.status, 200);
    assert.equal(answer.body.phase, "processing");
    assert.equal((await paymentOf(t, paymentId)).status, "PROCESSING");
    const [attempt] = await attemptsOf(t, paymentId);
    assert.match(attempt.public_id, /^att_[0-9A-Za-z]{24}$/);
    assert.equal(attempt.status, "OPEN");

    const [order] = payu.orders();
    assert.equal(order.extOrderId, attempt.public_id);
    assert.equal(attempt.provider_ref, order.orderId);
    assert.equal(order.notifyUrl, "https://api.paystead.test/providers/payu/notify");
    assert.equal(order.merchantPosId, PAYU_SANDBOX_POS.posId);
    assert.equal(order.totalAmount, "1250");
    assert.equal(order.currencyCode, "PLN");
    assert.equal(order.description, "Coffee");
    assert.deepEqual(order.buyer, { email: "ada@example.com" });
    assert.deepEqual(order.products, [{ name: "Coffee", unitPrice: "1250", quantity: "1" }]);
    assert.equal(order.authorizationCode, "123456");
    assert.equal(order.payMethodType, "PBL");

    await settle(t);
    assert.equal((await paymentOf(t, paymentId)).status, "PROCESSING");
    assert.equal(payu.decide(order.orderId, "COMPLETED"), true);
    await settle(t);
    const paid = await paymentOf(t, paymentId);
    assert.equal(paid.status, "SUCCEEDED");
    assert.equal(paid.failureCode, null);
    assert.deepEqual(await eventTypes(t), [
      "payment.created",
      "payment.processing",
      "payment.succeeded",
    ]);
    assert.equal((await attemptsOf(t, paymentId))[0].status, "SUCCEEDED");
    assert.equal(payu.orders().length, 1);
    assert.equal(t.services.provider.health.lastNotificationAt, t.clock.now());
    assert.equal(t.services.provider.health.lastSuccessAt, t.clock.now());
  } finally {
    await t.close();
  }
});

Deno.test("[payu] every sandbox BLIK code ends with its failure code", async (s) => {
  const cases: [string, string, string | null][] = [
    ["777001", "SUCCEEDED", null],
    ["200201", "SUCCEEDED", null],
    ["500500", "FAILED", "declined"],
    ["700701", "FAILED", "code_expired"],
    ["700702", "FAILED", "code_canceled"],
    ["700703", "FAILED", "code_already_used"],
  ];
  for (const [code, status, failureCode] of cases) {
    await s.step(code, async () => {
      const { t, paymentId } = await production();
      try {
        assert.equal((await enterCode(t, paymentId, code)).status, 200);
        await settle(t);
        const payment = await paymentOf(t, paymentId);
        assert.equal(payment.status, status);
        assert.equal(payment.failureCode, failureCode);
      } finally {
        await t.close();
      }
    });
  }
  await s.step("a code the customer never confirms times out at PayU", async () => {
    const { t, paymentId } = await production({ switches: { confirmTimeoutMs: 20 } });
    try {
      await enterCode(t, paymentId, "123456");
      await new Promise((resolve) => setTimeout(resolve, 40));
      await settle(t);
      const payment = await paymentOf(t, paymentId);
      assert.equal(payment.status, "FAILED");
      assert.equal(payment.failureCode, "timeout");
    } finally {
      await t.close();
    }
  });
  await s.step("a code that is not 6 digits never reaches PayU", async () => {
    const { t, payu, paymentId } = await production();
    try {
      const answer = await enterCode(t, paymentId, "12345");
      assert.equal(answer.status, 400);
      assert.equal(answer.body.error.code, "parameter_invalid");
      assert.equal(payu.orders().length, 0);
      assert.equal((await paymentOf(t, paymentId)).status, "PENDING");
    } finally {
      await t.close();
    }
  });
});

Deno.test("[payu] a code PayU refuses at create gets the failure code a cancelled order would", async (s) => {
  const cases: [string, string][] = [
    ["500500", "declined"],
    ["700701", "code_expired"],
    ["700702", "code_canceled"],
    ["700703", "code_already_used"],
  ];
  for (const [code, failureCode] of cases) {
    await s.step(code, async () => {
      const { t, payu, paymentId } = await production({ switches: { codeRefusals: "create" } });
      try {
        assert.equal((await enterCode(t, paymentId, code)).body.phase, "failed");
        const payment = await paymentOf(t, paymentId);
        assert.equal(payment.status, "FAILED");
        assert.equal(payment.failureCode, failureCode);
        assert.equal(payu.orders().length, 0);
      } finally {
        await t.close();
      }
    });
  }
  await s.step("literals that name the code's fate in other words", () => {
    const cases: [Record<string, string>, string | null][] = [
      [{ codeLiteral: "AUTHORIZATION_CODE_EXPIRED" }, "code_expired"],
      [{ codeLiteral: "BLIK_CODE_CANCELLED" }, "code_canceled"],
      [{ codeLiteral: "AUTH_CODE_ALREADY_USED" }, "code_already_used"],
      [{ codeLiteral: "INVALID_AUTHORIZATION_CODE" }, "invalid_code"],
      [{ statusDesc: "BLIK code has been used" }, "code_already_used"],
      [{ statusDesc: "INVALID_BLIK_CODE" }, "invalid_code"],
      [{ code: "REG_ERROR_AUTH_CODE_EXPIRED" }, "code_expired"],
      [{ statusDesc: "Invalid value of field: currencyCode" }, null],
      [{ codeLiteral: "EXPIRED_TOKEN" }, null],
    ];
    for (const [fields, expected] of cases) {
      assert.equal(
        codeRefusal({ statusCode: "ERROR_VALUE_INVALID", ...fields }),
        expected,
        JSON.stringify(fields),
      );
    }
  });
});

Deno.test("[payu] PayU's refusals and error statuses map to failure codes or to polling", async (s) => {
  await s.step("403 for another POS: provider_rejected, no order", async () => {
    const { t, payu, paymentId } = await production({ env: { PAYU_POS_ID: "999999" } });
    try {
      assert.equal((await enterCode(t, paymentId, "777123")).body.phase, "failed");
      const payment = await paymentOf(t, paymentId);
      assert.equal(payment.status, "FAILED");
      assert.equal(payment.failureCode, "provider_rejected");
      assert.equal(payu.orders().length, 0);
    } finally {
      await t.close();
    }
  });
  await s.step("400 for a currency PayU does not take: provider_rejected", async () => {
    const { t, paymentId } = await production({ currency: "JPY" });
    try {
      await enterCode(t, paymentId, "777123");
      const payment = await paymentOf(t, paymentId);
      assert.equal(payment.status, "FAILED");
      assert.equal(payment.failureCode, "provider_rejected");
    } finally {
      await t.close();
    }
  });
  for (const status of [500, 503, 408] as const) {
    await s.step(`${status}: unknown, PROCESSING; no order found a minute later`, async () => {
      const { t, payu, paymentId } = await production({
        switches: { apiErrorStatus: status, apiErrorRemaining: 1 },
      });
      try {
        assert.equal((await enterCode(t, paymentId, "777123")).body.phase, "processing");
        assert.equal((await attemptsOf(t, paymentId))[0].status, "OPEN");
        await settle(t, MINUTE);
        const payment = await paymentOf(t, paymentId);
        assert.equal(payment.status, "FAILED");
        assert.equal(payment.failureCode, "provider_unavailable");
        assert.equal(payu.orders().length, 0);
      } finally {
        await t.close();
      }
    });
  }
});

Deno.test("[payu] the token is cached until shortly before it expires, and a 401 is retried once", async (s) => {
  let tokenRequests = 0;
  let orderRequests = 0;
  let refuseOrders = 0;
  const counting = (fake: Fetch): Fetch => async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/pl/standard/user/oauth/authorize") tokenRequests++;
    if (path === "/api/v2_1/orders" && request.method === "POST") {
      orderRequests++;
      if (refuseOrders > 0) {
        refuseOrders--;
        return Response.json({ status: { statusCode: "UNAUTHORIZED" } }, { status: 401 });
      }
    }
    return await fake(request);
  };
  const { t, payu } = await production({ fetch: counting, switches: { tokenTtlSeconds: 600 } });
  const offer = await createTestOffer(t, { amount: 100, currency: "PLN" });
  const pay = async () => {
    const payment = await createTestPayment(t, offer.qrId);
    await enterCode(t, payment.paymentId, "777123");
    await settle(t);
    return await paymentOf(t, payment.paymentId);
  };
  try {
    await s.step("concurrent first calls share one token request", async () => {
      const payments = await Promise.all([1, 2, 3].map(() => pay()));
      assert.deepEqual(payments.map((p) => p.status), ["SUCCEEDED", "SUCCEEDED", "SUCCEEDED"]);
      assert.equal(tokenRequests, 1);
    });
    await s.step("later payments reuse it", async () => {
      tokenRequests = 0;
      assert.equal((await pay()).status, "SUCCEEDED");
      assert.equal((await pay()).status, "SUCCEEDED");
      assert.equal(tokenRequests, 0);
    });
    await s.step("a minute before it expires a new one is fetched", async () => {
      tokenRequests = 0;
      t.clock.advance(539_000);
      assert.equal((await pay()).status, "SUCCEEDED");
      assert.equal(tokenRequests, 0);
      t.clock.advance(1_000);
      assert.equal((await pay()).status, "SUCCEEDED");
      assert.equal(tokenRequests, 1);
    });
    await s.step(
      "a token PayU no longer takes is replaced once and the order sent again",
      async () => {
        tokenRequests = 0;
        orderRequests = 0;
        payu.revokeTokens();
        assert.equal((await pay()).status, "SUCCEEDED");
        assert.equal(tokenRequests, 1);
        assert.equal(orderRequests, 2);
      },
    );
    await s.step("a second 401 fails the attempt as provider_unavailable", async () => {
      orderRequests = 0;
      refuseOrders = 2;
      const ordersBefore = payu.orders().length;
      const payment = await pay();
      assert.equal(payment.status, "PENDING");
      assert.equal(orderRequests, 2);
      assert.equal(payu.orders().length, ordersBefore);
    });
  } finally {
    await t.close();
  }
});

function orderNotification(order: FakeOrder, status: string): string {
  return JSON.stringify({
    order: {
      orderId: order.orderId,
      extOrderId: order.extOrderId,
      orderCreateDate: order.orderCreateDate,
      notifyUrl: order.notifyUrl,
      customerIp: order.customerIp,
      merchantPosId: order.merchantPosId,
      description: order.description,
      currencyCode: order.currencyCode,
      totalAmount: order.totalAmount,
      products: order.products,
      status,
    },
  });
}

function postNotification(t: TestApp, body: string, signature?: string) {
  return t.app.request("/providers/payu/notify", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json",
      ...(signature === undefined ? {} : { "openpayu-signature": signature }),
    },
    body,
  });
}

Deno.test("[payu] a notification counts only with a valid OpenPayu-Signature", async (s) => {
  const { t, payu, paymentId } = await production({
    switches: { dropNotifications: true, confirmTimeoutMs: null },
  });
  try {
    await enterCode(t, paymentId, "777123");
    const order = payu.orders()[0];
    const body = orderNotification(order, "COMPLETED");
    const key = PAYU_SANDBOX_POS.secondKey;
    await s.step("missing: 401, nothing changes", async () => {
      const response = await postNotification(t, body);
      assert.equal(response.status, 401);
      assert.equal((await response.json()).error.code, "signature_invalid");
      assert.equal((await paymentOf(t, paymentId)).status, "PROCESSING");
    });
    await s.step("signed with another key: 401, nothing changes", async () => {
      const response = await postNotification(t, body, signNotification(body, "not-the-key"));
      assert.equal(response.status, 401);
      assert.equal((await paymentOf(t, paymentId)).status, "PROCESSING");
    });
    await s.step("a valid signature of another body: 401", async () => {
      const other = orderNotification(order, "CANCELED");
      const response = await postNotification(t, body, signNotification(other, key));
      assert.equal(response.status, 401);
      assert.equal((await paymentOf(t, paymentId)).status, "PROCESSING");
      assert.equal(t.services.provider.health.lastNotificationAt, null);
    });
    await s.step("an unknown algorithm: 401", async () => {
      const signature = signNotification(body, key).replace("algorithm=MD5", "algorithm=CRC32");
      assert.equal((await postNotification(t, body, signature)).status, 401);
    });
    await s.step("over 64 KiB: 413", async () => {
      const huge = JSON.stringify({ padding: "x".repeat(70 * 1024) });
      const response = await postNotification(t, huge, signNotification(huge, key));
      assert.equal(response.status, 413);
    });
    await s.step("valid with SHA-256: 200 and the payment SUCCEEDED", async () => {
      const response = await postNotification(t, body, signNotification(body, key, "SHA-256"));
      assert.equal(response.status, 200);
      assert.equal(await response.text(), "OK");
      assert.equal((await paymentOf(t, paymentId)).status, "SUCCEEDED");
    });
    await s.step(
      "repeated, and a late CANCELED: 200, nothing moves the final payment",
      async () => {
        assert.equal((await postNotification(t, body, signNotification(body, key))).status, 200);
        const late = orderNotification(order, "CANCELED");
        assert.equal((await postNotification(t, late, signNotification(late, key))).status, 200);
        const pending = orderNotification(order, "PENDING");
        assert.equal(
          (await postNotification(t, pending, signNotification(pending, key))).status,
          200,
        );
        const payment = await paymentOf(t, paymentId);
        assert.equal(payment.status, "SUCCEEDED");
        assert.equal(
          (await eventTypes(t)).filter((type) => type === "payment.succeeded").length,
          1,
        );
      },
    );
    await s.step("an unknown order: 200, nothing changes", async () => {
      const unknown = orderNotification({ ...order, extOrderId: "att_unknown" }, "COMPLETED");
      assert.equal(
        (await postNotification(t, unknown, signNotification(unknown, key))).status,
        200,
      );
    });
    await s.step("a signed body that is not a notification: 200, ignored", async () => {
      const odd = JSON.stringify({ hello: "world" });
      assert.equal((await postNotification(t, odd, signNotification(odd, key))).status, 200);
    });
  } finally {
    await t.close();
  }
});

Deno.test("[payu] duplicate and out-of-order notifications change nothing", async (s) => {
  const cases = [
    [{ duplicateNotifications: true }, ["PENDING", "PENDING", "COMPLETED", "COMPLETED"]],
    [{ reorderNotifications: true }, ["COMPLETED", "PENDING"]],
  ] as const;
  for (const [switches, sent] of cases) {
    await s.step(Object.keys(switches)[0], async () => {
      const { t, payu, paymentId } = await production({ switches });
      try {
        await enterCode(t, paymentId, "777123");
        await settle(t);
        assert.deepEqual(
          payu.notifications().map((n) => [n.status, n.answer]),
          sent.map((status) => [status, 200]),
        );
        assert.equal((await paymentOf(t, paymentId)).status, "SUCCEEDED");
        assert.deepEqual(await eventTypes(t), [
          "payment.created",
          "payment.processing",
          "payment.succeeded",
        ]);
      } finally {
        await t.close();
      }
    });
  }
});

Deno.test("[payu] an order WAITING_FOR_CONFIRMATION is not paid: PayU may still cancel it", async (s) => {
  await s.step("by notification: PROCESSING until PayU decides, then FAILED", async () => {
    const { t, payu, paymentId } = await production({
      switches: { dropNotifications: true, confirmTimeoutMs: null },
    });
    try {
      await enterCode(t, paymentId, "123456");
      const [order] = payu.orders();
      const waiting = orderNotification(order, "WAITING_FOR_CONFIRMATION");
      const key = PAYU_SANDBOX_POS.secondKey;
      const response = await postNotification(t, waiting, signNotification(waiting, key));
      assert.equal(response.status, 200);
      assert.equal((await paymentOf(t, paymentId)).status, "PROCESSING");
      assert.equal((await attemptsOf(t, paymentId))[0].status, "OPEN");
      assert.equal(payu.decide(order.orderId, "CANCELED"), true);
      await settle(t, MINUTE);
      const payment = await paymentOf(t, paymentId);
      assert.equal(payment.status, "FAILED");
      assert.deepEqual(await eventTypes(t), [
        "payment.created",
        "payment.processing",
        "payment.failed",
      ]);
    } finally {
      await t.close();
    }
  });
  await s.step(
    "by asking PayU: PROCESSING while it waits, SUCCEEDED once it completes",
    async () => {
      let waiting = true;
      // PayU's answer about the order says WAITING_FOR_CONFIRMATION until the test lets it go.
      const holding = (fake: Fetch): Fetch => async (request) => {
        const response = await fake(request);
        const path = new URL(request.url).pathname;
        if (!waiting || request.method !== "GET" || !/^\/api\/v2_1\/orders\/[^/]+$/.test(path)) {
          return response;
        }
        const body = await response.json();
        for (const order of body.orders) order.status = "WAITING_FOR_CONFIRMATION";
        return new Response(JSON.stringify(body), {
          status: response.status,
          headers: response.headers,
        });
      };
      const { t, paymentId } = await production({
        switches: { dropNotifications: true },
        fetch: holding,
      });
      try {
        await enterCode(t, paymentId, "777123");
        await settle(t, MINUTE);
        assert.equal((await paymentOf(t, paymentId)).status, "PROCESSING");
        await settle(t, MINUTE);
        assert.equal((await paymentOf(t, paymentId)).status, "PROCESSING");
        assert.equal((await attemptsOf(t, paymentId))[0].status, "OPEN");
        waiting = false;
        await settle(t, MINUTE);
        assert.equal((await paymentOf(t, paymentId)).status, "SUCCEEDED");
        assert.deepEqual(await eventTypes(t), [
          "payment.created",
          "payment.processing",
          "payment.succeeded",
        ]);
      } finally {
        await t.close();
      }
    },
  );
});

Deno.test("[payu] without notifications the payment is settled by asking PayU", async (s) => {
  await s.step("completed: SUCCEEDED after a minute", async () => {
    const { t, paymentId } = await production({ switches: { dropNotifications: true } });
    try {
      await enterCode(t, paymentId, "777123");
      await settle(t);
      assert.equal((await paymentOf(t, paymentId)).status, "PROCESSING");
      await settle(t, MINUTE);
      assert.equal((await paymentOf(t, paymentId)).status, "SUCCEEDED");
    } finally {
      await t.close();
    }
  });
  await s.step("refused: FAILED with the bank's reason", async () => {
    const { t, paymentId } = await production({ switches: { dropNotifications: true } });
    try {
      await enterCode(t, paymentId, "700701");
      await settle(t, MINUTE);
      const payment = await paymentOf(t, paymentId);
      assert.equal(payment.status, "FAILED");
      assert.equal(payment.failureCode, "code_expired");
    } finally {
      await t.close();
    }
  });
  await s.step("undecided past its validity: cancelled at PayU, FAILED timeout", async () => {
    const { t, payu, paymentId } = await production({
      switches: { dropNotifications: true, confirmTimeoutMs: null },
    });
    try {
      await enterCode(t, paymentId, "123456");
      for (let minute = 1; minute <= 4; minute++) {
        await settle(t, MINUTE);
        assert.equal((await paymentOf(t, paymentId)).status, "PROCESSING");
      }
      await settle(t, MINUTE);
      const payment = await paymentOf(t, paymentId);
      assert.equal(payment.status, "FAILED");
      assert.equal(payment.failureCode, "timeout");
      assert.equal(payu.orders()[0].status, "CANCELED");
    } finally {
      await t.close();
    }
  });
});

Deno.test("[payu] a slow PayU leaves the payment PROCESSING and the order is found later", async () => {
  const { t, payu, paymentId } = await production({
    switches: { responseDelayMs: 300, dropNotifications: true },
    timeouts: { orderMs: 50 },
  });
  try {
    const answer = await enterCode(t, paymentId, "777123");
    assert.equal(answer.body.phase, "processing");
    const [attempt] = await attemptsOf(t, paymentId);
    assert.equal(attempt.provider_ref, null);
    assert.equal(payu.orders().length, 1);
    await new Promise((resolve) => setTimeout(resolve, 350));
    await settle(t, MINUTE);
    assert.equal((await paymentOf(t, paymentId)).status, "SUCCEEDED");
    assert.equal((await attemptsOf(t, paymentId))[0].provider_ref, payu.orders()[0].orderId);
    assert.equal(payu.orders().length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("[payu] a refused connection fails the attempt; the payment stays payable", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closedPort = (listener.addr as Deno.NetAddr).port;
  listener.close();
  let refuse = true;
  const refusing = (fake: Fetch): Fetch => (request) => {
    const url = new URL(request.url);
    if (refuse && url.pathname === "/api/v2_1/orders") {
      return fetch(`http://127.0.0.1:${closedPort}${url.pathname}`, { method: "POST" });
    }
    return fake(request);
  };
  const { t, payu, paymentId } = await production({ fetch: refusing });
  try {
    const answer = await enterCode(t, paymentId, "777123");
    assert.equal(answer.status, 200);
    assert.equal(answer.body.phase, "failed");
    assert.equal(answer.body.failureCode, "provider_unavailable");
    assert.equal(answer.body.canRetry, true);
    const payment = await paymentOf(t, paymentId);
    assert.equal(payment.status, "PENDING");
    const [attempt] = await attemptsOf(t, paymentId);
    assert.equal(attempt.status, "FAILED");
    assert.equal(attempt.failure_code, "provider_unavailable");
    assert.equal(payu.orders().length, 0);

    refuse = false;
    assert.equal((await enterCode(t, paymentId, "777123")).status, 200);
    await settle(t);
    assert.equal((await paymentOf(t, paymentId)).status, "SUCCEEDED");
    assert.equal((await attemptsOf(t, paymentId)).length, 2);
  } finally {
    await t.close();
  }
});

Deno.test("[payu] a late answer about an attempt that already ended moves nothing", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closedPort = (listener.addr as Deno.NetAddr).port;
  listener.close();
  let refuse = true;
  const refusing = (fake: Fetch): Fetch => (request) => {
    const url = new URL(request.url);
    if (refuse && url.pathname === "/api/v2_1/orders") {
      return fetch(`http://127.0.0.1:${closedPort}${url.pathname}`, { method: "POST" });
    }
    return fake(request);
  };
  const { t, payu, paymentId } = await production({ fetch: refusing });
  try {
    assert.equal(
      (await enterCode(t, paymentId, "777123")).body.failureCode,
      "provider_unavailable",
    );
    const [ended] = await attemptsOf(t, paymentId);
    assert.equal(ended.status, "FAILED");
    // A signed notification naming the ended attempt, as a stray or replayed one would.
    const key = PAYU_SANDBOX_POS.secondKey;
    for (const status of ["PENDING", "WAITING_FOR_CONFIRMATION", "COMPLETED"]) {
      const stale = JSON.stringify({
        order: {
          orderId: "STALE0RDER0000000000",
          extOrderId: ended.public_id,
          orderCreateDate: new Date(t.clock.now()).toISOString(),
          notifyUrl: "https://api.paystead.test/providers/payu/notify",
          customerIp: "127.0.0.1",
          merchantPosId: PAYU_SANDBOX_POS.posId,
          description: "Coffee",
          currencyCode: "PLN",
          totalAmount: "1250",
          products: [{ name: "Coffee", unitPrice: "1250", quantity: "1" }],
          status,
        },
      });
      const response = await postNotification(t, stale, signNotification(stale, key));
      assert.equal(response.status, 200);
      assert.equal((await paymentOf(t, paymentId)).status, "PENDING", status);
    }
    const [after] = await attemptsOf(t, paymentId);
    assert.equal(after.status, "FAILED");
    assert.equal(after.failure_code, "provider_unavailable");
    assert.equal(after.provider_ref, null);
    assert.deepEqual(await eventTypes(t), ["payment.created"]);

    // The payment is still the customer's to pay, and nothing waits on a poll that never comes.
    refuse = false;
    assert.equal((await enterCode(t, paymentId, "777123")).status, 200);
    await settle(t);
    assert.equal((await paymentOf(t, paymentId)).status, "SUCCEEDED");
    assert.equal(payu.orders().length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("[payu] a second code while the first is with PayU is 409, one order only", async () => {
  const { t, payu, paymentId } = await production({ switches: { responseDelayMs: 100 } });
  try {
    const [first, second] = await Promise.all([
      enterCode(t, paymentId, "777123"),
      enterCode(t, paymentId, "777456"),
    ]);
    const statuses = [first.status, second.status].sort();
    assert.deepEqual(statuses, [200, 409]);
    const conflict = first.status === 409 ? first : second;
    assert.equal(conflict.body.error.code, "payment_processing");
    assert.equal(payu.orders().length, 1);
    const cancel = await t.request("POST", `/api/v1/payments/${paymentId}/cancel`);
    assert.equal(cancel.status, 409);
    await settle(t);
    assert.equal((await paymentOf(t, paymentId)).status, "SUCCEEDED");
  } finally {
    await t.close();
  }
});

Deno.test("[payu] the customer's address reaches PayU through trusted proxies only", async () => {
  const { t, payu, paymentId } = await production();
  try {
    const response = await t.app.request(`/pay/${paymentId}`, {
      method: "POST",
      headers: { ...SAME_ORIGIN, "x-forwarded-for": "198.51.100.1, 203.0.113.7" },
      body: JSON.stringify({ code: "777123" }),
    }, { remoteAddr: { hostname: "127.0.0.1", port: 40000, transport: "tcp" } });
    assert.equal(response.status, 200);
    assert.equal(payu.orders()[0].customerIp, "203.0.113.7");
  } finally {
    await t.close();
  }
});

Deno.test("[payu] refunds go through PayU's refunds API and wait for its word", async (s) => {
  const paid = async (switches: FakePayuSwitchesPatch = {}) => {
    const { t, payu, paymentId } = await production();
    await enterCode(t, paymentId, "777123");
    await settle(t);
    assert.equal((await paymentOf(t, paymentId)).status, "SUCCEEDED");
    payu.set(switches);
    return { t, payu, paymentId };
  };
  await s.step("FINALIZED: SUCCEEDED, with extRefundId = the refund id", async () => {
    const { t, payu, paymentId } = await paid();
    try {
      const created = await t.request("POST", `/api/v1/payments/${paymentId}/refunds`, {
        amount: 250,
        reason: "Broken cup",
      });
      assert.equal(created.status, 201);
      const refund = await created.json();
      assert.equal(refund.status, "PENDING");
      await t.services.scheduler.runDue();
      const [sent] = payu.refunds();
      assert.equal(sent.extRefundId, refund.refundId);
      assert.equal(sent.amount, "250");
      assert.equal(sent.description, "Broken cup");
      assert.equal(sent.orderId, payu.orders()[0].orderId);
      await settle(t);
      const done = await (await t.request("GET", `/api/v1/refunds/${refund.refundId}`)).json();
      assert.equal(done.status, "SUCCEEDED");
      assert.equal((await paymentOf(t, paymentId)).amountRefunded, 250);
      assert.equal(payu.refunds().length, 1);
    } finally {
      await t.close();
    }
  });
  await s.step("CANCELED: FAILED and the amount is given back once", async () => {
    const { t, paymentId } = await paid({
      refundOutcome: "CANCELED",
      duplicateNotifications: true,
    });
    try {
      const refund = await (await t.request("POST", `/api/v1/payments/${paymentId}/refunds`, {}))
        .json();
      assert.equal((await paymentOf(t, paymentId)).amountRefunded, 1250);
      await settle(t);
      const done = await (await t.request("GET", `/api/v1/refunds/${refund.refundId}`)).json();
      assert.equal(done.status, "FAILED");
      assert.equal(done.failureCode, "declined");
      assert.equal((await paymentOf(t, paymentId)).amountRefunded, 0);
      assert.equal(
        (await eventTypes(t)).filter((type) => type === "refund.failed").length,
        1,
      );
    } finally {
      await t.close();
    }
  });
  for (const status of [500, 503, 408] as const) {
    await s.step(
      `${status}: unknown, the amount stays reserved; sent again, refunded once`,
      async () => {
        const { t, payu, paymentId } = await paid({
          apiErrorStatus: status,
          apiErrorRemaining: 1,
        });
        try {
          const refund =
            await (await t.request("POST", `/api/v1/payments/${paymentId}/refunds`, {}))
              .json();
          await settle(t);
          let current = await (await t.request("GET", `/api/v1/refunds/${refund.refundId}`)).json();
          assert.equal(current.status, "PENDING");
          assert.equal(current.failureCode, null);
          assert.equal(payu.refunds().length, 0);
          // PayU may have paid it out: the amount is not given back, so it cannot go out twice.
          assert.equal((await paymentOf(t, paymentId)).amountRefunded, 1250);
          const again = await t.request("POST", `/api/v1/payments/${paymentId}/refunds`, {});
          assert.equal(again.status, 400);
          assert.equal((await again.json()).error.code, "refund_exceeds_payment");

          await settle(t, MINUTE);
          current = await (await t.request("GET", `/api/v1/refunds/${refund.refundId}`)).json();
          assert.equal(current.status, "SUCCEEDED");
          assert.equal(payu.refunds().length, 1);
          assert.equal(payu.refunds()[0].extRefundId, refund.refundId);
          assert.equal((await paymentOf(t, paymentId)).amountRefunded, 1250);
          const types = await eventTypes(t);
          assert.deepEqual(types.filter((type) => type.startsWith("refund.")), [
            "refund.created",
            "refund.succeeded",
          ]);
        } finally {
          await t.close();
        }
      },
    );
  }
  await s.step("no notification: the refund's status is asked after a minute", async () => {
    const { t, payu, paymentId } = await paid({ dropNotifications: true });
    try {
      const refund = await (await t.request("POST", `/api/v1/payments/${paymentId}/refunds`, {}))
        .json();
      await settle(t);
      assert.equal(payu.refunds()[0].status, "FINALIZED");
      let current = await (await t.request("GET", `/api/v1/refunds/${refund.refundId}`)).json();
      assert.equal(current.status, "PENDING");
      await settle(t, MINUTE);
      current = await (await t.request("GET", `/api/v1/refunds/${refund.refundId}`)).json();
      assert.equal(current.status, "SUCCEEDED");
    } finally {
      await t.close();
    }
  });
});

Deno.test("[payu] production takes recurring offers, renewed by link: the first payment needs an e-mail", async () => {
  const t = await makeTestApp({ environment: "production" });
  try {
    const response = await t.request("POST", "/api/v1/qr", {
      name: "Monthly beans",
      amount: 4000,
      currency: "PLN",
      recurring: { interval: "MONTH" },
    });
    assert.equal(response.status, 201);
    const offer = await response.json();
    assert.deepEqual(offer.recurring, { interval: "MONTH", intervalCount: 1 });

    const refused = await t.request("POST", "/api/v1/payments", { qrId: offer.qrId });
    assert.equal(refused.status, 400);
    const error = (await refused.json()).error;
    assert.equal(error.type, "invalid_request");
    assert.equal(error.code, "customer_email_required");
    assert.equal(error.param, "customer.email");
    assert.equal(
      error.message,
      `The offer '${offer.qrId}' is a subscription renewed by a pay link sent by e-mail, so its first payment needs the customer's e-mail address.`,
    );
    const payments = await (await t.request("GET", "/api/v1/payments")).json();
    assert.deepEqual(payments.data, []);

    const created = await t.request("POST", "/api/v1/payments", {
      qrId: offer.qrId,
      customer: { email: "ada@example.com" },
    });
    assert.equal(created.status, 201);
  } finally {
    await t.close();
  }
});

Deno.test("[payu] the production panel shows the provider and when it was last heard from", async () => {
  const { t, agent } = await signedInApp({ environment: "production" });
  try {
    let page = pageText(await (await agent.get("/panel/developers")).text());
    assert.match(
      page,
      /Payment provider Provider PayU, POS 300746 at https:\/\/secure\.snd\.payu\.com Notification URL https:\/\/api\.paystead\.test\/providers\/payu\/notify Last successful call not since this process started Last notification not since this process started/,
    );
    const offer = await createTestOffer(t);
    const payment = await createTestPayment(t, offer.qrId);
    await enterCode(t, payment.paymentId, "777123");
    await settle(t);
    page = pageText(await (await agent.get("/panel/developers")).text());
    const at = new Date(t.clock.now()).toISOString();
    assert.ok(page.includes(`Last successful call ${at} Last notification ${at}`), page);
  } finally {
    await t.close();
  }
});

Deno.test("[payu] two processes reconciling at once ask PayU about an attempt once", async () => {
  let lookups = 0;
  const counting = (fake: Fetch): Fetch => (request) => {
    if (request.method === "GET" && new URL(request.url).pathname.startsWith("/api/v2_1/orders/")) {
      lookups++;
    }
    return fake(request);
  };
  const { t, paymentId } = await production({
    fetch: counting,
    switches: { dropNotifications: true },
  });
  const store = await openStore<EnvironmentSchema>(t.config.databaseUrl);
  const accounts = await openStore<AccountsSchema>(t.config.accountsDatabaseUrl);
  const other = createApp({
    config: t.config,
    store,
    accounts,
    clock: t.clock,
    providerOptions: { fetch: counting(t.payu!.fetch) },
    log: silentLogger,
  });
  try {
    await enterCode(t, paymentId, "777123");
    await t.payu!.idle();
    t.clock.advance(MINUTE);
    await Promise.all([t.services.scheduler.runDue(), other.services.scheduler.runDue()]);
    assert.equal(lookups, 1);
    assert.equal((await paymentOf(t, paymentId)).status, "SUCCEEDED");
    assert.equal(
      (await eventTypes(t)).filter((type) => type === "payment.succeeded").length,
      1,
    );
  } finally {
    await other.services.scheduler.stop();
    await other.webhooks.stop();
    await store.close();
    await accounts.close();
    await t.close();
  }
});

Deno.test("[payu] an order still on its way to PayU is not declared absent by another process", async () => {
  // The first order is held on its way to PayU (a slow network) while another process starts
  // and, as every start does, asks PayU at once about each open attempt.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let sent = false;
  const slow = (fake: Fetch): Fetch => async (request) => {
    if (
      !sent && request.method === "POST" && new URL(request.url).pathname === "/api/v2_1/orders"
    ) {
      sent = true;
      await held;
    }
    return await fake(request);
  };
  const { t, payu, paymentId } = await production({ fetch: slow });
  const store = await openStore<EnvironmentSchema>(t.config.databaseUrl);
  const accounts = await openStore<AccountsSchema>(t.config.accountsDatabaseUrl);
  const other = createApp({
    config: t.config,
    store,
    accounts,
    clock: t.clock,
    providerOptions: { fetch: slow(payu.fetch) },
    log: silentLogger,
  });
  try {
    const entering = enterCode(t, paymentId, "777123");
    await waitFor(() => sent);
    await reconcileAtStart(other.services);
    await other.services.scheduler.runDue();
    const [attempt] = await attemptsOf(t, paymentId);
    assert.equal(attempt.status, "OPEN");
    assert.equal(attempt.failure_code, null);
    assert.equal((await paymentOf(t, paymentId)).status, "PENDING");
    // The customer cannot start a second charge while the first may still go through.
    const second = await enterCode(t, paymentId, "777456");
    assert.equal(second.status, 409);
    assert.equal(second.body.error.code, "payment_processing");

    release();
    assert.equal((await entering).status, 200);
    await settle(t);
    assert.equal((await paymentOf(t, paymentId)).status, "SUCCEEDED");
    assert.equal(payu.orders().length, 1);
    assert.equal((await attemptsOf(t, paymentId)).length, 1);
  } finally {
    release();
    await other.services.scheduler.stop();
    await other.webhooks.stop();
    await store.close();
    await accounts.close();
    await t.close();
  }
});
