import assert from "node:assert/strict";
import QRCode from "qrcode";
import { Offer } from "../lib/offers.ts";
import { createTestOffer, expectError, makeTestApp } from "./support/helpers.ts";

Deno.test("[offers] create returns the offer with defaults", async () => {
  const app = await makeTestApp();
  try {
    const response = await app.request("POST", "/api/v1/qr", {
      name: "Coffee box",
      amount: 4999,
      currency: "PLN",
      description: "Twelve bags",
      recurring: { interval: "MONTH" },
      metadata: { sku: "box-12" },
    });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get("content-type"), "application/json");
    const body = Offer.parse(await response.json());
    assert.match(body.qrId, /^qr_[0-9A-Za-z]{24}$/);
    assert.deepEqual({ ...body, qrId: "x" }, {
      qrId: "x",
      name: "Coffee box",
      description: "Twelve bags",
      amount: 4999,
      currency: "PLN",
      recurring: { interval: "MONTH", intervalCount: 1 },
      active: true,
      metadata: { sku: "box-12" },
      paymentMethods: null,
      createdAt: "2026-11-21T10:00:00.000Z",
    });
    const fetched = await app.request("GET", `/api/v1/qr/${body.qrId}`);
    assert.equal(fetched.status, 200);
    assert.deepEqual(await fetched.json(), body);
  } finally {
    await app.close();
  }
});

Deno.test("[offers] invalid offers are 400 with the field named", async (t) => {
  const app = await makeTestApp();
  try {
    const cases: [string, Record<string, unknown>, string, string, string][] = [
      [
        "missing name",
        { amount: 1, currency: "PLN" },
        "parameter_missing",
        "name",
        "Missing required field 'name'.",
      ],
      [
        "zero amount",
        { name: "x", amount: 0, currency: "PLN" },
        "parameter_invalid",
        "amount",
        "'amount': must be at least 1 minor unit.",
      ],
      [
        "fractional amount",
        { name: "x", amount: 12.5, currency: "PLN" },
        "parameter_invalid",
        "amount",
        "'amount': must be a whole number of minor units (4999 is 49.99).",
      ],
      [
        "lower-case currency",
        { name: "x", amount: 1, currency: "pln" },
        "parameter_invalid",
        "currency",
        "'currency': must be an ISO 4217 currency code in upper case, such as PLN or EUR.",
      ],
      [
        "unknown currency",
        { name: "x", amount: 1, currency: "XYZ" },
        "parameter_invalid",
        "currency",
        "'currency': must be an ISO 4217 currency code in upper case, such as PLN or EUR.",
      ],
      [
        "unknown field",
        { name: "x", amount: 1, currency: "PLN", colour: "red" },
        "parameter_unknown",
        "colour",
        "Unknown field 'colour'.",
      ],
      [
        "period over a year",
        {
          name: "x",
          amount: 1,
          currency: "PLN",
          recurring: { interval: "MONTH", intervalCount: 13 },
        },
        "parameter_invalid",
        "recurring.intervalCount",
        "'recurring.intervalCount': a billing period is at most one year.",
      ],
      [
        "too many metadata keys",
        {
          name: "x",
          amount: 1,
          currency: "PLN",
          metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])),
        },
        "parameter_invalid",
        "metadata",
        "'metadata': metadata has at most 50 keys.",
      ],
      [
        "long metadata value",
        { name: "x", amount: 1, currency: "PLN", metadata: { k: "v".repeat(501) } },
        "parameter_invalid",
        "metadata.k",
        "'metadata.k': metadata values are at most 500 characters.",
      ],
    ];
    for (const [name, body, code, param, message] of cases) {
      await t.step(name, async () => {
        const error = await expectError(
          await app.request("POST", "/api/v1/qr", body),
          400,
          "invalid_request",
          code,
          message,
        );
        assert.equal(error.error.param, param);
      });
    }
    assert.deepEqual(await (await app.request("GET", "/api/v1/qr")).json(), {
      data: [],
      hasMore: false,
    });
  } finally {
    await app.close();
  }
});

Deno.test("[offers] lists paginate newest first and filter by active", async () => {
  const app = await makeTestApp();
  try {
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await createTestOffer(app, { name: `Offer ${i}` }));
    const ids = created.map((offer) => offer.qrId).reverse();

    const first = await (await app.request("GET", "/api/v1/qr?limit=2")).json();
    assert.deepEqual(first.data.map((offer: { qrId: string }) => offer.qrId), ids.slice(0, 2));
    assert.equal(first.hasMore, true);
    const second = await (await app.request("GET", `/api/v1/qr?limit=2&startingAfter=${ids[1]}`))
      .json();
    assert.deepEqual(second.data.map((offer: { qrId: string }) => offer.qrId), ids.slice(2, 4));
    assert.equal(second.hasMore, true);
    const last = await (await app.request("GET", `/api/v1/qr?limit=2&startingAfter=${ids[3]}`))
      .json();
    assert.deepEqual(last.data.map((offer: { qrId: string }) => offer.qrId), ids.slice(4));
    assert.equal(last.hasMore, false);

    await app.request("PATCH", `/api/v1/qr/${ids[0]}`, { active: false });
    const inactive = await (await app.request("GET", "/api/v1/qr?active=false")).json();
    assert.deepEqual(inactive.data.map((offer: { qrId: string }) => offer.qrId), [ids[0]]);
    const active = await (await app.request("GET", "/api/v1/qr?active=true")).json();
    assert.equal(active.data.length, 4);

    await expectError(
      await app.request("GET", "/api/v1/qr?limit=101"),
      400,
      "invalid_request",
      "parameter_invalid",
      "'limit': Too big: expected number to be <=100.",
    );
    await expectError(
      await app.request("GET", "/api/v1/qr?startingAfter=qr_nope"),
      400,
      "invalid_request",
      "parameter_invalid",
      "startingAfter: no item with id 'qr_nope' in this list.",
    );
    await expectError(
      await app.request("GET", "/api/v1/qr?stauts=x"),
      400,
      "invalid_request",
      "parameter_unknown",
      "Unknown query parameter 'stauts'.",
    );
  } finally {
    await app.close();
  }
});

Deno.test("[offers] update changes only what is sent; deactivation blocks new payments", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app, { description: "old", metadata: { a: "1" } });
    app.clock.advance(1000);
    const response = await app.request("PATCH", `/api/v1/qr/${offer.qrId}`, {
      name: "Renamed",
      metadata: { b: "2" },
    });
    assert.equal(response.status, 200);
    const updated = await response.json();
    assert.equal(updated.name, "Renamed");
    assert.equal(updated.description, "old");
    assert.deepEqual(updated.metadata, { b: "2" });
    assert.equal(updated.amount, 1250);

    const cleared =
      await (await app.request("PATCH", `/api/v1/qr/${offer.qrId}`, { description: null })).json();
    assert.equal(cleared.description, null);

    await expectError(
      await app.request("PATCH", `/api/v1/qr/${offer.qrId}`, { amount: 1 }),
      400,
      "invalid_request",
      "parameter_unknown",
      "Unknown field 'amount'.",
    );
    const deactivated =
      await (await app.request("PATCH", `/api/v1/qr/${offer.qrId}`, { active: false })).json();
    assert.equal(deactivated.active, false);
    await expectError(
      await app.request("POST", "/api/v1/payments", { qrId: offer.qrId }),
      409,
      "conflict",
      "offer_inactive",
      `The offer '${offer.qrId}' is no longer active.`,
    );
    await expectError(
      await app.request("PATCH", "/api/v1/qr/qr_unknown", { active: false }),
      404,
      "not_found",
      "resource_not_found",
      "No offer with id 'qr_unknown'.",
    );
  } finally {
    await app.close();
  }
});

Deno.test("[offers] the QR code encodes the offer's public pay URL", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const response = await app.request("GET", `/api/v1/qr/${offer.qrId}/code.svg`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "image/svg+xml");
    const svg = await response.text();
    const expected = await QRCode.toString(`http://sandbox.test/o/${offer.qrId}`, {
      type: "svg",
      errorCorrectionLevel: "M",
      margin: 2,
    });
    assert.equal(svg, expected);
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    await expectError(
      await app.request("GET", "/api/v1/qr/qr_unknown/code.svg"),
      404,
      "not_found",
      "resource_not_found",
    );
  } finally {
    await app.close();
  }
});
