import assert from "node:assert/strict";
import { formatMajorAmount, parseMajorAmount } from "../lib/money.ts";
import { curlCommand } from "../lib/panel/curl.ts";
import { parseMetadataText } from "../lib/panel/forms.ts";
import { paymentOverview } from "../lib/panel/insights.ts";
import { buildReference } from "../lib/panel/reference.ts";
import { orgContextOnClock } from "../lib/sandbox_clock.ts";
import { ApiError } from "../lib/errors.ts";
import { createTestOffer, createTestPayment, type TestApp } from "./support/helpers.ts";
import { addUser, pageText, PanelAgent, signedInApp } from "./support/panel_helpers.ts";

const DAY = 86_400_000;

async function paid(t: TestApp, qrId: string, code = "777123") {
  const payment = await createTestPayment(t, qrId);
  const response = await t.request("POST", `/api/v1/payments/${payment.paymentId}/complete`, {
    code,
  });
  return await response.json();
}

Deno.test("[panel forms] prices, metadata and curl as people type and read them", () => {
  assert.equal(parseMajorAmount("12.50", "PLN"), 1250);
  assert.equal(parseMajorAmount("12,5", "PLN"), 1250);
  assert.equal(parseMajorAmount(" 1 250 ", "PLN"), 125000);
  assert.equal(parseMajorAmount("1,250.00", "EUR"), 125000);
  assert.equal(parseMajorAmount("1000", "JPY"), 1000);
  assert.equal(parseMajorAmount("1.5", "JPY"), null);
  assert.equal(parseMajorAmount("12.505", "PLN"), null);
  assert.equal(parseMajorAmount("-3", "PLN"), null);
  assert.equal(parseMajorAmount("1e3", "PLN"), null);
  assert.equal(formatMajorAmount(1250, "PLN"), "12.50");
  assert.equal(formatMajorAmount(1000, "JPY"), "1000");

  assert.deepEqual(parseMetadataText("sku = COFFEE-1KG\n\norder=A=1\r\n"), {
    sku: "COFFEE-1KG",
    order: "A=1",
  });
  assert.throws(() => parseMetadataText("just text"), (error: ApiError) => {
    assert.equal(error.param, "metadata");
    assert.equal(
      error.message,
      "Metadata line 1 is not key=value: write each entry as orderId=A-1001.",
    );
    return true;
  });
  assert.throws(() => parseMetadataText("a=1\na=2"), /Metadata has the key 'a' twice\./);

  assert.equal(
    curlCommand("https://api.example", "POST", "/api/v1/qr", { name: "Don't" }),
    [
      "curl https://api.example/api/v1/qr \\",
      '  -H "Authorization: Bearer $PAYSTEAD_KEY" \\',
      '  -H "Content-Type: application/json" \\',
      `  -d '{"name":"Don'\\''t"}'`,
    ].join("\n"),
  );
  assert.equal(
    curlCommand("https://api.example", "POST", "/api/v1/payments/pay_1/cancel"),
    'curl -X POST https://api.example/api/v1/payments/pay_1/cancel \\\n  -H "Authorization: Bearer $PAYSTEAD_KEY"',
  );
});

Deno.test("[panel reference] the OpenAPI document becomes operations, fields and schemas", () => {
  const reference = buildReference({
    openapi: "3.1.0",
    info: { title: "Shop API", version: "1" },
    servers: [{ url: "https://api.example" }],
    components: {
      schemas: {
        Thing: {
          type: "object",
          description: "A thing.",
          properties: {
            name: { type: "string", minLength: 1, maxLength: 5, example: "cup" },
            size: { type: ["integer", "null"], enum: [1, 2, null] },
            owner: {
              type: "object",
              properties: { email: { type: "string", format: "email" } },
              required: ["email"],
            },
            tags: { type: "array", items: { $ref: "#/components/schemas/Tag" } },
          },
          required: ["name"],
        },
        Tag: { type: "object", properties: { label: { type: "string" } } },
      },
    },
    paths: {
      "/things/{id}": {
        post: {
          operationId: "makeThing",
          summary: "Make a thing",
          tags: ["Things"],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
          },
          responses: {
            "201": {
              description: "Made.",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
            },
          },
        },
      },
    },
  });
  assert.equal(reference.server, "https://api.example");
  const [group] = reference.groups;
  assert.equal(group.tag, "Things");
  const [operation] = group.operations;
  assert.equal(operation.id, "makeThing");
  assert.deepEqual(operation.parameters, [
    { name: "id", in: "path", required: true, type: "string", description: null, constraints: [] },
  ]);
  assert.equal(operation.body?.schema, "Thing");
  assert.deepEqual(
    operation.body?.fields.map((
      field,
    ) => [field.name, field.type, field.required, field.constraints]),
    [
      ["name", "string", true, ["at least 1 characters", "at most 5 characters"]],
      ["size", "integer or null", false, ["one of 1, 2"]],
      ["owner", "object", false, []],
      ["owner.email", "string", true, ["email"]],
      ["tags", "array of Tag", false, []],
    ],
  );
  assert.deepEqual(operation.exampleBody, { name: "cup" });
  assert.deepEqual(operation.responses, [
    { status: "201", description: "Made.", schema: "Thing", contentType: "application/json" },
  ]);
  assert.deepEqual(reference.schemas.map((schema) => schema.name), ["Thing", "Tag"]);
});

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

Deno.test("[panel payments] filter, open one, refund part of it, see its events", async () => {
  const { t, agent } = await signedInApp();
  try {
    const offer = await createTestOffer(t, { name: "Beans", amount: 5000 });
    const failed = await paid(t, offer.qrId, "500500");
    const succeeded = await paid(t, offer.qrId);
    const list = pageText(await (await agent.get("/panel/payments?status=FAILED")).text());
    assert.ok(list.includes(failed.paymentId));
    assert.equal(list.includes(succeeded.paymentId), false);
    const bad = await agent.get("/panel/payments?status=LOST");
    assert.equal(bad.status, 400);

    const path = `/panel/payments/${succeeded.paymentId}`;
    const detail = pageText(await (await agent.get(path)).text());
    assert.match(detail, /payment\.succeeded .* payment\.processing .* payment\.created/);

    const tooMuch = await agent.post(`${path}/refunds`, { amount: "60.00" });
    assert.equal(tooMuch.status, 400);
    assert.match(
      pageText(await tooMuch.text()),
      /Refunding 6000 would exceed the payment .*: 5000 of its 5000 PLN is left to refund/,
    );
    const refunded = await agent.post(`${path}/refunds`, { amount: "20", reason: "Broken bag" });
    assert.equal(refunded.status, 303);
    assert.equal(refunded.headers.get("location"), `${path}?notice=refunded`);
    const payment = await (await t.request("GET", `/api/v1/payments/${succeeded.paymentId}`))
      .json();
    assert.equal(payment.amountRefunded, 2000);
    const after = pageText(await (await agent.get(`${path}?notice=refunded`)).text());
    assert.match(after, /Refund created\./);
    assert.match(after, /PLN 20\.00 Pending Broken bag/);
    assert.match(after, /refund\.created/);
    assert.match(after, /Up to PLN 30\.00 ?\./);

    const member = await addUser(t, { email: "member@acme.test", role: "MEMBER" });
    const staff = new PanelAgent(t);
    await staff.signIn(member.email, member.password);
    const view = pageText(await (await staff.get(path)).text());
    assert.equal(view.includes("Up to PLN 30.00"), false, "members see no refund form");
    assert.equal((await staff.post(`${path}/refunds`, { amount: "1" })).status, 403);
  } finally {
    await t.close();
  }
});

Deno.test("[panel payments] a subscription shows on its payment and can be ended", async () => {
  const { t, agent } = await signedInApp();
  try {
    const offer = await createTestOffer(t, { recurring: { interval: "MONTH" } });
    const payment = await paid(t, offer.qrId);
    const path = `/panel/payments/${payment.paymentId}`;
    const page = pageText(await (await agent.get(path)).text());
    assert.match(page, /Subscription sub_\w+ Status Active Amount PLN 12\.50 every month/);
    const id =
      /\/panel\/subscriptions\/(sub_\w+)\/cancel/.exec(await (await agent.get(path)).text())![1];
    const scheduled = await agent.post(`/panel/subscriptions/${id}/cancel`, {
      atPeriodEnd: "true",
    });
    assert.equal(scheduled.headers.get("location"), `${path}?notice=subscription-scheduled`);
    assert.match(
      pageText(await (await agent.get(path)).text()),
      /Ends at the end of the current period/,
    );
    const ended = await agent.post(`/panel/subscriptions/${id}/cancel`, { atPeriodEnd: "false" });
    assert.equal(ended.status, 303);
    const subscription = await (await t.request("GET", `/api/v1/subscriptions/${id}`)).json();
    assert.equal(subscription.status, "CANCELED");
  } finally {
    await t.close();
  }
});

Deno.test("[panel payments] the sandbox lets a developer play the customer", async () => {
  const { t, agent } = await signedInApp();
  try {
    const offer = await createTestOffer(t);
    const payment = await createTestPayment(t, offer.qrId);
    const done = await agent.post(`/panel/payments/${payment.paymentId}/complete`, {
      code: "700702",
    });
    assert.equal(done.status, 303);
    const after = await (await t.request("GET", `/api/v1/payments/${payment.paymentId}`)).json();
    assert.deepEqual([after.status, after.failureCode], ["FAILED", "code_canceled"]);
  } finally {
    await t.close();
  }
});

Deno.test("[panel home] volume and success rate per day, in the busiest currency", async () => {
  const { t, agent } = await signedInApp();
  try {
    const pln = await createTestOffer(t, { amount: 1000 });
    const eur = await createTestOffer(t, { amount: 300, currency: "EUR" });
    t.clock.advance(-DAY);
    await paid(t, pln.qrId);
    await paid(t, pln.qrId, "500500");
    t.clock.advance(DAY);
    await paid(t, pln.qrId);
    await paid(t, pln.qrId);
    await createTestPayment(t, pln.qrId); // pending: counts nowhere
    await paid(t, eur.qrId);

    const overview = await paymentOverview(await orgContextOnClock(t.services, t.orgId), {
      days: 30,
    });
    assert.equal(overview.currency, "PLN");
    assert.deepEqual(overview.currencies, ["PLN", "EUR"]);
    assert.equal(overview.days.length, 30);
    assert.deepEqual(overview.days.at(-1), {
      date: "2026-11-21",
      volume: 2000,
      succeeded: 2,
      failed: 0,
      successRate: 1,
    });
    assert.deepEqual(overview.days.at(-2), {
      date: "2026-11-20",
      volume: 1000,
      succeeded: 1,
      failed: 1,
      successRate: 0.5,
    });
    assert.equal(overview.days[0].successRate, null);
    assert.deepEqual(overview.totals, { volume: 3000, succeeded: 3, failed: 1, successRate: 0.75 });

    const page = await (await agent.get("/panel")).text();
    const text = pageText(page);
    assert.match(text, /Volume PLN 30\.00 succeeded Successful payments 3 Success rate 75\.0%/);
    assert.equal((page.match(/<rect class="chart__bar"/g) ?? []).length, 2);
    assert.match(page, /<title>21 Nov: PLN\s20\.00, 100% succeeded<\/title>/);
    const euros = pageText(await (await agent.get("/panel?currency=eur")).text());
    assert.match(euros, /Volume €3\.00 succeeded Successful payments 1 Success rate 100\.0%/);
  } finally {
    await t.close();
  }
});

Deno.test("[panel home] an empty organisation is told how to start", async () => {
  const { t, agent } = await signedInApp();
  try {
    const text = pageText(await (await agent.get("/panel")).text());
    assert.match(text, /No payments in the last 30 days/);
    assert.match(text, /run the Quick Start to take a test payment in a minute/);
  } finally {
    await t.close();
  }
});
