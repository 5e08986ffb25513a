import assert from "node:assert/strict";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { openStore } from "../db/client.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { demoApiKey, startPaystead } from "./support/processes.ts";
import { payuStatement } from "./support/payu_statement.ts";
import { assertAnswersAsShown, bash, readmeBlock } from "./support/readme.ts";

Deno.test("[readme] 'Records for the accountant' runs as shown against a server", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-readme-records-" });
  const workDir = await Deno.makeTempDir({ prefix: "paystead-readme-cwd-" });
  const server = await startPaystead(dataDir);
  try {
    const key = await demoApiKey(server);
    const api = async (path: string, body: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
      assert.ok(response.ok, `${path}: ${response.status}`);
      return await response.json();
    };
    const offer = await api("/api/v1/qr", { name: "Kawa", amount: 1250, currency: "PLN" });
    const paid = [];
    for (let index = 0; index < 2; index++) {
      const payment = await api("/payments", { qrId: offer.qrId });
      paid.push(await api(`/api/v1/payments/${payment.paymentId}/complete`, { code: "777123" }));
    }
    const refund = await api(`/api/v1/payments/${paid[0].paymentId}/refunds`, { amount: 250 });
    // The sandbox answers a refund within moments.
    for (let tries = 0; tries < 100; tries++) {
      const response = await fetch(`${server.url}/api/v1/refunds/${refund.refundId}`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      if ((await response.json()).status === "SUCCEEDED") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const store = await openStore<EnvironmentSchema>(`file:${dataDir}/sandbox.db`);
    const orders = await store.db.selectFrom("payment_attempts").select("public_id")
      .orderBy("id").execute();
    await store.close();
    // The day the README's answer shows: PayU's statement may be of any day its orders were paid.
    const day = "2026-11-21";
    await Deno.writeTextFile(
      `${workDir}/statement.csv`,
      payuStatement([
        {
          date: day,
          transactionId: "1",
          amount: "12,50",
          type: "t",
          orderId: orders[0].public_id,
        },
        {
          date: day,
          transactionId: "2",
          amount: "12,50",
          type: "t",
          orderId: orders[1].public_id,
        },
        { date: day, amount: "-0,62", type: "r" },
      ]),
    );

    const run = await bash(readmeBlock("Records for the accountant"), {
      cwd: workDir,
      env: { KEY: key, API: server.url },
      strict: true,
    });
    assert.equal(run.code, 0, run.stderr);
    const reconciliation = JSON.parse(run.stdout);
    assertAnswersAsShown(readmeBlock("Records for the accountant"), [reconciliation]);
    assert.equal(reconciliation.from, day);
    assert.equal(reconciliation.matched, 2);
    assert.deepEqual(reconciliation.fees, [{ amount: 62, currency: "PLN" }]);
    assert.deepEqual(reconciliation.problems, []);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await Deno.readFile(`${workDir}/payments.xlsx`)).buffer);
    const sheet = workbook.getWorksheet("Payments")!;
    assert.equal(sheet.getRow(1).getCell(3).value, "providerOrderId");
    const refunds: string[][] = parse(await Deno.readTextFile(`${workDir}/refunds.csv`), {
      bom: true,
    });
    assert.deepEqual(refunds.slice(1).map((row) => [row[1], row[2], row[4], row[5]]), [
      [refund.refundId, paid[0].paymentId, "SUCCEEDED", "2.50"],
    ]);
  } finally {
    await server.stop();
    await Deno.remove(dataDir, { recursive: true });
    await Deno.remove(workDir, { recursive: true });
  }
});
