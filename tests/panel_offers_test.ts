import assert from "node:assert/strict";
import { createTestOffer } from "./support/helpers.ts";
import { pageText, signedInApp } from "./support/panel_helpers.ts";

Deno.test("[panel offers] create one with a price, a subscription and metadata; mistakes come back", async () => {
  const { t, agent } = await signedInApp({ role: "MEMBER" });
  try {
    const wrong = await agent.post("/panel/offers", {
      name: "Coffee box",
      amount: "49.999",
      currency: "PLN",
    });
    assert.equal(wrong.status, 400);
    const html = await wrong.text();
    assert.match(
      pageText(html),
      /Enter an amount like 12\.50 \(at most 2 digits after the point\)\./,
    );
    assert.match(
      html,
      /name="name" type="text" required="" maxLength="200" value="Coffee box"|value="Coffee box"/,
    );
    const badMetadata = await agent.post("/panel/offers", {
      name: "Coffee box",
      amount: "49.90",
      currency: "PLN",
      metadata: "no equals sign",
    });
    assert.equal(badMetadata.status, 400);
    const badCurrency = await agent.post("/panel/offers", {
      name: "Coffee box",
      amount: "1",
      currency: "EURO",
    });
    assert.equal(badCurrency.status, 400);
    assert.match(pageText(await badCurrency.text()), /currency/i);
    const none = await (await t.request("GET", "/api/v1/qr")).json();
    assert.deepEqual(none.data, [], "a refused form creates nothing");

    const created = await agent.post("/panel/offers", {
      name: "Coffee box",
      amount: "49,90",
      currency: "PLN",
      recurring: "MONTH",
      intervalCount: "3",
      description: "Three bags a quarter",
      metadata: "sku=BOX-3",
    });
    assert.equal(created.status, 303);
    const qrId =
      /\/panel\/offers\/(qr_\w+)\?notice=created$/.exec(created.headers.get("location")!)![1];
    const offer = await (await t.request("GET", `/api/v1/qr/${qrId}`)).json();
    assert.deepEqual(
      [
        offer.name,
        offer.amount,
        offer.currency,
        offer.recurring,
        offer.description,
        offer.metadata,
      ],
      [
        "Coffee box",
        4990,
        "PLN",
        { interval: "MONTH", intervalCount: 3 },
        "Three bags a quarter",
        { sku: "BOX-3" },
      ],
    );
    const page = pageText(await (await agent.get(`/panel/offers/${qrId}`)).text());
    assert.match(page, /Coffee box PLN 49\.90 · Every 3 months · Active/);
    assert.match(page, new RegExp(`http://sandbox\\.test/o/${qrId}`));

    const saved = await agent.post(`/panel/offers/${qrId}`, {
      name: "Coffee box (quarterly)",
      description: "",
      metadata: "",
    });
    assert.equal(saved.status, 303);
    const after = await (await t.request("GET", `/api/v1/qr/${qrId}`)).json();
    assert.deepEqual([after.name, after.description, after.active, after.metadata], [
      "Coffee box (quarterly)",
      null,
      false,
      {},
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("[panel offers] the QR code is the API's, as SVG and as a downloadable PNG", async () => {
  const { t, agent } = await signedInApp({ role: "MEMBER" });
  try {
    const offer = await createTestOffer(t);
    const svg = await agent.get(`/panel/offers/${offer.qrId}/qr.svg`);
    assert.equal(svg.status, 200);
    assert.equal(svg.headers.get("content-type"), "image/svg+xml");
    const api = await t.request("GET", `/api/v1/qr/${offer.qrId}/code.svg`);
    assert.equal(await svg.text(), await api.text());
    const download = await agent.get(`/panel/offers/${offer.qrId}/qr.svg?download=1`);
    assert.equal(
      download.headers.get("content-disposition"),
      `attachment; filename="${offer.qrId}.svg"`,
    );
    const png = await agent.get(`/panel/offers/${offer.qrId}/qr.png?download=1`);
    assert.equal(png.status, 200);
    assert.equal(png.headers.get("content-type"), "image/png");
    assert.equal(
      png.headers.get("content-disposition"),
      `attachment; filename="${offer.qrId}.png"`,
    );
    const bytes = new Uint8Array(await png.arrayBuffer());
    assert.deepEqual([...bytes.slice(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
    assert.equal((await agent.get("/panel/offers/qr_missingmissingmissing00/qr.png")).status, 404);
  } finally {
    await t.close();
  }
});
