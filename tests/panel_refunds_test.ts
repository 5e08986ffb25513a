import assert from "node:assert/strict";
import { createTestOffer, createTestPayment, type TestApp } from "./helpers.ts";
import { addUser, pageText, PanelAgent, signedInApp } from "./panel_helpers.ts";

async function paid(t: TestApp, fields: Record<string, unknown>, code = "777123") {
  const offer = await createTestOffer(t, fields);
  const payment = await createTestPayment(t, offer.qrId);
  await t.request("POST", `/api/v1/payments/${payment.paymentId}/complete`, { code });
  return payment.paymentId;
}

async function refundedOf(t: TestApp, paymentId: string) {
  const payment = await (await t.request("GET", `/api/v1/payments/${paymentId}`)).json();
  const refunds = await (await t.request("GET", `/api/v1/payments/${paymentId}/refunds`)).json();
  return { amountRefunded: payment.amountRefunded, refunds: refunds.data.length };
}

Deno.test("[panel refunds] the refund form leads to a confirmation that states the exact amount", async () => {
  const { t, agent } = await signedInApp();
  try {
    const paymentId = await paid(t, { amount: 5000 });
    const path = `/panel/payments/${paymentId}`;
    const detail = await (await agent.get(path)).text();
    assert.ok(detail.includes(`action="${path}/refunds/confirm#refunds"`));

    const review = await agent.post(`${path}/refunds/confirm`, {
      amount: "12,5",
      reason: "Broken bag",
    });
    assert.equal(review.status, 200);
    assert.equal(review.headers.get("content-type"), "text/html; charset=UTF-8");
    const html = await review.text();
    const text = pageText(html);
    assert.match(text, /Refund 12\.50 PLN to the customer\? This cannot be undone\./);
    assert.match(text, /Reason: Broken bag Refund 12\.50 PLN Cancel/);
    assert.equal(text.includes("Up to PLN 50.00"), false, "the form gives way to the question");
    assert.ok(html.includes(`action="${path}/refunds"`));
    assert.ok(html.includes('type="hidden" name="amount" value="12.50"'));
    assert.ok(html.includes('type="hidden" name="reason" value="Broken bag"'));
    assert.ok(html.includes(`href="${path}#refunds"`), "cancel goes back to the payment");
    assert.deepEqual(await refundedOf(t, paymentId), { amountRefunded: 0, refunds: 0 });

    const everything = pageText(await (await agent.post(`${path}/refunds/confirm`, {})).text());
    assert.match(everything, /Refund 50\.00 PLN to the customer\? This cannot be undone\./);

    const confirmed = await agent.post(`${path}/refunds`, {
      amount: "12.50",
      reason: "Broken bag",
    });
    assert.equal(confirmed.status, 303);
    assert.equal(confirmed.headers.get("location"), `${path}?notice=refunded`);
    assert.deepEqual(await refundedOf(t, paymentId), { amountRefunded: 1250, refunds: 1 });
  } finally {
    await t.close();
  }
});

Deno.test("[panel refunds] a currency without minor units is confirmed in whole units", async () => {
  const { t, agent } = await signedInApp();
  try {
    const paymentId = await paid(t, { amount: 1250, currency: "JPY" });
    const review = await agent.post(`/panel/payments/${paymentId}/refunds/confirm`, {});
    assert.equal(review.status, 200);
    assert.match(
      pageText(await review.text()),
      /Refund 1250 JPY to the customer\? This cannot be undone\./,
    );
  } finally {
    await t.close();
  }
});

Deno.test("[panel refunds] what the refund would refuse, the confirmation refuses first", async (t) => {
  const { t: app, agent } = await signedInApp();
  try {
    const paymentId = await paid(app, { amount: 5000 });
    const path = `/panel/payments/${paymentId}`;
    await t.step("more than is left: 400 with the form and what was typed", async () => {
      const response = await agent.post(`${path}/refunds/confirm`, { amount: "60.00" });
      assert.equal(response.status, 400);
      const html = await response.text();
      assert.match(
        pageText(html),
        /Refunding 6000 would exceed the payment .*: 5000 of its 5000 PLN is left to refund/,
      );
      assert.ok(html.includes('value="60.00"'));
      assert.equal(pageText(html).includes("to the customer?"), false);
    });
    await t.step("not an amount: 400 on the field", async () => {
      const response = await agent.post(`${path}/refunds/confirm`, { amount: "12.505" });
      assert.equal(response.status, 400);
      assert.match(
        pageText(await response.text()),
        /Enter an amount like 12\.50 \(at most 2 digits after the point\)\./,
      );
    });
    await t.step("a payment that did not succeed: 409", async () => {
      const failed = await paid(app, { amount: 5000 }, "500500");
      const response = await agent.post(`/panel/payments/${failed}/refunds/confirm`, {});
      assert.equal(response.status, 409);
      assert.match(pageText(await response.text()), /Only a succeeded payment can be refunded\./);
    });
    await t.step("a member may not even ask", async () => {
      const member = await addUser(app, { email: "member@acme.test", role: "MEMBER" });
      const staff = new PanelAgent(app);
      await staff.signIn(member.email, member.password);
      assert.equal((await staff.post(`${path}/refunds/confirm`, {})).status, 403);
    });
    assert.deepEqual(await refundedOf(app, paymentId), { amountRefunded: 0, refunds: 0 });
  } finally {
    await app.close();
  }
});
