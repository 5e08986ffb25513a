import assert from "node:assert/strict";
import { allowOrigins, createTestSession, pathOf } from "./support/checkout_helpers.ts";
import {
  createTestOffer,
  createTestPayment,
  expectError,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";

/** 5 KiB of padding: over the 4 KiB a code form may have, far under the API's 1 MiB. */
const PADDING = "x".repeat(5 * 1024);

/** A valid, paying code in a body too large for a code form: as JSON, then as an HTML form. */
const OVERSIZED: [string, string, string][] = [
  ["JSON", "application/json", JSON.stringify({ code: "777123", pad: PADDING })],
  ["HTML form", "application/x-www-form-urlencoded", `code=777123&pad=${PADDING}`],
];

function post(t: TestApp, path: string, type: string, body: string) {
  return Promise.resolve(t.app.request(path, {
    method: "POST",
    headers: { "content-type": type, accept: "application/json", "sec-fetch-site": "same-origin" },
    body,
  }));
}

async function counts(t: TestApp) {
  const count = async (table: "payments" | "events" | "checkout_code_guards") =>
    Number(
      (await t.store.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()).n,
    );
  return {
    payments: await count("payments"),
    events: await count("events"),
    guards: await count("checkout_code_guards"),
  };
}

Deno.test("[pay] a code submission over 4 KiB is 413 and pays nothing", async (s) => {
  const t = await makeTestApp();
  try {
    const offer = await createTestOffer(t);
    const payment = await createTestPayment(t, offer.qrId);
    const path = pathOf(payment.paymentUrl as string);
    const before = await counts(t);
    for (const [name, type, body] of OVERSIZED) {
      await s.step(name, async () => {
        await expectError(
          await post(t, path, type, body),
          413,
          "invalid_request",
          "body_too_large",
          "The form is larger than a payment code can be.",
        );
        const current = await (await t.request("GET", `/api/v1/payments/${payment.paymentId}`))
          .json();
        assert.equal(current.status, "PENDING");
        assert.equal(current.updatedAt, payment.updatedAt);
        assert.deepEqual(await counts(t), before);
      });
    }
  } finally {
    await t.close();
  }
});

Deno.test("[checkout] a code submission over 4 KiB is 413 and starts no payment", async (s) => {
  const t = await makeTestApp();
  try {
    await allowOrigins(t);
    const offer = await createTestOffer(t);
    const session = await createTestSession(t, offer.qrId);
    const path = pathOf(session.embedUrl);
    const before = await counts(t);
    for (const [name, type, body] of OVERSIZED) {
      await s.step(name, async () => {
        await expectError(
          await post(t, path, type, body),
          413,
          "invalid_request",
          "body_too_large",
          "The form is larger than a payment code can be.",
        );
        const current =
          await (await t.request("GET", `/api/v1/checkout-sessions/${session.sessionId}`)).json();
        assert.equal(current.status, "OPEN");
        assert.equal(current.paymentId, null);
        assert.deepEqual(await counts(t), before);
      });
    }
  } finally {
    await t.close();
  }
});
