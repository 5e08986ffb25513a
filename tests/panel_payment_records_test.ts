import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import type { TestApp } from "./support/helpers.ts";
import { paidPayment } from "./support/billing_helpers.ts";
import { addUser, pageText, PanelAgent, signedInApp } from "./support/panel_helpers.ts";
import { payuStatement } from "./support/payu_statement.ts";

/** Uploads `statement` as the reconciliation form does (multipart, with the CSRF token). */
async function upload(t: TestApp, agent: PanelAgent, statement: string): Promise<Response> {
  const form = new FormData();
  form.append("_csrf", agent.csrf);
  form.append("statement", new File([statement], "statement.csv", { type: "text/csv" }));
  return await t.app.request("/panel/payments/reconciliations", {
    method: "POST",
    headers: {
      accept: "text/html",
      "sec-fetch-site": "same-origin",
      cookie: [...agent.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
    },
    body: form,
  });
}

Deno.test("[panel payment records] an owner exports a period and reconciles a statement", async () => {
  const { t, agent } = await signedInApp();
  try {
    const paid = await paidPayment(t, { name: "Kawa", amount: 1250 });
    const list = pageText(await (await agent.get("/panel/payments")).text());
    assert.match(list, /Export Reconciliation/);
    const page = await agent.get("/panel/payments/export");
    assert.equal(page.status, 200);
    assert.match(pageText(await page.text()), /Download payments .* Download refunds/);

    const file = await agent.get(
      "/panel/payments/export/payments?from=2026-11-21&to=2026-11-21&status=&format=csv",
    );
    assert.equal(file.status, 200);
    assert.equal(file.headers.get("content-type"), "text/csv; charset=utf-8");
    const rows: string[][] = parse(await file.text(), { bom: true });
    assert.deepEqual(rows.slice(1).map((row) => [row[1], row[5], row[7]]), [[
      paid.paymentId,
      "Kawa",
      "12.50",
    ]]);
    const bad = await agent.get("/panel/payments/export/refunds?from=2026-11-30&to=2026-11-01");
    assert.equal(bad.status, 400);
    assert.match(pageText(await bad.text()), /'to' must come after 'from'\./);

    const order = await t.store.db.selectFrom("payment_attempts").select("public_id")
      .executeTakeFirstOrThrow();
    const statement = payuStatement([
      {
        date: "2026-11-21",
        transactionId: "1",
        amount: "12,50",
        type: "t",
        orderId: order.public_id,
      },
      { date: "2026-11-21", amount: "-0,31", type: "r" },
      { date: "2026-11-21", transactionId: "2", amount: "8,00", type: "t", orderId: "ORDER-X" },
    ]);
    const done = await upload(t, agent, statement);
    assert.equal(done.status, 303);
    assert.equal(done.headers.get("location"), "/panel/payments/reconciliations?notice=reconciled");
    const results = pageText(
      await (await agent.get("/panel/payments/reconciliations?notice=reconciled")).text(),
    );
    assert.match(results, /Statement reconciled/);
    assert.match(
      results,
      /2026-11-21 – 2026-11-21 rec_\w+ 3 1 PLN 0\.31 — 1 problem Line 4, Unknown order ?: No payment of this organisation has the order id 'ORDER-X'\./,
    );
    const malformed = await upload(t, agent, "Data;Kwota\n2026-11-21;1\n");
    assert.equal(malformed.status, 400);
    assert.match(pageText(await malformed.text()), /Line 1: this is not a PayU statement/);
    const api = await (await t.request("GET", "/api/v1/reconciliations")).json();
    assert.equal(api.data.length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("[panel payment records] members and FREE organisations get what the API gives them: 403", async () => {
  const { t } = await signedInApp();
  const free = await signedInApp({ plan: "FREE" });
  try {
    const member = await addUser(t, { email: "member@acme.test", role: "MEMBER" });
    const staff = new PanelAgent(t);
    await staff.signIn(member.email, member.password);
    const list = pageText(await (await staff.get("/panel/payments")).text());
    assert.equal(list.includes("Reconciliation"), false, "members see no links");
    for (
      const path of [
        "/panel/payments/export",
        "/panel/payments/export/payments",
        "/panel/payments/reconciliations",
      ]
    ) {
      const response = await staff.get(path);
      assert.equal(response.status, 403, path);
      assert.match(
        pageText(await response.text()),
        /This part of the panel is for owners and admins/,
      );
      const refused = await free.agent.get(path);
      assert.equal(refused.status, 403, path);
      assert.match(
        pageText(await refused.text()),
        /This needs plan BASIC or higher; Acme is on FREE\./,
      );
    }
    const statement = payuStatement([{ date: "2026-11-21", amount: "-1,00", type: "r" }]);
    assert.equal((await upload(t, staff, statement)).status, 403);
    assert.equal((await upload(free.t, free.agent, statement)).status, 403);
    assert.deepEqual((await (await t.request("GET", "/api/v1/reconciliations")).json()).data, []);
  } finally {
    await free.t.close();
    await t.close();
  }
});

Deno.test("[panel payment records] a reconciliation with more problems than kept says how many were found", async () => {
  const { t, agent } = await signedInApp();
  try {
    const statement = payuStatement(
      Array.from({ length: 150 }, (_, i) => ({
        date: "2026-11-21",
        transactionId: String(i),
        amount: "8,00",
        type: "t",
        orderId: `ORDER-${i}`,
      })),
    );
    assert.equal((await upload(t, agent, statement)).status, 303);
    const html = await (await agent.get("/panel/payments/reconciliations")).text();
    const results = pageText(html);
    assert.match(
      results,
      /150 problems The first 100 of 150 problems are listed; all of them are counted: Unknown order: 150\./,
    );
    assert.equal(html.match(/data-kind="unknown_order"/g)?.length, 100);
  } finally {
    await t.close();
  }
});
