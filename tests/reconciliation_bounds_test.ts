import assert from "node:assert/strict";
import { migrate, openStore } from "../db/client.ts";
import { environmentMigrations } from "../db/migrations/mod.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { paidPayment } from "./support/billing_helpers.ts";
import { makeTestApp, type TestApp } from "./support/helpers.ts";

const HEADER = "Data;ID transakcji;Kwota;Waluta;Typ operacji;Saldo;Order ID";

function post(t: TestApp, body: BodyInit) {
  return t.app.request("/api/v1/reconciliations", {
    method: "POST",
    headers: { authorization: `Bearer ${t.apiKey}`, "content-type": "text/csv" },
    body,
  });
}

/** `count` purchases of orders no payment has, one per line, from line 2. */
function unknownOrders(count: number): string {
  const lines = Array.from(
    { length: count },
    (_, i) => `2026-11-21;${4100000000 + i};12,50;PLN;t;;att_unknown_${i}`,
  );
  return `${HEADER}\n${lines.join("\n")}\n`;
}

Deno.test("[reconciliations] the result keeps the first 100 problems and counts them all", async () => {
  const t = await makeTestApp();
  try {
    await paidPayment(t, { name: "Kawa", amount: 1250 });
    const response = await post(t, unknownOrders(1234));
    assert.equal(response.status, 201);
    const body = await response.json();
    assert.equal(body.operations, 1234);
    assert.deepEqual(body.problemCounts, {
      unknown_order: 1234,
      amount_mismatch: 0,
      not_in_statement: 1,
    });
    assert.equal(body.problemsTruncated, true);
    assert.equal(body.problems.length, 100);
    assert.deepEqual(
      body.problems.map((problem: { line: number }) => problem.line),
      Array.from({ length: 100 }, (_, i) => i + 2),
    );
    assert.equal(body.problems[99].orderId, "att_unknown_99");
    const listed = await (await t.request("GET", "/api/v1/reconciliations")).json();
    assert.deepEqual(listed.data, [body]);
  } finally {
    await t.close();
  }
});

Deno.test("[reconciliations] a statement within the bound is kept whole and not marked cut", async () => {
  const t = await makeTestApp();
  try {
    const body = await (await post(t, unknownOrders(100))).json();
    assert.equal(body.problems.length, 100);
    assert.equal(body.problemsTruncated, false);
    assert.equal(body.problemCounts.unknown_order, 100);
  } finally {
    await t.close();
  }
});

Deno.test("[reconciliations] a purchase in another currency does not match the payment", async () => {
  const t = await makeTestApp();
  try {
    const coffee = await paidPayment(t, { name: "Kawa", amount: 1250 });
    const attempt = await t.store.db.selectFrom("payment_attempts")
      .innerJoin("payments", "payments.id", "payment_attempts.payment_id")
      .select("payment_attempts.public_id").where("payments.public_id", "=", coffee.paymentId)
      .executeTakeFirstOrThrow();
    const response = await post(
      t,
      `${HEADER}\n2026-11-21;4100000001;12,50;EUR;t;;${attempt.public_id}\n`,
    );
    const body = await response.json();
    assert.equal(body.matched, 0);
    assert.deepEqual(body.problemCounts, {
      unknown_order: 0,
      amount_mismatch: 1,
      not_in_statement: 0,
    });
    assert.equal(body.problems[0].kind, "amount_mismatch");
    assert.equal(body.problems[0].currency, "EUR");
    assert.equal(body.problems[0].expectedAmount, 0);
  } finally {
    await t.close();
  }
});

Deno.test("[reconciliations] a header or line far longer than a statement's is refused at once, naming few columns", async (s) => {
  const t = await makeTestApp();
  try {
    const cases: [string, string, string][] = [
      [
        "a million columns",
        `${Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(";")}\n1;2\n`,
        "Line 1: the header line is longer than 4096 characters, so it is not a statement's.",
      ],
      [
        "a header line without an end",
        "x".repeat(5000),
        "Line 1: the header line is longer than 4096 characters, so it is not a statement's.",
      ],
      [
        "65 columns",
        `${Array.from({ length: 65 }, (_, i) => `c${i}`).join(";")}\n`,
        "Line 1: the header has 65 columns; a statement has at most 64.",
      ],
      [
        "many wrong columns, five named",
        `${Array.from({ length: 40 }, (_, i) => `col${i}`).join(";")}\n`,
        "Line 1: this is not a PayU statement: it has no 'date', 'trans id', 'amount', " +
        "'currency', 'type of operation', 'order id' column (the header names 'col0', 'col1', 'col2', " +
        "'col3', 'col4' and 35 more).",
      ],
      [
        "a line of 20,000 characters",
        `${HEADER}\n2026-11-21;1;12,50;PLN;t;;${"a".repeat(20_000)}\n`,
        "Line 2: this is not valid CSV (Max Record Size: record exceed the maximum number of " +
        "tolerated bytes of 16384 at line 2).",
      ],
    ];
    for (const [name, body, message] of cases) {
      await s.step(name, async () => {
        const response = await post(t, body);
        assert.equal(response.status, 400);
        const text = await response.text();
        assert.ok(text.length < 2000, `the answer is ${text.length} bytes`);
        const error = JSON.parse(text).error;
        assert.equal(error.code, "statement_invalid");
        assert.equal(error.message, message);
      });
    }
    const listed = await (await t.request("GET", "/api/v1/reconciliations")).json();
    assert.deepEqual(listed.data, []);
  } finally {
    await t.close();
  }
});

Deno.test("[reconciliations] two statements at once per process; a third is 429 with Retry-After", async () => {
  const t = await makeTestApp();
  try {
    const held: ReadableStreamDefaultController<Uint8Array>[] = [];
    const slow = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(`${HEADER}\n`));
          held.push(controller);
        },
      });
    const first = post(t, slow());
    const second = post(t, slow());
    while (held.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const third = await post(t, unknownOrders(1));
    assert.equal(third.status, 429);
    assert.equal(third.headers.get("retry-after"), "5");
    assert.equal((await third.json()).error.code, "rate_limited");
    const line = new TextEncoder().encode("2026-11-21;1;12,50;PLN;t;;att_x\n");
    for (const controller of held) {
      controller.enqueue(line);
      controller.close();
    }
    assert.equal((await first).status, 201);
    assert.equal((await second).status, 201);
    assert.equal((await post(t, unknownOrders(1))).status, 201);
  } finally {
    await t.close();
  }
});

Deno.test("[reconciliations] migration 0014 counts the problems stored before it and keeps the first 100", async () => {
  const dir = await Deno.makeTempDir({ prefix: "paystead-rec-migration-" });
  const store = await openStore<EnvironmentSchema>(`file:${dir}/sandbox.db`);
  try {
    const before = Object.fromEntries(
      Object.entries(environmentMigrations).filter(([name]) => name < "0014"),
    );
    await migrate(store, before);
    const problems = Array.from({ length: 150 }, (_, i) => ({
      line: i + 2,
      kind: i < 120 ? "unknown_order" : "amount_mismatch",
    }));
    await store.write((trx) =>
      trx.insertInto("reconciliations").values({
        public_id: "rec_old",
        org_id: 1,
        period_from: "2026-11-01",
        period_to: "2026-11-30",
        operations: 150,
        matched: 0,
        fees: "[]",
        payouts: "[]",
        problems: JSON.stringify(problems),
        created_at: 0,
      } as never).execute()
    );
    await migrate(store, environmentMigrations);
    const row = await store.db.selectFrom("reconciliations").selectAll().executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(row.problem_counts), {
      unknown_order: 120,
      amount_mismatch: 30,
      not_in_statement: 0,
    });
    assert.equal(row.problems_truncated, 1);
    assert.deepEqual(JSON.parse(row.problems), problems.slice(0, 100));
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});
