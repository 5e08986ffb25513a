import assert from "node:assert/strict";
import { formatMoney } from "../lib/money.ts";
import { makeTestApp, type TestApp } from "./support/helpers.ts";
import { otherOrganisation, paidPayment } from "./support/billing_helpers.ts";
import { payuStatement } from "./support/payu_statement.ts";

const RECONCILIATION_ID = /^rec_[0-9A-Za-z]{24}$/;
const pln = (amount: number) => formatMoney(amount, "PLN");

/** The attempt id Paystead sent PayU as `extOrderId` for a payment. */
async function orderIdOf(t: TestApp, paymentId: string): Promise<string> {
  const row = await t.store.db.selectFrom("payment_attempts")
    .innerJoin("payments", "payments.id", "payment_attempts.payment_id")
    .select("payment_attempts.public_id").where("payments.public_id", "=", paymentId)
    .where("payment_attempts.status", "=", "SUCCEEDED").executeTakeFirstOrThrow();
  return row.public_id;
}

async function post(t: TestApp, body: string | Uint8Array<ArrayBuffer>, contentType = "text/csv") {
  return await t.app.request("/api/v1/reconciliations", {
    method: "POST",
    headers: { authorization: `Bearer ${t.apiKey}`, "content-type": contentType },
    body,
  });
}

async function created(t: TestApp, response: Response): Promise<Record<string, unknown>> {
  assert.equal(response.status, 201, await response.clone().text());
  assert.equal(response.headers.get("content-type"), "application/json");
  const body = await response.json();
  assert.match(body.reconciliationId, RECONCILIATION_ID);
  assert.equal(body.createdAt, new Date(t.clock.now()).toISOString());
  return body;
}

async function listed(t: TestApp): Promise<Record<string, unknown>[]> {
  const response = await t.request("GET", "/api/v1/reconciliations");
  assert.equal(response.status, 200);
  return (await response.json()).data;
}

Deno.test("[reconciliations] purchases, a refund, commissions and a payout all match", async () => {
  const t = await makeTestApp();
  try {
    const coffee = await paidPayment(t, { name: "Kawa", amount: 1250 });
    const tea = await paidPayment(t, { name: "Herbata", amount: 3000 });
    const refund = await t.request("POST", `/api/v1/payments/${coffee.paymentId}/refunds`, {
      amount: 500,
    });
    assert.equal(refund.status, 201);
    await t.services.scheduler.runDue();
    const coffeeOrder = await orderIdOf(t, coffee.paymentId);
    const teaOrder = await orderIdOf(t, tea.paymentId);
    const statement = payuStatement([
      {
        date: "2026-11-21",
        transactionId: "4100000001",
        amount: "12,50",
        type: "t",
        balance: "12,50",
        orderId: coffeeOrder,
      },
      { date: "2026-11-21", amount: "-0,35", type: "r", balance: "12,15" },
      {
        date: "2026-11-21",
        transactionId: "4100000002",
        amount: "30,00",
        type: "t",
        balance: "42,15",
        orderId: teaOrder,
      },
      { date: "2026-11-21", amount: "-0,84", type: "r", balance: "41,31" },
      {
        date: "2026-11-21",
        transactionId: "4100000003",
        amount: "-5,00",
        type: "c",
        balance: "36,31",
        orderId: coffeeOrder,
      },
      { date: "2026-11-21", amount: "-36,31", type: "w", balance: "0,00" },
    ]);
    const body = await created(t, await post(t, statement));
    assert.deepEqual({ ...body, reconciliationId: undefined, createdAt: undefined }, {
      reconciliationId: undefined,
      createdAt: undefined,
      from: "2026-11-21",
      to: "2026-11-21",
      operations: 6,
      matched: 3,
      fees: [{ amount: 119, currency: "PLN" }],
      payouts: [{ amount: 3631, currency: "PLN" }],
      problems: [],
      problemCounts: { unknown_order: 0, amount_mismatch: 0, not_in_statement: 0 },
      problemsTruncated: false,
    });
    assert.deepEqual(await listed(t), [body]);
  } finally {
    await t.close();
  }
});

Deno.test("[reconciliations] an English statement by PayU's English names, with its commission column", async (s) => {
  const t = await makeTestApp();
  try {
    const coffee = await paidPayment(t, { amount: 125000 });
    const order = await orderIdOf(t, coffee.paymentId);
    const header =
      "Order ID,Date,Amount,Currency,Type of operation,Commission,Account balance,Trans ID\r\n";
    for (
      const [name, line] of [
        ["amounts like 1,00", `${order},2026-11-21,"1250,00",PLN,t,"-3,13","1246,87",4100000009`],
        ["a dot and a space", `${order},2026-11-21,"1 250.00",PLN,T,-3.13,1246.87,4100000009`],
      ]
    ) {
      await s.step(name, async () => {
        const body = await created(t, await post(t, `${header}${line}\r\n`));
        assert.equal(body.operations, 1);
        assert.equal(body.matched, 1);
        assert.deepEqual(body.fees, [{ amount: 313, currency: "PLN" }]);
        assert.deepEqual(body.payouts, []);
        assert.deepEqual(body.problems, []);
      });
    }
  } finally {
    await t.close();
  }
});

Deno.test("[reconciliations] every problem: unknown orders, amounts that differ, payments missing", async () => {
  const t = await makeTestApp();
  try {
    const matched = await paidPayment(t, { amount: 1000 });
    const wrongAmount = await paidPayment(t, { amount: 2000 });
    const missing = await paidPayment(t, { amount: 4000 });
    // A payment of another day is not the statement's business.
    t.clock.advance(3 * 86_400_000);
    await paidPayment(t, { amount: 7000 });
    const other = await otherOrganisation(t);
    const theirOffer = await (await other.request("POST", "/api/v1/qr", {
      name: "Globex",
      amount: 500,
      currency: "PLN",
    })).json();
    const theirPayment = await (await other.request("POST", "/api/v1/payments", {
      qrId: theirOffer.qrId,
    })).json();
    await other.request("POST", `/api/v1/payments/${theirPayment.paymentId}/complete`, {
      code: "777123",
    });
    const theirOrder = await orderIdOf(t, theirPayment.paymentId);
    const statement = payuStatement([
      {
        date: "2026-11-20",
        transactionId: "1",
        amount: "10,00",
        type: "t",
        orderId: await orderIdOf(t, matched.paymentId),
      },
      {
        date: "2026-11-21",
        transactionId: "2",
        amount: "21,00",
        type: "t",
        orderId: await orderIdOf(t, wrongAmount.paymentId),
      },
      {
        date: "2026-11-21",
        transactionId: "3",
        amount: "9,99",
        type: "t",
        orderId: "att_unknownUnknownUnknown1",
      },
      {
        date: "2026-11-21",
        transactionId: "4",
        amount: "5,00",
        type: "t",
        orderId: theirOrder,
      },
      {
        date: "2026-11-21",
        transactionId: "5",
        amount: "-3,00",
        type: "c",
        orderId: await orderIdOf(t, matched.paymentId),
      },
      {
        date: "2026-11-21",
        transactionId: "6",
        amount: "10,00",
        type: "t",
        orderId: await orderIdOf(t, matched.paymentId),
      },
      { date: "2026-11-21", transactionId: "7", amount: "1,00", type: "t" },
    ]);
    const body = await created(t, await post(t, statement));
    assert.equal(body.from, "2026-11-20");
    assert.equal(body.to, "2026-11-21");
    assert.equal(body.matched, 1);
    const problem = (line: number | null, kind: string, fields: Record<string, unknown>) => ({
      line,
      kind,
      orderId: null,
      transactionId: null,
      paymentId: null,
      currency: "PLN",
      amount: null,
      expectedAmount: null,
      ...fields,
    });
    const orders = {
      matched: await orderIdOf(t, matched.paymentId),
      wrong: await orderIdOf(t, wrongAmount.paymentId),
      missing: await orderIdOf(t, missing.paymentId),
    };
    assert.deepEqual(body.problems, [
      problem(3, "amount_mismatch", {
        orderId: orders.wrong,
        transactionId: "2",
        paymentId: wrongAmount.paymentId,
        amount: 2100,
        expectedAmount: 2000,
        message: `PayU took ${pln(2100)} for payment ${wrongAmount.paymentId}, which was for ${
          pln(2000)
        }.`,
      }),
      problem(4, "unknown_order", {
        orderId: "att_unknownUnknownUnknown1",
        transactionId: "3",
        amount: 999,
        message: "No payment of this organisation has the order id 'att_unknownUnknownUnknown1'.",
      }),
      problem(5, "unknown_order", {
        orderId: theirOrder,
        transactionId: "4",
        amount: 500,
        message: `No payment of this organisation has the order id '${theirOrder}'.`,
      }),
      problem(6, "amount_mismatch", {
        orderId: orders.matched,
        transactionId: "5",
        paymentId: matched.paymentId,
        amount: 300,
        expectedAmount: 0,
        message: `PayU refunded ${pln(300)} of payment ${matched.paymentId}; Paystead has no ` +
          "succeeded refund of that amount for it.",
      }),
      problem(7, "amount_mismatch", {
        orderId: orders.matched,
        transactionId: "6",
        paymentId: matched.paymentId,
        amount: 1000,
        expectedAmount: 0,
        message:
          `PayU took ${pln(1000)} for payment ${matched.paymentId}, which Paystead holds as ` +
          "SUCCEEDED and already matched.",
      }),
      problem(8, "unknown_order", {
        transactionId: "7",
        amount: 100,
        message: "PayU shows no order id here, so no Paystead payment can be matched.",
      }),
      problem(null, "not_in_statement", {
        orderId: orders.missing,
        paymentId: missing.paymentId,
        expectedAmount: 4000,
        message:
          `Payment ${missing.paymentId} (${pln(4000)}) succeeded in the statement's period ` +
          "but is not in it.",
      }),
    ]);
  } finally {
    await t.close();
  }
});

/** The problems of a reconciliation as [line, kind, order id, amount]. */
function problemsOf(body: Record<string, unknown>) {
  return (body.problems as { line: number; kind: string; orderId: string; amount: number }[])
    .map((p) => [p.line, p.kind, p.orderId, p.amount]);
}

Deno.test("[reconciliations] another shop's Polish statement with every type PayU documents", async () => {
  const t = await makeTestApp();
  try {
    // No "Prowizja" column, so PayU leaves "Saldo" empty; fees are r and cr net of rc and bc,
    // payouts w net of wc; nt, or and orc are counted as operations and nothing else.
    const file = await Deno.readFile(
      new URL("./fixtures/payu_statement_other_shop.csv", import.meta.url),
    );
    const body = await created(t, await post(t, file));
    assert.equal(body.from, "2026-11-02");
    assert.equal(body.to, "2026-11-10");
    assert.equal(body.operations, 15);
    assert.equal(body.matched, 0);
    assert.deepEqual(body.fees, [{ amount: 375 + 148 + 1230 - 148 + 20, currency: "PLN" }]);
    assert.deepEqual(body.payouts, [{ amount: 50000 - 50000 + 73374, currency: "PLN" }]);
    assert.deepEqual(problemsOf(body), [
      [2, "unknown_order", "ORDER-2026-0001", 14999],
      [4, "unknown_order", "ORDER-2026-0002", 5900],
      [6, "unknown_order", "ORDER-2026-0003", 60000],
      [8, "unknown_order", "ORDER-2026-0002", 5900],
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("[reconciliations] fees and payouts go by the operation's type, signed amounts or not, with or without a balance", async () => {
  const t = await makeTestApp();
  try {
    const signed = await Deno.readTextFile(
      new URL("./fixtures/payu_statement_other_shop.csv", import.meta.url),
    );
    // The same statement with every amount written without its sign, but for the correction
    // (bc), whose sign is all that says which way it went.
    const unsigned = signed.split("\n").map((line) =>
      line.includes(";bc;") ? line : line.replace(/;-(\d)/, ";$1")
    ).join("\n");
    assert.notEqual(unsigned, signed);
    const body = await created(t, await post(t, unsigned));
    assert.deepEqual(body.fees, [{ amount: 375 + 148 + 1230 - 148 + 20, currency: "PLN" }]);
    assert.deepEqual(body.payouts, [{ amount: 50000 - 50000 + 73374, currency: "PLN" }]);

    // PayU lets the merchant leave the balance out.
    const withoutBalance = signed.split("\n").map((line) =>
      line.split(";").filter((_, column) => column !== 5).join(";")
    ).join("\n");
    assert.ok(withoutBalance.startsWith("Data;ID transakcji;Kwota;Waluta;Typ operacji;Order ID;"));
    const unbalanced = await created(t, await post(t, withoutBalance));
    assert.deepEqual(unbalanced.fees, body.fees);
    assert.deepEqual(unbalanced.payouts, body.payouts);

    // A correction written as money back lowers the fees.
    const corrected = await created(
      t,
      await post(t, signed.replace(";-0,20;PLN;bc;", ";0,20;PLN;bc;")),
    );
    assert.deepEqual(corrected.fees, [{ amount: 375 + 148 + 1230 - 148 - 20, currency: "PLN" }]);
  } finally {
    await t.close();
  }
});

Deno.test("[reconciliations] another shop's English statement, commission per line and balances", async () => {
  const t = await makeTestApp();
  try {
    const file = await Deno.readFile(
      new URL("./fixtures/payu_statement_other_shop_en.csv", import.meta.url),
    );
    const body = await created(t, await post(t, file));
    assert.equal(body.from, "2026-11-02");
    assert.equal(body.to, "2026-11-10");
    assert.equal(body.operations, 4);
    assert.equal(body.matched, 0);
    assert.deepEqual(body.fees, [{ amount: 523, currency: "PLN" }]);
    assert.deepEqual(body.payouts, [{ amount: 14476, currency: "PLN" }]);
    assert.deepEqual(problemsOf(body), [
      [2, "unknown_order", "ORDER-2026-0001", 14999],
      [3, "unknown_order", "ORDER-2026-0002", 5900],
      [4, "unknown_order", "ORDER-2026-0002", 5900],
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("[reconciliations] a malformed file is 400 naming its line, and nothing is kept", async (s) => {
  const t = await makeTestApp();
  try {
    const header = "Data;ID transakcji;Kwota;Waluta;Typ operacji;Saldo;Order ID";
    const cases: [string, string | Uint8Array<ArrayBuffer>, string][] = [
      ["empty", "", "Line 1: the statement is empty."],
      ["a header alone", `${header}\n`, "Line 2: the statement has no operations."],
      [
        "wrong columns",
        "id,amount\n1,2\n",
        "Line 1: this is not a PayU statement: it has no 'date', 'trans id', 'currency', " +
        "'type of operation', 'order id' column (the header names 'id', " +
        "'amount').",
      ],
      [
        "JSON, not CSV",
        '{"date":"2026-11-21","amount":12.5}',
        "Line 1: this is not valid CSV (Invalid Opening Quote: a quote is found on field 0 at " +
        'line 1, value is "{").',
      ],
      [
        "a bad number",
        `${header}\n2026-11-21;1;12,50;PLN;t;;att_1\n2026-11-21;2;12,5O;PLN;t;;att_2\n`,
        "Line 3: the amount '12,5O' is not an amount in PLN.",
      ],
      [
        "too many decimals",
        `${header}\n2026-11-21;1;12,505;PLN;t;;att_1\n`,
        "Line 2: the amount '12,505' is not an amount in PLN.",
      ],
      [
        "a bad balance",
        `${header}\n2026-11-21;1;12,50;PLN;t;dużo;att_1\n`,
        "Line 2: the balance 'dużo' is not an amount in PLN.",
      ],
      [
        "a bad date",
        `${header}\n21.11.2026;1;12,50;PLN;t;;att_1\n`,
        "Line 2: the date '21.11.2026' is not a day (YYYY-MM-DD).",
      ],
      [
        "an unknown operation",
        `${header}\n2026-11-21;1;12,50;PLN;Chargeback;;att_1\n`,
        "Line 2: the operation type 'Chargeback' is not one PayU's statements have (a purchase, " +
        "a refund, a commission or a payout).",
      ],
      [
        "a bad currency",
        `${header}\n2026-11-21;1;12,50;ZŁ;t;;att_1\n`,
        "Line 2: the currency 'ZŁ' is not an ISO 4217 code.",
      ],
      [
        "a line with a field too many",
        `${header}\n2026-11-21;1;12,50;PLN;t;;att_1\n2026-11-21;1;12,50;PLN;t;;att_1;x\n`,
        "Line 3: this is not valid CSV (Invalid Record Length: expect 7, got 8 on line 3).",
      ],
      [
        "a quote never closed",
        `${header}\n2026-11-21;1;"12,50;PLN;t;;att_1\n`,
        "Line 2: this is not valid CSV (Quote Not Closed: the parsing is finished with an " +
        "opening quote at line 2).",
      ],
      [
        "not text",
        new Uint8Array([...new TextEncoder().encode(`${header}\n2026-11-21;1;`), 0xff, 0xfe, 0x00]),
        "Line 2: this is not UTF-8 text, so not a CSV.",
      ],
    ];
    for (const [name, body, message] of cases) {
      await s.step(name, async () => {
        const response = await post(t, body);
        assert.equal(response.status, 400);
        const error = (await response.json()).error;
        assert.equal(error.code, "statement_invalid");
        assert.equal(error.type, "invalid_request");
        assert.equal(error.message, message);
      });
    }
    await s.step("over 10 MiB: the line it stopped at", async () => {
      const line = "2026-11-21;4100000001;12,50;PLN;t;12,50;att_4f9TqYcW2mJx8bN3kL6pR1sV\n";
      const lines = Math.ceil((10 * 1024 * 1024) / line.length) + 10;
      const response = await post(t, `${header}\n${line.repeat(lines)}`);
      assert.equal(response.status, 400);
      const error = (await response.json()).error;
      assert.equal(error.code, "statement_invalid");
      const stopped = Math.floor((10 * 1024 * 1024 + 1 - header.length - 1) / line.length) + 2;
      assert.equal(
        error.message,
        `Line ${stopped}: the statement is larger than 10 MiB; download PayU's statement of a ` +
          "shorter period.",
      );
    });
    await s.step("not text/csv is 415", async () => {
      const response = await post(t, `${header}\n`, "application/json");
      assert.equal(response.status, 415);
      assert.equal((await response.json()).error.code, "unsupported_media_type");
    });
    assert.deepEqual(await listed(t), []);
  } finally {
    await t.close();
  }
});

Deno.test("[reconciliations] FREE organisations get 403; the list is per organisation, newest first", async () => {
  const free = await makeTestApp({ plan: "FREE" });
  const t = await makeTestApp();
  try {
    const statement = payuStatement([{ date: "2026-11-21", amount: "-1,00", type: "r" }]);
    for (
      const response of [
        await post(free, statement),
        await free.request("GET", "/api/v1/reconciliations"),
      ]
    ) {
      assert.equal(response.status, 403);
      assert.equal((await response.json()).error.code, "plan_required");
    }
    const first = await created(t, await post(t, statement));
    t.clock.advance(1000);
    const secondResponse = await post(t, statement);
    assert.equal(secondResponse.status, 201);
    const second = await secondResponse.json();
    assert.deepEqual((await listed(t)).map((r) => r.reconciliationId), [
      second.reconciliationId,
      first.reconciliationId,
    ]);
    const page = await (await t.request("GET", "/api/v1/reconciliations?limit=1")).json();
    assert.deepEqual(page.data.map((r: { reconciliationId: string }) => r.reconciliationId), [
      second.reconciliationId,
    ]);
    assert.equal(page.hasMore, true);
    const other = await otherOrganisation(t);
    assert.deepEqual(
      (await (await other.request("GET", "/api/v1/reconciliations")).json()).data,
      [],
    );
  } finally {
    await t.close();
    await free.close();
  }
});

Deno.test("[reconciliations] each refund matches one line of the statement only", async () => {
  const t = await makeTestApp();
  try {
    const coffee = await paidPayment(t, { amount: 2000 });
    const refund = await t.request("POST", `/api/v1/payments/${coffee.paymentId}/refunds`, {
      amount: 500,
    });
    assert.equal(refund.status, 201);
    await t.services.scheduler.runDue();
    const order = await orderIdOf(t, coffee.paymentId);
    const body = await created(
      t,
      await post(
        t,
        payuStatement([
          {
            date: "2026-11-21",
            transactionId: "1",
            amount: "20,00",
            type: "t",
            orderId: order,
          },
          {
            date: "2026-11-21",
            transactionId: "2",
            amount: "-5,00",
            type: "c",
            orderId: order,
          },
          {
            date: "2026-11-21",
            transactionId: "3",
            amount: "-5,00",
            type: "c",
            orderId: order,
          },
        ]),
      ),
    );
    assert.equal(body.matched, 2);
    assert.deepEqual(
      (body.problems as { line: number; kind: string; expectedAmount: number }[])
        .map((problem) => [problem.line, problem.kind, problem.expectedAmount]),
      [[4, "amount_mismatch", 0]],
    );
  } finally {
    await t.close();
  }
});
