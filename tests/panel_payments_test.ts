import assert from "node:assert/strict";
import { LinkOnlyProvider } from "./support/billing_helpers.ts";
import { createTestOffer, createTestPayment, type TestApp } from "./support/helpers.ts";
import { addUser, pageText, PanelAgent, signedInApp } from "./support/panel_helpers.ts";

async function paid(t: TestApp, qrId: string, code = "777123") {
  const payment = await createTestPayment(t, qrId);
  const response = await t.request("POST", `/api/v1/payments/${payment.paymentId}/complete`, {
    code,
  });
  return await response.json();
}

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

Deno.test("[panel payments] a subscription renewed by link shows its renewal payment, link and e-mails", async () => {
  const { t, agent } = await signedInApp({ provider: new LinkOnlyProvider() });
  try {
    const offer = await createTestOffer(t, { recurring: { interval: "MONTH" } });
    const first = await createTestPayment(t, offer.qrId, {
      customer: { email: "ada@example.com" },
    });
    const code = { code: "777123" };
    await t.request("POST", `/api/v1/payments/${first.paymentId}/complete`, code);
    for (const days of [27, 3]) {
      const advance = await t.request("POST", "/api/v1/sandbox/clock/advance", { days });
      assert.equal(advance.status, 200);
      for (let round = 0; round < 3; round++) {
        await t.services.scheduler.runDue();
        await t.emails.idle();
      }
    }
    const [subscription] = (await (await t.request("GET", "/api/v1/subscriptions")).json()).data;
    const link = subscription.renewalPaymentId;
    assert.match(link, /^pay_\w{30}$/);
    const page = pageText(await (await agent.get(`/panel/payments/${first.paymentId}`)).text());
    assert.match(
      page,
      new RegExp(
        `Next renewal step 2026-12-22 10:00 UTC Renewal by pay link Renewal payment ${link} ` +
          `Pending Pay link http://sandbox\\.test/pay/${link} Payable until 2026-12-25 10:00 UTC ` +
          "E-mails Renewal notice to ada@example\\.com: Sent, queued 2026-12-18 10:00 UTC " +
          "Renewal reminder to ada@example\\.com: Sent, queued 2026-12-21 10:00 UTC Cancel now",
      ),
    );
    // The renewal payment's own page shows the same subscription and its link.
    const own = pageText(await (await agent.get(`/panel/payments/${link}`)).text());
    assert.ok(own.includes(`Renewal payment ${link} Pending`));
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
