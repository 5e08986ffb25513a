import { makeTestApp } from "./support/helpers.ts";
import { paidPayment } from "./support/billing_helpers.ts";
Deno.test("smoke", async () => {
  const t = await makeTestApp();
  try {
    for (let i = 0; i < 3; i++) {
      await paidPayment(t, { name: "=cmd" }, { customer: { email: "a@b.pl" } });
    }
    let r = await t.request("GET", "/api/v1/exports/payments");
    console.log(r.status, JSON.stringify(await r.text()).length);
    r = await t.request("GET", "/api/v1/exports/refunds?format=xlsx");
    console.log(r.status, (await r.arrayBuffer()).byteLength);
  } finally {
    await t.close();
  }
});
