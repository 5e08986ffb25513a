import assert from "node:assert/strict";
import { sql } from "kysely";
import { migrate, openStore } from "../db/client.ts";
import { insertCustomerEmail } from "../db/customer_emails.ts";
import { environmentMigrations } from "../db/migrations/mod.ts";
import { insertOffer } from "../db/offers.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { loadConfig } from "../lib/config.ts";
import { SHOP_DETAILS } from "./support/customer_helpers.ts";
import { pendingPaymentRow } from "../lib/payments/mod.ts";
import { SANDBOX_TIMEOUT_MS } from "../lib/providers/sandbox.ts";
import {
  createTestOffer,
  createTestPayment,
  expectError,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";
import { eventsOf, getJson, LinkOnlyProvider, secondProcess } from "./support/billing_helpers.ts";

const DAY_MS = 86_400_000;
const MONTHLY = { recurring: { interval: "MONTH" } };
const CUSTOMER = { email: "ada@example.com", name: "Ada" };

type Json = Record<string, unknown>;
type Subscription = Json & { subscriptionId: string; paymentId: string };

async function linkApp(): Promise<TestApp & { provider: LinkOnlyProvider }> {
  const provider = new LinkOnlyProvider();
  return Object.assign(await makeTestApp({ provider }), { provider });
}

/** Runs what is due until nothing more is (a job's writes wake the next one). */
async function settle(t: TestApp): Promise<void> {
  for (let round = 0; round < 3; round++) {
    await t.services.scheduler.runDue();
    await t.emails.idle();
  }
}

/** Moves the organisation's sandbox clock to `time` (whole days ahead) and runs what is due. */
async function advanceTo(t: TestApp, time: string): Promise<void> {
  const clock = await getJson(t, "/api/v1/sandbox/clock");
  const days = (Date.parse(time) - Date.parse(String(clock.now))) / DAY_MS;
  assert.ok(Number.isInteger(days) && days > 0, `${time} is whole days ahead of ${clock.now}`);
  const response = await t.request("POST", "/api/v1/sandbox/clock/advance", { days });
  assert.equal(response.status, 200);
  await settle(t);
}

/** Pays a monthly offer with the customer's address; returns the subscription it started. */
async function subscribe(t: TestApp): Promise<Subscription> {
  const { qrId } = await createTestOffer(t, { ...MONTHLY, name: "Kawa miesięcznie" });
  const { paymentId } = await createTestPayment(t, qrId, { customer: CUSTOMER });
  const paid = await t.request("POST", `/api/v1/payments/${paymentId}/complete`, {
    code: "777123",
  });
  assert.equal(paid.status, 200);
  await settle(t);
  const list = await getJson(t, `/api/v1/subscriptions?qrId=${qrId}`);
  return (list.data as Subscription[])[0];
}

function subscriptionOf(t: TestApp, subscription: Subscription): Promise<Json> {
  return getJson(t, `/api/v1/subscriptions/${subscription.subscriptionId}`);
}

/** Every outbox e-mail, oldest first: kind, recipient, status and the payment it is about. */
async function outbox(t: TestApp) {
  const rows = await t.store.db.selectFrom("customer_emails")
    .innerJoin("payments", "payments.id", "customer_emails.payment_id")
    .select([
      "customer_emails.kind",
      "customer_emails.recipient",
      "customer_emails.status",
      "payments.public_id as paymentId",
    ])
    .orderBy("customer_emails.id").execute();
  return rows.map((row) => `${row.kind} ${row.paymentId} ${row.status}`);
}

async function renewalPayments(t: TestApp, subscriptionId: string): Promise<Json[]> {
  const list = await getJson(t, "/api/v1/payments?limit=100");
  return (list.data as Json[]).filter((payment) =>
    (payment.metadata as Json).subscriptionId === subscriptionId
  ).reverse();
}

function complete(t: TestApp, paymentId: string, code = "777123"): Promise<Response> {
  return t.request("POST", `/api/v1/payments/${paymentId}/complete`, { code });
}

Deno.test("[renewal links] the notice: a renewal payment and its e-mail, 3 days before the end", async () => {
  const t = await linkApp();
  try {
    const subscription = await subscribe(t);
    assert.equal(subscription.currentPeriodEnd, "2026-12-21T10:00:00.000Z");
    assert.equal(subscription.nextChargeAt, "2026-12-18T10:00:00.000Z");
    assert.equal(subscription.renewalPaymentId, null);

    await advanceTo(t, "2026-12-17T10:00:00.000Z");
    assert.deepEqual(await renewalPayments(t, subscription.subscriptionId), []);

    await advanceTo(t, "2026-12-18T10:00:00.000Z");
    const [renewal] = await renewalPayments(t, subscription.subscriptionId);
    assert.equal(renewal.status, "PENDING");
    assert.equal(renewal.amount, 1250);
    assert.equal(renewal.expiresAt, "2026-12-25T10:00:00.000Z");
    assert.equal(renewal.createdAt, "2026-12-18T10:00:00.000Z");
    assert.deepEqual(renewal.customer, CUSTOMER);
    assert.equal(renewal.paymentUrl, `http://sandbox.test/pay/${renewal.paymentId}`);
    const after = await subscriptionOf(t, subscription);
    assert.equal(after.status, "ACTIVE");
    assert.equal(after.renewalPaymentId, renewal.paymentId);
    assert.equal(after.nextChargeAt, "2026-12-21T10:00:00.000Z");
    assert.deepEqual(await outbox(t), [
      `PAYMENT_CONFIRMATION ${subscription.paymentId} SENT`,
      `RENEWAL_NOTICE ${renewal.paymentId} SENT`,
    ]);

    // The customer reads it in the business's language (Polish by default), with the link.
    const mailbox = await getJson(t, "/api/v1/sandbox/emails");
    const [notice] = mailbox.data as Json[];
    assert.equal(notice.to, "ada@example.com");
    assert.equal(notice.language, "pl");
    assert.equal(notice.subject, "Odnów subskrypcję – Acme");
    const text = String(notice.text);
    assert.match(text, /^Twoja subskrypcja wygasa 21 grudnia 2026 11:00\n/);
    assert.ok(text.includes(`Zapłać teraz: http://sandbox.test/pay/${renewal.paymentId}?lang=pl`));
    assert.ok(text.includes("Kolejny okres: 21 grudnia 2026 11:00 – 21 stycznia 2027 11:00"));
    assert.ok(text.includes("Termin płatności: 25 grudnia 2026 11:00"));
    assert.ok(text.includes("zapłać 12,50\u00a0zł za kolejny okres kodem BLIK"), text);
    assert.ok(
      String(notice.html).includes(
        `<a href="http://sandbox.test/pay/${renewal.paymentId}?lang=pl"`,
      ),
    );

    // Running again, or in a second process, makes nothing twice.
    await settle(t);
    const other = await secondProcess(t, t.provider);
    try {
      await other.services.scheduler.runAll();
    } finally {
      await other.close();
    }
    assert.equal((await renewalPayments(t, subscription.subscriptionId)).length, 1);
    assert.equal((await outbox(t)).length, 2);
    assert.deepEqual(await eventsOf(t, "subscription.past_due"), []);
  } finally {
    await t.close();
  }
});

Deno.test("[renewal links] paid on time: renewed from the period end, no reminder", async () => {
  const t = await linkApp();
  try {
    const subscription = await subscribe(t);
    await advanceTo(t, "2026-12-19T10:00:00.000Z");
    const { renewalPaymentId } = await subscriptionOf(t, subscription);
    const paid = await complete(t, String(renewalPaymentId));
    assert.equal(paid.status, 200);
    assert.equal((await paid.json()).status, "SUCCEEDED");
    await settle(t);

    const renewed = await subscriptionOf(t, subscription);
    assert.equal(renewed.status, "ACTIVE");
    assert.equal(renewed.currentPeriodStart, "2026-12-21T10:00:00.000Z");
    assert.equal(renewed.currentPeriodEnd, "2027-01-21T10:00:00.000Z");
    assert.equal(renewed.latestPaymentId, renewalPaymentId);
    assert.equal(renewed.renewalPaymentId, null);
    assert.equal(renewed.nextChargeAt, "2027-01-18T10:00:00.000Z");
    const [event] = await eventsOf(t, "subscription.renewed");
    assert.deepEqual(event.data, renewed);
    assert.equal(event.createdAt, "2026-12-19T10:00:00.000Z");

    await advanceTo(t, "2026-12-22T10:00:00.000Z");
    assert.deepEqual(await outbox(t), [
      `PAYMENT_CONFIRMATION ${subscription.paymentId} SENT`,
      `RENEWAL_NOTICE ${renewalPaymentId} SENT`,
      `PAYMENT_CONFIRMATION ${renewalPaymentId} SENT`,
    ]);
    assert.deepEqual(await eventsOf(t, "subscription.past_due"), []);

    // The next period's notice goes out three days before it ends, on the anchor's day.
    await advanceTo(t, "2027-01-18T10:00:00.000Z");
    const [, next] = await renewalPayments(t, subscription.subscriptionId);
    assert.equal(next.expiresAt, "2027-01-25T10:00:00.000Z");
    assert.equal((await subscriptionOf(t, subscription)).renewalPaymentId, next.paymentId);
  } finally {
    await t.close();
  }
});

Deno.test("[renewal links] paid late during the retries: PAST_DUE, reminders, then renewed on the anchor", async () => {
  const t = await linkApp();
  try {
    const subscription = await subscribe(t);
    await advanceTo(t, "2026-12-18T10:00:00.000Z");
    await advanceTo(t, "2026-12-21T10:00:00.000Z");
    const pastDue = await subscriptionOf(t, subscription);
    assert.equal(pastDue.status, "PAST_DUE");
    assert.equal(pastDue.nextChargeAt, "2026-12-22T10:00:00.000Z");
    const [pastDueEvent] = await eventsOf(t, "subscription.past_due");
    assert.deepEqual(pastDueEvent.data, pastDue);

    await advanceTo(t, "2026-12-22T10:00:00.000Z");
    const link = String(pastDue.renewalPaymentId);
    assert.deepEqual((await outbox(t)).slice(1), [
      `RENEWAL_NOTICE ${link} SENT`,
      `RENEWAL_REMINDER ${link} SENT`,
      `RENEWAL_REMINDER ${link} SENT`,
    ]);
    const [reminder] = (await getJson(t, "/api/v1/sandbox/emails")).data as Json[];
    assert.equal(reminder.subject, "Przypomnienie: odnów subskrypcję – Acme");
    assert.ok(
      String(reminder.text).includes(
        "Opłacony okres zakończył się 21 grudnia 2026 11:00. Zapłać 12,50\u00a0zł kodem BLIK " +
          "do 25 grudnia 2026 11:00, aby nadal korzystać z: Kawa miesięcznie.",
      ),
    );

    await advanceTo(t, "2026-12-23T10:00:00.000Z");
    assert.equal((await complete(t, link)).status, 200);
    const renewed = await subscriptionOf(t, subscription);
    assert.equal(renewed.status, "ACTIVE");
    assert.equal(renewed.currentPeriodStart, "2026-12-21T10:00:00.000Z");
    assert.equal(renewed.currentPeriodEnd, "2027-01-21T10:00:00.000Z");
    assert.equal(renewed.nextChargeAt, "2027-01-18T10:00:00.000Z");
    assert.equal((await eventsOf(t, "subscription.renewed")).length, 1);
    assert.equal((await eventsOf(t, "subscription.past_due")).length, 1);

    // No more reminders for the paid period, and nothing ends it.
    await advanceTo(t, "2026-12-26T10:00:00.000Z");
    assert.equal((await outbox(t)).length, 5);
    assert.equal((await subscriptionOf(t, subscription)).status, "ACTIVE");
  } finally {
    await t.close();
  }
});

Deno.test("[renewal links] never paid: reminders at the end and each retry, then CANCELED", async () => {
  const t = await linkApp();
  try {
    const subscription = await subscribe(t);
    // Jumping past several steps sends only the latest: a process that was down does not
    // send every reminder it missed at once.
    await advanceTo(t, "2026-12-22T10:00:00.000Z");
    const { renewalPaymentId } = await subscriptionOf(t, subscription);
    assert.deepEqual((await outbox(t)).slice(1), [`RENEWAL_REMINDER ${renewalPaymentId} SENT`]);
    await advanceTo(t, "2026-12-24T10:00:00.000Z");
    const last = await subscriptionOf(t, subscription);
    assert.equal(last.status, "PAST_DUE");
    assert.equal(last.nextChargeAt, "2026-12-25T10:00:00.000Z");

    await advanceTo(t, "2026-12-25T10:00:00.000Z");
    const canceled = await subscriptionOf(t, subscription);
    assert.equal(canceled.status, "CANCELED");
    assert.equal(canceled.cancellationReason, "renewal_failed");
    assert.equal(canceled.canceledAt, "2026-12-25T10:00:00.000Z");
    assert.equal(canceled.renewalPaymentId, null);
    assert.equal(canceled.nextChargeAt, null);
    const [event] = await eventsOf(t, "subscription.canceled");
    assert.deepEqual(event.data, canceled);
    const [expired] = await renewalPayments(t, subscription.subscriptionId);
    assert.equal(expired.status, "EXPIRED");
    assert.deepEqual(
      (await eventsOf(t, "payment.expired")).map((e) => e.data.paymentId),
      [renewalPaymentId],
    );
    await expectError(
      await complete(t, String(renewalPaymentId)),
      409,
      "conflict",
      "payment_already_final",
    );
    assert.deepEqual(t.provider.authorized, [subscription.paymentId]);

    await advanceTo(t, "2027-02-25T10:00:00.000Z");
    assert.equal((await outbox(t)).length, 3);
    assert.equal((await renewalPayments(t, subscription.subscriptionId)).length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("[renewal links] a link being confirmed at the deadline holds the cancellation until it settles", async () => {
  const t = await linkApp();
  try {
    const subscription = await subscribe(t);
    await advanceTo(t, "2026-12-24T10:00:00.000Z");
    const link = String((await subscriptionOf(t, subscription)).renewalPaymentId);
    // 600600: the customer's bank has not answered yet.
    assert.equal((await (await complete(t, link, "600600")).json()).status, "PROCESSING");
    await advanceTo(t, "2026-12-25T10:00:00.000Z");
    const held = await subscriptionOf(t, subscription);
    assert.equal(held.status, "PAST_DUE");
    assert.equal(held.nextChargeAt, "2026-12-25T10:01:00.000Z");
    assert.equal((await getJson(t, `/api/v1/payments/${link}`)).status, "PROCESSING");

    // The bank gives up: the payment fails, and only then does the subscription end.
    t.clock.advance(SANDBOX_TIMEOUT_MS + 60_000);
    await t.services.scheduler.runAll();
    await settle(t);
    assert.equal((await getJson(t, `/api/v1/payments/${link}`)).status, "FAILED");
    const canceled = await subscriptionOf(t, subscription);
    assert.equal(canceled.status, "CANCELED");
    assert.equal(canceled.cancellationReason, "renewal_failed");
    assert.equal((await renewalPayments(t, subscription.subscriptionId)).length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("[renewal links] a failed code is replaced by a new link for the same period", async () => {
  const t = await linkApp();
  try {
    const subscription = await subscribe(t);
    await advanceTo(t, "2026-12-18T10:00:00.000Z");
    const first = String((await subscriptionOf(t, subscription)).renewalPaymentId);
    const declined = await complete(t, first, "500500");
    assert.equal((await declined.json()).status, "FAILED");
    const second = String((await subscriptionOf(t, subscription)).renewalPaymentId);
    assert.notEqual(second, first);
    const payments = await renewalPayments(t, subscription.subscriptionId);
    assert.deepEqual(payments.map((payment) => [payment.status, payment.expiresAt]), [
      ["FAILED", "2026-12-25T10:00:00.000Z"],
      ["PENDING", "2026-12-25T10:00:00.000Z"],
    ]);
    // The next reminder carries the new link.
    await advanceTo(t, "2026-12-21T10:00:00.000Z");
    assert.deepEqual((await outbox(t)).slice(1), [
      `RENEWAL_NOTICE ${first} SENT`,
      `RENEWAL_REMINDER ${second} SENT`,
    ]);
    assert.equal((await complete(t, second)).status, 200);
    const renewed = await subscriptionOf(t, subscription);
    assert.equal(renewed.status, "ACTIVE");
    assert.equal(renewed.currentPeriodStart, "2026-12-21T10:00:00.000Z");
  } finally {
    await t.close();
  }
});

Deno.test("[renewal links] canceled by the merchant with an open renewal: the link is canceled, never charged", async (t) => {
  await t.step("cancel now", async () => {
    const app = await linkApp();
    try {
      const subscription = await subscribe(app);
      await advanceTo(app, "2026-12-19T10:00:00.000Z");
      const { renewalPaymentId } = await subscriptionOf(app, subscription);
      const response = await app.request(
        "POST",
        `/api/v1/subscriptions/${subscription.subscriptionId}/cancel`,
        {},
      );
      assert.equal(response.status, 200);
      const canceled = await response.json();
      assert.equal(canceled.status, "CANCELED");
      assert.equal(canceled.cancellationReason, "requested");
      assert.equal(canceled.renewalPaymentId, null);
      const payment = await getJson(app, `/api/v1/payments/${renewalPaymentId}`);
      assert.equal(payment.status, "CANCELED");
      assert.deepEqual(
        (await eventsOf(app, "payment.canceled")).map((e) => e.data.paymentId),
        [renewalPaymentId],
      );
      await expectError(
        await complete(app, String(renewalPaymentId)),
        409,
        "conflict",
        "payment_already_final",
      );
      assert.deepEqual(app.provider.authorized, [subscription.paymentId]);
      await advanceTo(app, "2026-12-26T10:00:00.000Z");
      assert.equal((await outbox(app)).length, 2);
    } finally {
      await app.close();
    }
  });

  await t.step("cancel at the period end: the link goes, it ends at the end", async () => {
    const app = await linkApp();
    try {
      const subscription = await subscribe(app);
      await advanceTo(app, "2026-12-18T10:00:00.000Z");
      const { renewalPaymentId } = await subscriptionOf(app, subscription);
      const response = await app.request(
        "POST",
        `/api/v1/subscriptions/${subscription.subscriptionId}/cancel`,
        { atPeriodEnd: true },
      );
      assert.equal(response.status, 200);
      const scheduled = await response.json();
      assert.equal(scheduled.status, "ACTIVE");
      assert.equal(scheduled.cancelAtPeriodEnd, true);
      assert.equal(scheduled.renewalPaymentId, null);
      assert.equal(
        (await getJson(app, `/api/v1/payments/${renewalPaymentId}`)).status,
        "CANCELED",
      );
      await advanceTo(app, "2026-12-21T10:00:00.000Z");
      const ended = await subscriptionOf(app, subscription);
      assert.equal(ended.status, "CANCELED");
      assert.equal(ended.canceledAt, "2026-12-21T10:00:00.000Z");
      assert.equal((await outbox(app)).length, 2);
      assert.deepEqual(await eventsOf(app, "subscription.past_due"), []);
    } finally {
      await app.close();
    }
  });

  await t.step(
    "a renewal of a subscription canceled meanwhile is refused before the provider",
    async () => {
      const app = await linkApp();
      try {
        const subscription = await subscribe(app);
        await advanceTo(app, "2026-12-18T10:00:00.000Z");
        const { renewalPaymentId } = await subscriptionOf(app, subscription);
        // Another process's cancellation, as the code arrives: the payment is still PENDING.
        await app.store.write((trx) =>
          sql`UPDATE subscriptions SET status = 'CANCELED', next_charge_at = NULL,
          canceled_at = 0, cancellation_reason = 'requested'`.execute(trx)
        );
        await expectError(
          await complete(app, String(renewalPaymentId)),
          409,
          "conflict",
          "subscription_canceled",
          `The subscription '${subscription.subscriptionId}' this payment renews was canceled; ` +
            "nothing was charged.",
        );
        assert.deepEqual(app.provider.authorized, [subscription.paymentId]);
        assert.equal(
          (await getJson(app, `/api/v1/payments/${renewalPaymentId}`)).status,
          "PENDING",
        );
      } finally {
        await app.close();
      }
    },
  );
});

Deno.test("[renewal links] a customer paying twice is charged once", async () => {
  const t = await linkApp();
  try {
    const subscription = await subscribe(t);
    await advanceTo(t, "2026-12-18T10:00:00.000Z");
    const link = String((await subscriptionOf(t, subscription)).renewalPaymentId);
    const answers = await Promise.all([complete(t, link), complete(t, link)]);
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [200, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    assert.match((await refused.json()).error.code, /^payment_(processing|already_final)$/);
    await expectError(await complete(t, link), 409, "conflict", "payment_already_final");
    assert.deepEqual(t.provider.authorized, [subscription.paymentId, link]);
    assert.equal((await eventsOf(t, "subscription.renewed")).length, 1);
    assert.equal(
      (await subscriptionOf(t, subscription)).currentPeriodEnd,
      "2027-01-21T10:00:00.000Z",
    );
  } finally {
    await t.close();
  }
});

Deno.test("[renewal links] a crash between the renewal payment and its e-mail leaves one of each", async () => {
  const t = await linkApp();
  try {
    const subscription = await subscribe(t);
    // The e-mail's insert fails as a process killed right after the payment's would: the
    // transaction that made the payment never commits.
    await t.store.write((trx) =>
      sql`CREATE TRIGGER crash_before_email BEFORE INSERT ON customer_emails
        WHEN NEW.kind = 'RENEWAL_NOTICE' BEGIN SELECT RAISE(ABORT, 'killed'); END`.execute(trx)
    );
    await advanceTo(t, "2026-12-18T10:00:00.000Z");
    assert.deepEqual(await renewalPayments(t, subscription.subscriptionId), []);
    assert.equal((await subscriptionOf(t, subscription)).nextChargeAt, "2026-12-18T10:00:00.000Z");
    assert.equal((await outbox(t)).length, 1);
    await t.store.write((trx) => sql`DROP TRIGGER crash_before_email`.execute(trx));

    // A restart: a new process over the same database takes the step once.
    const restarted = await secondProcess(t, t.provider);
    try {
      await restarted.services.scheduler.runAll();
      await restarted.services.scheduler.runAll();
    } finally {
      await restarted.close();
    }
    await settle(t);
    await t.services.scheduler.runAll();
    const payments = await renewalPayments(t, subscription.subscriptionId);
    assert.equal(payments.length, 1);
    assert.deepEqual((await outbox(t)).slice(1), [`RENEWAL_NOTICE ${payments[0].paymentId} SENT`]);
  } finally {
    await t.close();
  }
});

Deno.test("[renewal links] the first payment needs the customer's e-mail address", async (t) => {
  const app = await linkApp();
  try {
    const offer = await createTestOffer(app, MONTHLY);
    await t.step("the API: 400 customer.email", async () => {
      const body = await expectError(
        await app.request("POST", "/api/v1/payments", { qrId: offer.qrId }),
        400,
        "invalid_request",
        "customer_email_required",
        `The offer '${offer.qrId}' is a subscription renewed by a pay link sent by e-mail, so ` +
          "its first payment needs the customer's e-mail address.",
      );
      assert.equal(body.error.param, "customer.email");
      const plain = await createTestOffer(app);
      assert.equal(
        (await app.request("POST", "/api/v1/payments", { qrId: plain.qrId })).status,
        201,
      );
    });

    await t.step(
      "code entry: a payment without an address is refused before the provider",
      async () => {
        const settings = await app.request("PUT", "/api/v1/checkout-settings", {
          allowedOrigins: ["https://shop.example"],
        });
        assert.equal(settings.status, 200);
        const created = await app.request("POST", `/api/v1/checkout-sessions/${offer.qrId}`, {
          embedLink: "https://shop.example/checkout",
        });
        assert.equal(created.status, 201);
        const session = await created.json();
        const body = await expectError(
          await app.request("POST", `/api/v1/checkout-sessions/${session.sessionId}/complete`, {
            code: "777123",
          }),
          400,
          "invalid_request",
          "customer_email_required",
        );
        assert.equal(body.error.param, "customer.email");
        assert.deepEqual(app.provider.authorized, []);
        assert.deepEqual((await getJson(app, "/api/v1/subscriptions")).data, []);
      },
    );
  } finally {
    await app.close();
  }
});

Deno.test("[renewal links] RENEWAL_NOTICE_DAYS: 3 by default, 1 to 30", () => {
  const base = { PAYSTEAD_ENV: "sandbox", DATA_DIR: "/tmp/paystead-config" };
  assert.equal(loadConfig(base).renewalNoticeDays, 3);
  assert.equal(loadConfig({ ...base, RENEWAL_NOTICE_DAYS: "7" }).renewalNoticeDays, 7);
  for (const value of ["0", "31", "2.5", "three"]) {
    assert.throws(
      () => loadConfig({ ...base, RENEWAL_NOTICE_DAYS: value }),
      new RegExp(
        `RENEWAL_NOTICE_DAYS must be a whole number from 1 to 30 \\(got "${value}"\\)`,
      ),
    );
  }
});

Deno.test("[renewal links] migration 0013 keeps every e-mail and resend, and takes the new kinds", async () => {
  const dir = await Deno.makeTempDir({ prefix: "paystead-0013-" });
  const store = await openStore<EnvironmentSchema>(`file:${dir}/sandbox.db`);
  try {
    const before = Object.fromEntries(
      Object.entries(environmentMigrations).filter(([name]) => name < "0013"),
    );
    await migrate(store, before);
    const now = Date.UTC(2026, 10, 21, 10);
    const email = (id: number, resendOf: number | null) => ({
      id,
      public_id: `em_${id}`,
      org_id: 1,
      payment_id: 1,
      refund_id: null,
      kind: "PAYMENT_CONFIRMATION",
      recipient: "ada@example.com",
      message_id: `<em_${id}@sandbox.test>`,
      status: "SENT",
      attempt_count: 1,
      in_flight: 0,
      next_attempt_at: null,
      last_error: null,
      resend_of: resendOf,
      created_at: now,
      updated_at: now,
    });
    await store.write(async (trx) => {
      const offer = await insertOffer(trx, {
        public_id: "qr_migration000000000000000",
        org_id: 1,
        name: "Coffee",
        description: null,
        amount: 1250,
        currency: "PLN",
        recurring_interval: "MONTH",
        recurring_interval_count: 1,
        active: 1,
        metadata: "{}",
        created_at: now,
        updated_at: now,
      });
      // The columns a payment had before 0015, which this schema is.
      const {
        payment_methods: _allowlist,
        attempt_id: _attempt,
        payment_method: _method,
        bank: _bank,
        provider: _provider,
        customer_language: _language,
        ...row
      } = pendingPaymentRow(offer, {
        publicId: "pay_migration00000000000000",
        amount: 1250,
        quantity: 1,
        customerEmail: "ada@example.com",
        customerName: null,
        successUrl: null,
        cancelUrl: null,
        metadata: {},
        invoice: null,
        expiresAt: now,
        now,
      });
      await trx.insertInto("payments").values(row).execute();
      await insertCustomerEmail(trx, email(7, null));
      await insertCustomerEmail(trx, email(9, 7));
    });
    const indexesOf = async () =>
      (await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master
        WHERE tbl_name = 'customer_emails' AND type = 'index' AND sql IS NOT NULL
        ORDER BY name`.execute(store.db)).rows;
    const indexes = await indexesOf();
    assert.deepEqual(indexes.map((index) => index.name), [
      "customer_emails_due",
      "customer_emails_mailbox",
      "customer_emails_payment",
    ]);

    const through0013 = Object.fromEntries(
      Object.entries(environmentMigrations).filter(([name]) => name <= "0013_renewal_links"),
    );
    assert.deepEqual(await migrate(store, through0013), ["0013_renewal_links"]);
    const rows = await store.db.selectFrom("customer_emails").select(["id", "resend_of", "kind"])
      .orderBy("id").execute();
    assert.deepEqual(rows, [
      { id: 7, resend_of: null, kind: "PAYMENT_CONFIRMATION" },
      { id: 9, resend_of: 7, kind: "PAYMENT_CONFIRMATION" },
    ]);
    assert.deepEqual(await indexesOf(), indexes);
    await store.write((trx) =>
      insertCustomerEmail(trx, { ...email(10, 9), kind: "RENEWAL_NOTICE" })
    );
    await assert.rejects(
      store.write((trx) => insertCustomerEmail(trx, { ...email(11, null), kind: "NEWSLETTER" })),
      /CHECK constraint failed/,
    );
    await assert.rejects(
      store.write((trx) => insertCustomerEmail(trx, { ...email(12, 99), kind: "RENEWAL_NOTICE" })),
      /FOREIGN KEY constraint failed/,
    );
    const columns = await sql<{ name: string; dflt_value: string }>`
      PRAGMA table_info(subscription_renewals)`.execute(store.db);
    assert.equal(columns.rows.find((column) => column.name === "method")?.dflt_value, "'CHARGE'");
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("[renewal links] the e-mails speak the business's default language: English", async () => {
  const t = await linkApp();
  try {
    const details = await t.request("PUT", "/api/v1/business-details", {
      ...SHOP_DETAILS,
      defaultLanguage: "en",
    });
    assert.equal(details.status, 200);
    const subscription = await subscribe(t);
    await advanceTo(t, "2026-12-18T10:00:00.000Z");
    await advanceTo(t, "2026-12-21T10:00:00.000Z");
    const { renewalPaymentId } = await subscriptionOf(t, subscription);
    const [reminder, notice] = (await getJson(t, "/api/v1/sandbox/emails")).data as Json[];
    assert.equal(notice.language, "en");
    assert.equal(notice.subject, "Renew your subscription – Kawiarnia Ziarno sp. z o.o.");
    assert.match(String(notice.text), /^Your subscription ends on /);
    assert.ok(
      String(notice.text).includes(
        `Pay now: http://sandbox.test/pay/${renewalPaymentId}?lang=en`,
      ),
    );
    assert.equal(
      reminder.subject,
      "Reminder: renew your subscription – Kawiarnia Ziarno sp. z o.o.",
    );
    assert.match(
      String(reminder.text),
      /\nThe period you paid for ended on 21 December 2026 at 11:00\. Pay PLN\s12\.50 with BLIK by 25 December 2026 at 11:00 to keep Kawa miesięcznie; after that the subscription is canceled\.\n/,
    );
  } finally {
    await t.close();
  }
});

Deno.test("[renewal links] the hosted page asks for the address as required, and says why in Polish", async () => {
  const app = await linkApp();
  const form = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "text/html",
    "sec-fetch-site": "same-origin",
  };
  try {
    const offer = await createTestOffer(app, MONTHLY);
    const opened = await app.app.request(`/o/${offer.qrId}?lang=pl`);
    assert.equal(opened.status, 303);
    const path = new URL(opened.headers.get("location")!, "http://x").pathname;
    const html = await (await app.app.request(`${path}?lang=pl`)).text();
    assert.match(html, /<label class="field-label" for="email">Adres e-mail<\/label>/);
    assert.match(html, /<input id="email" name="email"[^>]* required/);
    assert.match(html, /przed końcem każdego okresu – link do odnowienia subskrypcji/);

    const refused = await app.app.request(`${path}?lang=pl`, {
      method: "POST",
      headers: form,
      body: "code=777123&email=",
    });
    assert.equal(refused.status, 400);
    assert.match(
      await refused.text(),
      /Podaj adres e-mail – wyślemy na niego link do odnowienia subskrypcji\./,
    );
    const paymentId = path.split("/").at(-1)!;
    const before = await getJson(app, `/api/v1/payments/${paymentId}`);
    assert.equal(before.status, "PENDING");
    assert.deepEqual(app.provider.authorized, []);

    const paid = await app.app.request(`${path}?lang=pl`, {
      method: "POST",
      headers: form,
      body: "code=777123&email=ada%40example.com",
    });
    assert.equal(paid.status, 303);
    const after = await getJson(app, `/api/v1/payments/${paymentId}`);
    assert.deepEqual(after.customer, { email: "ada@example.com", name: null });
  } finally {
    await app.close();
  }
});
