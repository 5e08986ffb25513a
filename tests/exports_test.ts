import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { neutralise } from "../lib/exports/csv.ts";
import { newId } from "../lib/ids.ts";
import {
  createTestOffer,
  createTestPayment,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";
import { otherOrganisation, paidPayment } from "./support/billing_helpers.ts";
import { SHOP_DETAILS } from "./support/customer_helpers.ts";

const MINUTE = 60_000;
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const PAYMENT_HEADER = [
  "createdAt",
  "paymentId",
  "providerOrderId",
  "status",
  "qrId",
  "offerName",
  "quantity",
  "amount",
  "currency",
  "amountRefunded",
  "customerEmail",
  "invoiceCompanyName",
  "invoiceTaxId",
  "failureCode",
  "succeededAt",
  "paymentMethod",
  "bank",
];
const REFUND_HEADER = [
  "createdAt",
  "refundId",
  "paymentId",
  "providerRefundId",
  "status",
  "amount",
  "currency",
  "reason",
];

/** The attempt id (PayU's extOrderId) Paystead sent for each payment, by payment id. */
async function orderIds(t: TestApp): Promise<Map<string, string>> {
  const rows = await t.store.db.selectFrom("payment_attempts")
    .innerJoin("payments", "payments.id", "payment_attempts.payment_id")
    .select(["payments.public_id as paymentId", "payment_attempts.public_id as orderId"])
    .orderBy("payment_attempts.id").execute();
  return new Map(rows.map((row) => [row.paymentId, row.orderId]));
}

/** Three payments a minute apart: paid and partly refunded, pending, declined. */
async function threePayments(t: TestApp) {
  const paid = await paidPayment(
    t,
    { name: "Kawa ziarnista 1 kg", amount: 1250 },
    { quantity: 2, customer: { email: "ada@example.pl" } },
  );
  const refund = await t.request("POST", `/api/v1/payments/${paid.paymentId}/refunds`, {
    amount: 500,
    reason: "Damaged box",
  });
  assert.equal(refund.status, 201);
  t.clock.advance(MINUTE);
  const { qrId } = await createTestOffer(t, { name: "Herbata", amount: 999 });
  const pending = await createTestPayment(t, qrId);
  t.clock.advance(MINUTE);
  const declined = await createTestPayment(t, qrId);
  const failed = await t.request("POST", `/api/v1/payments/${declined.paymentId}/complete`, {
    code: "500500",
  });
  assert.equal((await failed.json()).status, "FAILED");
  return { paid, refundId: (await refund.json()).refundId as string, pending, declined };
}

async function csvOf(response: Response): Promise<{ bytes: Uint8Array; rows: string[][] }> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { bytes, rows: parse(new TextDecoder().decode(bytes), { bom: true }) };
}

Deno.test("[exports] payments as CSV: a BOM, the contract's header, each row as the API has it", async () => {
  const t = await makeTestApp();
  try {
    const { paid, pending, declined } = await threePayments(t);
    const response = await t.request("GET", "/api/v1/exports/payments?format=csv");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), "text/csv; charset=utf-8");
    assert.equal(
      response.headers.get("content-disposition"),
      'attachment; filename="paystead-payments-sandbox-2026-11-21.csv"',
    );
    const { bytes, rows } = await csvOf(response);
    assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    assert.equal(text.split("\r\n").length, 5, "RFC 4180: four records, each ending in CRLF");
    const orders = await orderIds(t);
    // Every row against the API's own view of the payment.
    const api = (await (await t.request("GET", "/api/v1/payments?limit=100")).json()).data
      .reverse();
    assert.deepEqual(rows[0], PAYMENT_HEADER);
    assert.deepEqual(
      rows.slice(1).map((row) => row[1]),
      api.map((p: { paymentId: string }) => p.paymentId),
    );
    assert.deepEqual(rows.slice(1), [
      [
        "2026-11-21T10:00:00.000Z",
        paid.paymentId,
        orders.get(paid.paymentId)!,
        "SUCCEEDED",
        paid.qrId,
        "Kawa ziarnista 1 kg",
        "2",
        "25.00",
        "PLN",
        "5.00",
        "ada@example.pl",
        "",
        "",
        "",
        "2026-11-21T10:00:00.000Z",
        "blik",
        "",
      ],
      [
        "2026-11-21T10:01:00.000Z",
        pending.paymentId,
        "",
        "PENDING",
        api[1].qrId,
        "Herbata",
        "1",
        "9.99",
        "PLN",
        "0.00",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
      ],
      [
        "2026-11-21T10:02:00.000Z",
        declined.paymentId,
        orders.get(declined.paymentId)!,
        "FAILED",
        api[2].qrId,
        "Herbata",
        "1",
        "9.99",
        "PLN",
        "0.00",
        "",
        "",
        "",
        "declined",
        "",
        "blik",
        "",
      ],
    ]);
    for (const [index, payment] of api.entries()) {
      const row = rows[index + 1];
      assert.equal(row[0], payment.createdAt);
      assert.equal(row[3], payment.status);
      assert.equal(row[4], payment.qrId);
      assert.equal(row[7], (payment.amount / 100).toFixed(2));
      assert.equal(row[9], (payment.amountRefunded / 100).toFixed(2));
      assert.equal(row[10], payment.customer.email ?? "");
      assert.equal(row[13], payment.failureCode ?? "");
      assert.equal(row[15], payment.paymentMethod ?? "");
      assert.equal(row[16], payment.bank ?? "");
    }
  } finally {
    await t.close();
  }
});

Deno.test("[exports] payments as xlsx: typed cells, times as dates on Warsaw's wall clock", async () => {
  const t = await makeTestApp();
  try {
    const { paid, pending } = await threePayments(t);
    const response = await t.request("GET", "/api/v1/exports/payments?format=xlsx");
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("content-type"), XLSX);
    assert.equal(
      response.headers.get("content-disposition"),
      'attachment; filename="paystead-payments-sandbox-2026-11-21.xlsx"',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.getWorksheet("Payments")!;
    assert.equal(sheet.rowCount, 4);
    assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), PAYMENT_HEADER);
    const row = sheet.getRow(2);
    // 10:00 UTC is 11:00 in Warsaw in November: the cell shows the merchant's wall clock.
    assert.deepEqual(row.getCell(1).value, new Date("2026-11-21T11:00:00.000Z"));
    assert.equal(row.getCell(1).type, ExcelJS.ValueType.Date);
    assert.equal(row.getCell(1).numFmt, "yyyy-mm-dd hh:mm:ss");
    assert.equal(row.getCell(2).value, paid.paymentId);
    assert.equal(row.getCell(7).value, 2);
    assert.equal(row.getCell(7).type, ExcelJS.ValueType.Number);
    assert.equal(row.getCell(8).value, 25);
    assert.equal(row.getCell(8).type, ExcelJS.ValueType.Number);
    assert.equal(row.getCell(8).numFmt, "0.00");
    assert.equal(row.getCell(10).value, 5);
    assert.deepEqual(row.getCell(15).value, new Date("2026-11-21T11:00:00.000Z"));
    const second = sheet.getRow(3);
    assert.equal(second.getCell(2).value, pending.paymentId);
    assert.equal(second.getCell(8).value, 9.99);
    assert.equal(second.getCell(15).value, null);
  } finally {
    await t.close();
  }
});

Deno.test("[exports] refunds, as CSV and xlsx, with the provider's refund id", async () => {
  const t = await makeTestApp();
  try {
    const { paid, refundId } = await threePayments(t);
    await t.services.scheduler.runDue();
    const refund = await (await t.request("GET", `/api/v1/refunds/${refundId}`)).json();
    assert.equal(refund.status, "SUCCEEDED");
    const { provider_ref } = await t.store.db.selectFrom("refunds").select("provider_ref")
      .where("public_id", "=", refundId).executeTakeFirstOrThrow();
    assert.ok(provider_ref);
    const csv = await csvOf(await t.request("GET", "/api/v1/exports/refunds"));
    assert.deepEqual(csv.rows, [REFUND_HEADER, [
      "2026-11-21T10:00:00.000Z",
      refundId,
      paid.paymentId,
      provider_ref,
      "SUCCEEDED",
      "5.00",
      "PLN",
      "Damaged box",
    ]]);
    const response = await t.request("GET", "/api/v1/exports/refunds?format=xlsx&status=SUCCEEDED");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.getWorksheet("Refunds")!;
    assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), REFUND_HEADER);
    assert.equal(sheet.getRow(2).getCell(2).value, refundId);
    assert.equal(sheet.getRow(2).getCell(6).value, 5);
    assert.equal(sheet.rowCount, 2);
  } finally {
    await t.close();
  }
});

Deno.test("[exports] filters: status, days in Warsaw's time zone, instants, an empty period", async (s) => {
  const t = await makeTestApp();
  try {
    const { paid, pending, declined } = await threePayments(t);
    const ids = async (query: string) => {
      const response = await t.request("GET", `/api/v1/exports/payments?${query}`);
      assert.equal(response.status, 200, await response.clone().text());
      const { rows } = await csvOf(response);
      assert.deepEqual(rows[0], PAYMENT_HEADER);
      return rows.slice(1).map((row) => row[1]);
    };
    await s.step("status", async () => {
      assert.deepEqual(await ids("status=SUCCEEDED"), [paid.paymentId]);
      assert.deepEqual(await ids("status=FAILED"), [declined.paymentId]);
      assert.deepEqual(await ids("status=CANCELED"), []);
    });
    await s.step("days: the first and the last are whole days in Warsaw", async () => {
      assert.deepEqual(await ids("from=2026-11-21&to=2026-11-21"), [
        paid.paymentId,
        pending.paymentId,
        declined.paymentId,
      ]);
      assert.deepEqual(await ids("from=2026-11-22"), []);
      assert.deepEqual(await ids("to=2026-11-20"), []);
    });
    await s.step("instants: from included, to excluded", async () => {
      assert.deepEqual(
        await ids("from=2026-11-21T10:01:00.000Z&to=2026-11-21T10:02:00.000Z"),
        [pending.paymentId],
      );
      assert.deepEqual(await ids("from=2026-11-21T11:01:00%2B01:00"), [
        pending.paymentId,
        declined.paymentId,
      ]);
    });
    await s.step("an empty period is the header alone, in xlsx too", async () => {
      const response = await t.request(
        "GET",
        "/api/v1/exports/payments?from=2025-01-01&to=2025-01-31&format=xlsx",
      );
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(await response.arrayBuffer());
      assert.equal(workbook.getWorksheet("Payments")!.rowCount, 1);
    });
    await s.step("bad queries are 400 naming the parameter", async () => {
      for (
        const [query, param] of [
          ["from=2026-11-22&to=2026-11-21", "to"],
          ["from=2026-02-30", "from"],
          ["to=yesterday", "to"],
          ["format=pdf", "format"],
          ["status=PAID", "status"],
          ["limit=5", "limit"],
        ]
      ) {
        const response = await t.request("GET", `/api/v1/exports/payments?${query}`);
        assert.equal(response.status, 400, query);
        assert.equal((await response.json()).error.param, param, query);
      }
    });
  } finally {
    await t.close();
  }
});

Deno.test("[exports] CSV cells a spreadsheet would run are written as text (OWASP)", async () => {
  const t = await makeTestApp();
  try {
    const names = ['=HYPERLINK("http://x")', "+48 123", "-1+1", "@SUM(A1)", "Zwykła"];
    for (const name of names) {
      const { qrId } = await createTestOffer(t, { name });
      await createTestPayment(t, qrId);
      t.clock.advance(1);
    }
    const { rows } = await csvOf(await t.request("GET", "/api/v1/exports/payments"));
    assert.deepEqual(rows.slice(1).map((row) => row[5]), [
      '\'=HYPERLINK("http://x")',
      "'+48 123",
      "'-1+1",
      "'@SUM(A1)",
      "Zwykła",
    ]);
    // Names are trimmed on the way in; a tab or carriage return first is neutralised all the same.
    assert.equal(neutralise("\tTab"), "'\tTab");
    assert.equal(neutralise("\rCR"), "'\rCR");
    assert.equal(neutralise("a=b"), "a=b");
    assert.equal(neutralise("Acme;=1+1;"), "Acme;'=1+1;");
    assert.equal(neutralise("Acme; =1+1"), "Acme;' =1+1");
    const response = await t.request("GET", "/api/v1/exports/payments?format=xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const cell = workbook.getWorksheet("Payments")!.getRow(2).getCell(6);
    // In a workbook the text is a string cell, never a formula, so it stays as it was.
    assert.equal(cell.type, ExcelJS.ValueType.String);
    assert.equal(cell.value, '=HYPERLINK("http://x")');
  } finally {
    await t.close();
  }
});

Deno.test("[exports] pages follow on in order, ties of time broken by id, none lost", async () => {
  const t = await makeTestApp();
  try {
    const { qrId } = await createTestOffer(t);
    const offer = await t.store.db.selectFrom("offers").select("id")
      .where("public_id", "=", qrId).executeTakeFirstOrThrow();
    const at = Date.parse("2026-11-20T08:00:00.000Z");
    const expected: string[] = [];
    await t.store.write(async (trx) => {
      for (let index = 0; index < 1203; index++) {
        const id = newId("payment");
        expected.push(id);
        // Three payments share each millisecond, across the pages' edges.
        const created = at + Math.floor(index / 3);
        await trx.insertInto("payments").values({
          public_id: id,
          org_id: t.orgId,
          offer_id: offer.id,
          status: "PENDING",
          amount: 1250,
          currency: "PLN",
          quantity: 1,
          amount_refunded: 0,
          customer_email: null,
          customer_name: null,
          success_url: null,
          cancel_url: null,
          failure_code: null,
          metadata: "{}",
          expires_at: created + 30 * MINUTE,
          processing_deadline_at: null,
          created_at: created,
          updated_at: created,
        }).execute();
      }
    });
    const { rows } = await csvOf(await t.request("GET", "/api/v1/exports/payments"));
    assert.deepEqual(rows.slice(1).map((row) => row[1]), expected);
    const response = await t.request("GET", "/api/v1/exports/payments?format=xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.getWorksheet("Payments")!;
    assert.equal(sheet.rowCount, 1204);
    assert.equal(sheet.getRow(1204).getCell(2).value, expected.at(-1));
  } finally {
    await t.close();
  }
});

Deno.test("[exports] one organisation never sees another's rows; FREE organisations get 403", async () => {
  const t = await makeTestApp();
  const free = await makeTestApp({ plan: "FREE" });
  try {
    const mine = await paidPayment(t);
    const myRefund = await (await t.request("POST", `/api/v1/payments/${mine.paymentId}/refunds`, {
      amount: 100,
    })).json();
    const other = await otherOrganisation(t);
    const theirs = await (await other.request("POST", "/api/v1/qr", {
      name: "Globex",
      amount: 100,
      currency: "PLN",
    })).json();
    const theirPayment = await (await other.request("POST", "/api/v1/payments", {
      qrId: theirs.qrId,
    })).json();
    const { rows } = await csvOf(await t.request("GET", "/api/v1/exports/payments"));
    assert.deepEqual(rows.slice(1).map((row) => row[1]), [mine.paymentId]);
    const { rows: theirRows } = await csvOf(await other.request("GET", "/api/v1/exports/payments"));
    assert.deepEqual(theirRows.slice(1).map((row) => row[1]), [theirPayment.paymentId]);
    // Issue 46: the refunds export is scoped too, not only the payments export.
    const paid = await other.request(
      "POST",
      `/api/v1/payments/${theirPayment.paymentId}/complete`,
      {
        code: "777123",
      },
    );
    assert.equal((await paid.json()).status, "SUCCEEDED");
    const theirRefund = await (await other.request(
      "POST",
      `/api/v1/payments/${theirPayment.paymentId}/refunds`,
      { amount: 50 },
    )).json();
    const { rows: refunds } = await csvOf(await t.request("GET", "/api/v1/exports/refunds"));
    assert.deepEqual(refunds.slice(1).map((row) => row[1]), [myRefund.refundId]);
    const { rows: theirRefunds } = await csvOf(
      await other.request("GET", "/api/v1/exports/refunds"),
    );
    assert.deepEqual(theirRefunds.slice(1).map((row) => row[1]), [theirRefund.refundId]);
    for (const path of ["/api/v1/exports/payments", "/api/v1/exports/refunds?format=xlsx"]) {
      const response = await free.request("GET", path);
      assert.equal(response.status, 403);
      assert.equal((await response.json()).error.code, "plan_required");
    }
  } finally {
    await free.close();
    await t.close();
  }
});

Deno.test("[exports] amounts keep their currency's decimals: yen whole, dinars in thousandths", async () => {
  const t = await makeTestApp();
  try {
    await paidPayment(t, { amount: 500, currency: "JPY" });
    t.clock.advance(1);
    await paidPayment(t, { amount: 12345, currency: "KWD" });
    t.clock.advance(1);
    await paidPayment(t, { amount: 1250, currency: "PLN" });
    const { rows } = await csvOf(await t.request("GET", "/api/v1/exports/payments"));
    assert.deepEqual(rows.slice(1).map((row) => [row[7], row[8]]), [
      ["500", "JPY"],
      ["12.345", "KWD"],
      ["12.50", "PLN"],
    ]);
    const response = await t.request("GET", "/api/v1/exports/payments?format=xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
    const sheet = workbook.getWorksheet("Payments")!;
    assert.deepEqual(
      [2, 3, 4].map((
        row,
      ) => [sheet.getRow(row).getCell(8).value, sheet.getRow(row).getCell(8).numFmt]),
      [[500, "0"], [12.345, "0.000"], [12.5, "0.00"]],
    );
  } finally {
    await t.close();
  }
});

/** Every cell a naive split at `;`, tab or line breaks would make, as Polish Excel opens the file. */
function excelPieces(text: string): string[] {
  return text.replace(/^\uFEFF/, "").split(/[;\t\r\n,]/).map((piece) =>
    piece.replace(/^[\s"]+/, "")
  );
}

Deno.test("[exports] a cell split at ; or tab never starts a formula (issue 43)", async () => {
  const t = await makeTestApp();
  try {
    const details = await t.request("PUT", "/api/v1/business-details", SHOP_DETAILS);
    assert.equal(details.status, 200);
    const payloads = ["Acme;=1+1;", "Acme\t=1+1", "Acme;+48;-1;@SUM(A1)", 'Acme;"=1+1"'];
    for (const payload of payloads) {
      const paid = await paidPayment(t, { name: payload }, {
        invoiceRequest: { companyName: payload, taxId: "5260250274" },
      });
      const refund = await t.request("POST", `/api/v1/payments/${paid.paymentId}/refunds`, {
        amount: 100,
        reason: payload,
      });
      assert.equal(refund.status, 201);
      t.clock.advance(1);
    }
    for (const path of ["/api/v1/exports/payments", "/api/v1/exports/refunds"]) {
      const text = await (await t.request("GET", path)).text();
      const formulas = excelPieces(text).filter((piece) => /^[=+\-@]/.test(piece));
      assert.deepEqual(formulas, [], path);
    }
  } finally {
    await t.close();
  }
});
