import assert from "node:assert/strict";
import {
  createTestOffer,
  createTestPayment,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIELD_NAMES = [
  "qrId",
  "name",
  "amount",
  "currency",
  "code",
  "quantity",
  "metadata",
  "customer",
  "successUrl",
  "expiresInMinutes",
  "embedLink",
  "url",
  "events",
  "lineItems",
  "days",
  "reason",
  "allowedOrigins",
  "recurring",
];

const WRONG_VALUES: unknown[] = [
  null,
  true,
  -1,
  0,
  1.5,
  1e308,
  -0,
  2 ** 53 + 1,
  "",
  " ",
  "x".repeat(100_000),
  "\u0000\u202e\ud83d\ude00",
  [],
  [null],
  {},
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
  Array.from({ length: 1000 }, (_, i) => i),
  Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i])),
];

interface Case {
  description: string;
  body: BodyInit | undefined;
  contentType: string | undefined;
  /** Whether the route may accept it (an empty body for an operation without one). */
  emptyBody?: boolean;
}

function structuralCases(): Case[] {
  const json = "application/json";
  const deep = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
  const deepObject = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
  return [
    { description: "empty body", body: undefined, contentType: undefined, emptyBody: true },
    { description: "empty JSON body", body: "", contentType: json, emptyBody: true },
    { description: "whitespace", body: "   ", contentType: json },
    { description: "null", body: "null", contentType: json },
    { description: "array", body: "[]", contentType: json },
    { description: "string", body: '"qr_x"', contentType: json },
    { description: "number", body: "1e999", contentType: json },
    { description: "true", body: "true", contentType: json },
    { description: "truncated", body: '{"qrId": "qr_', contentType: json },
    { description: "trailing garbage", body: '{"code":"777123"} x', contentType: json },
    { description: "single quotes", body: "{'code':'777123'}", contentType: json },
    { description: "comments", body: '{/* */"code":"777123"}', contentType: json },
    { description: "NaN", body: '{"amount": NaN}', contentType: json },
    { description: "deep array", body: deep(5000), contentType: json },
    { description: "deep object", body: deepObject(5000), contentType: json },
    { description: "nesting 33", body: deepObject(33), contentType: json },
    {
      description: "invalid UTF-8",
      body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
      contentType: json,
    },
    {
      description: "overlong UTF-8",
      body: new Uint8Array([0x7b, 0x22, 0xc0, 0xaf, 0x22, 0x3a, 0x31, 0x7d]),
      contentType: json,
    },
    {
      description: "lone surrogate escape",
      body: '{"name":"\\ud800","extra":1}',
      contentType: json,
    },
    // RFC 8259 lets a parser ignore a BOM; the unknown field makes this case invalid anyway.
    { description: "BOM", body: '\ufeff{"code":"777123","zz":1}', contentType: json },
    {
      description: "form body",
      body: "code=777123",
      contentType: "application/x-www-form-urlencoded",
    },
    { description: "text body", body: '{"code":"777123"}', contentType: "text/plain" },
    {
      description: "multipart",
      body: "--x\r\n\r\n--x--",
      contentType: "multipart/form-data; boundary=x",
    },
    {
      description: "json with latin1 charset",
      body: '{"code":"777123"}',
      contentType: "application/json; charset=iso-8859-1",
    },
    { description: "no content type", body: '{"code":"777123"}', contentType: undefined },
    {
      description: "huge body",
      body: JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) }),
      contentType: json,
    },
    {
      description: "duplicate keys",
      body: '{"code":"1","code":"777123","zz":1}',
      contentType: json,
    },
    { description: "unknown field only", body: '{"totallyUnknown":1}', contentType: json },
  ];
}

function randomCases(next: () => number, count: number): Case[] {
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    const body: Record<string, unknown> = {};
    const fields = 1 + Math.floor(next() * 4);
    for (let f = 0; f < fields; f++) body[pick(FIELD_NAMES)] = pick(WRONG_VALUES);
    // Always one field no operation knows, so no case is accidentally valid.
    body[`unknown_${i}`] = pick(WRONG_VALUES);
    cases.push({
      description: `random ${i}`,
      body: JSON.stringify(body),
      contentType: "application/json",
    });
  }
  return cases;
}

async function snapshot(app: TestApp): Promise<string> {
  const tables = ["offers", "payments", "events", "idempotency_keys", "api_keys"] as const;
  const parts: string[] = [];
  for (const table of tables) {
    parts.push(
      JSON.stringify(await app.store.db.selectFrom(table).selectAll().orderBy("id").execute()),
    );
  }
  return parts.join("\n");
}

Deno.test("[fuzz] malformed bodies to every POST route are 4xx and write nothing", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const payment = await createTestPayment(app, offer.qrId);
    const doc = await (await app.app.request("/api/v1/openapi.json")).json();
    const operations = Object.entries(
      doc.paths as Record<string, Record<string, { requestBody?: { required?: boolean } }>>,
    )
      .filter(([, methods]) => methods.post)
      .map(([path, methods]) => ({
        path: path.replace("{qrId}", offer.qrId).replace("{paymentId}", payment.paymentId)
          .replace(/\{[^}]+\}/g, "unknown_id"),
        bodyOptional: !methods.post.requestBody?.required,
      }));
    assert.ok(operations.length >= 5, `found ${operations.length} POST operations`);

    const before = await snapshot(app);
    const cases = [...structuralCases(), ...randomCases(random(20261121), 300)];
    let sent = 0;
    for (const operation of operations) {
      for (const testCase of cases) {
        if (testCase.emptyBody && operation.bodyOptional) continue;
        const headers: Record<string, string> = { authorization: `Bearer ${app.apiKey}` };
        if (testCase.contentType !== undefined) headers["content-type"] = testCase.contentType;
        const response = await app.app.request(operation.path, {
          method: "POST",
          headers,
          body: testCase.body,
        });
        const text = await response.text();
        sent++;
        assert.ok(
          response.status >= 400 && response.status < 500,
          `POST ${operation.path} with ${testCase.description}: ${response.status} ${
            text.slice(0, 300)
          }`,
        );
        const body = JSON.parse(text);
        assert.equal(typeof body.error.message, "string");
        assert.match(body.error.requestId, /^req_/);
      }
    }
    assert.ok(sent > operations.length * 300);
    assert.equal(await snapshot(app), before, "a malformed request changed the database");
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  } finally {
    await app.close();
  }
});
