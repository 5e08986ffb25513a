import assert from "node:assert/strict";
import type { Fetch } from "../lib/providers/mod.ts";
import { createTestOffer, createTestPayment, expectError, makeTestApp } from "./support/helpers.ts";

const SANDBOX_LIST = {
  data: [
    { method: "blik", flow: "code", status: "ENABLED" },
    {
      method: "transfer",
      flow: "redirect",
      status: "ENABLED",
      banks: [
        {
          bank: "test_bank_a",
          name: "Test Bank A",
          logoUrl: "/static/bank_test_bank_a.svg",
          status: "ENABLED",
        },
        {
          bank: "test_bank_b",
          name: "Test Bank B",
          logoUrl: "/static/bank_test_bank_b.svg",
          status: "ENABLED",
        },
        {
          bank: "test_bank_c",
          name: "Test Bank C",
          logoUrl: "/static/bank_test_bank_c.svg",
          status: "TEMPORARY_DISABLED",
        },
      ],
    },
    { method: "card", flow: "redirect", status: "ENABLED" },
    { method: "google_pay", flow: "redirect", status: "ENABLED" },
    { method: "apple_pay", flow: "redirect", status: "ENABLED" },
  ],
};

Deno.test("[methods] the sandbox offers all five methods with three test banks", async () => {
  const t = await makeTestApp();
  try {
    const response = await t.request("GET", "/api/v1/payment-methods");
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), SANDBOX_LIST);
    await expectError(
      await t.request("GET", "/api/v1/payment-methods?currency=pln"),
      400,
      "invalid_request",
      "parameter_invalid",
    );
  } finally {
    await t.close();
  }
});

Deno.test("[methods] allowlists on offers, payments and sessions take only offered methods", async () => {
  const t = await makeTestApp();
  try {
    const unknown = await expectError(
      await t.request("POST", "/api/v1/qr", {
        name: "Kawa",
        amount: 1250,
        currency: "PLN",
        paymentMethods: ["blik", "cash"],
      }),
      400,
      "invalid_request",
      "parameter_invalid",
    );
    assert.equal(unknown.error.param, "paymentMethods.1");
    const offer = await createTestOffer(t, { paymentMethods: ["blik", "transfer"] });
    assert.deepEqual(offer.paymentMethods, ["blik", "transfer"]);
    // A payment's own list replaces its offer's (a payment is made for one case).
    const replaced = await createTestPayment(t, offer.qrId as string, { paymentMethods: ["card"] });
    assert.deepEqual(replaced.paymentMethods, ["card"]);
    const inherited = await createTestPayment(t, offer.qrId as string);
    assert.deepEqual(inherited.paymentMethods, ["blik", "transfer"]);
    const narrowed = await createTestPayment(t, offer.qrId as string, {
      paymentMethods: ["transfer"],
    });
    assert.deepEqual(narrowed.paymentMethods, ["transfer"]);
    // The sandbox refuses a code for a payment that allows transfers only.
    const code = await expectError(
      await t.request("POST", `/api/v1/payments/${narrowed.paymentId}/complete`, {
        code: "777123",
      }),
      400,
      "invalid_request",
      "payment_method_unavailable",
    );
    assert.match(code.error.message, /blik/);
    const unchanged = await (await t.request("GET", `/api/v1/payments/${narrowed.paymentId}`))
      .json();
    assert.equal(unchanged.status, "PENDING");
    // A disabled bank is refused by name.
    const disabled = await expectError(
      await t.request("POST", `/api/v1/payments/${narrowed.paymentId}/complete`, {
        method: "transfer",
        bank: "test_bank_c",
        result: "succeeded",
      }),
      400,
      "invalid_request",
      "payment_method_unavailable",
    );
    assert.equal(disabled.error.param, "bank");
    const paid = await t.request("POST", `/api/v1/payments/${narrowed.paymentId}/complete`, {
      method: "transfer",
      bank: "test_bank_a",
      result: "succeeded",
    });
    assert.equal(paid.status, 200);
    const body = await paid.json();
    assert.deepEqual(
      [body.status, body.paymentMethod, body.bank, body.provider],
      ["SUCCEEDED", "transfer", "test_bank_a", "sandbox"],
    );
  } finally {
    await t.close();
  }
});

Deno.test("[methods] production lists PayU's pay methods, kept five minutes, leaving out the disabled", async () => {
  let listings = 0;
  const counting = (fake: Fetch): Fetch => (request) => {
    if (new URL(request.url).pathname === "/api/v2_1/paymethods") listings++;
    return fake(request);
  };
  const t = await makeTestApp({
    environment: "production",
    payuFetch: counting,
    payuSwitches: {
      payMethods: {
        o: { status: "DISABLED" },
        g: { status: "TEMPORARY_DISABLED" },
        ap: { minAmount: 5000 },
      },
    },
  });
  try {
    const first = await t.request("GET", "/api/v1/payment-methods?amount=1250");
    assert.equal(first.status, 200);
    const { data } = await first.json();
    assert.deepEqual(data.map((m: { method: string }) => m.method), [
      "blik",
      "transfer",
      "card",
      "apple_pay",
    ]);
    const transfer = data.find((m: { method: string }) => m.method === "transfer");
    assert.deepEqual(
      transfer.banks.map((b: { bank: string; status: string }) => `${b.bank}:${b.status}`),
      [
        "m:ENABLED",
        "p:ENABLED",
        "g:TEMPORARY_DISABLED",
        "ab:ENABLED",
        "wm:ENABLED",
        "i:ENABLED",
        "sgb:ENABLED",
      ],
    );
    assert.equal(transfer.banks[0].name, "mTransfer");
    // Google Pay takes 50,00 zł and more: offered for a larger amount.
    const large = await (await t.request("GET", "/api/v1/payment-methods?amount=5000")).json();
    assert.ok(large.data.some((m: { method: string }) => m.method === "google_pay"));
    assert.equal(listings, 1, "one call to PayU within five minutes");
    t.clock.advance(5 * 60_000 + 1);
    await t.request("GET", "/api/v1/payment-methods");
    assert.equal(listings, 2, "asked again after five minutes");
  } finally {
    await t.close();
  }
});

Deno.test("[methods] PayU down: 503 with Retry-After, and pages do not wait on it again for 30 s", async () => {
  let listings = 0;
  const counting = (fake: Fetch): Fetch => (request) => {
    if (new URL(request.url).pathname === "/api/v2_1/paymethods") listings++;
    return fake(request);
  };
  const t = await makeTestApp({
    environment: "production",
    payuFetch: counting,
    payuSwitches: { apiErrorStatus: 503 },
  });
  try {
    const down = await expectError(
      await t.request("GET", "/api/v1/payment-methods"),
      503,
      "api",
      "service_unavailable",
    );
    assert.match(down.error.message, /PayU/);
    await t.request("GET", "/api/v1/payment-methods");
    assert.equal(listings, 1, "the failure is kept");
    t.clock.advance(30_001);
    await t.request("GET", "/api/v1/payment-methods");
    assert.equal(listings, 2, "asked again after 30 s");
  } finally {
    await t.close();
  }
});
