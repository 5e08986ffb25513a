import assert from "node:assert/strict";
import { paidPayment } from "./support/billing_helpers.ts";
import { SHOP_DETAILS } from "./support/customer_helpers.ts";
import { CustomerEmailSender, type EmailSenderOptions } from "../lib/emails/sender.ts";
import { signedInApp } from "./support/panel_helpers.ts";
import { makeTestApp, type TestApp } from "./support/helpers.ts";
import { startSmtpServer } from "./support/smtp_process.ts";

async function outbox(t: TestApp) {
  return await t.store.db.selectFrom("customer_emails")
    .select(["status", "attempt_count", "last_error", "next_attempt_at", "in_flight"])
    .orderBy("id").execute();
}

/** Runs the e-mail job, lets its attempts finish, then moves the clock past the next wait (1 s, ±10 %). */
async function attemptRound(t: TestApp): Promise<void> {
  await t.services.scheduler.runDue();
  await t.emails.idle();
  t.clock.advance(2_000);
}

async function withSmtp(
  mode: "tempfail" | "permfail" | "slow",
  run: (t: TestApp, smtp: Awaited<ReturnType<typeof startSmtpServer>>) => Promise<void>,
  emails?: EmailSenderOptions,
): Promise<void> {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-smtp-retry-" });
  const smtp = await startSmtpServer(`${dataDir}/received.jsonl`, { mode });
  const t = await makeTestApp({
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: "Kawiarnia Ziarno <sklep@ziarno.example.pl>",
      EMAIL_RETRY_SCHEDULE: "0,1s,1s",
    },
    emails,
  });
  try {
    await t.request("PUT", "/api/v1/business-details", SHOP_DETAILS);
    await paidPayment(t, {}, { customer: { email: "nobody@example.com" } });
    await run(t, smtp);
  } finally {
    await t.close();
    await smtp.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
}

Deno.test("[customer e-mails] a permanent refusal (550) marks the e-mail FAILED at its first attempt, with the server's answer", async () => {
  await withSmtp("permfail", async (t, smtp) => {
    const failed = {
      status: "FAILED",
      attempt_count: 1,
      last_error: "The server answered: 550 5.1.1 Mailbox unavailable",
      next_attempt_at: null,
      in_flight: 0,
    };
    await attemptRound(t);
    assert.deepEqual(await outbox(t), [failed]);
    // Nothing is due any more: more runs make no attempt.
    await attemptRound(t);
    t.clock.advance(86_400_000);
    await attemptRound(t);
    assert.deepEqual(await outbox(t), [failed]);
    assert.equal(await smtp.count(), 0);
  });
});

Deno.test("[customer e-mails] a temporary refusal (451) is tried the schedule's times, then FAILED", async () => {
  await withSmtp("tempfail", async (t, smtp) => {
    const refused = "The server answered: 451 4.3.0 Try again later";
    await attemptRound(t);
    assert.deepEqual(await outbox(t), [{
      status: "PENDING",
      attempt_count: 1,
      last_error: refused,
      next_attempt_at: (await outbox(t))[0].next_attempt_at,
      in_flight: 0,
    }]);
    await attemptRound(t);
    await attemptRound(t);
    const failed = {
      status: "FAILED",
      attempt_count: 3,
      last_error: refused,
      next_attempt_at: null,
      in_flight: 0,
    };
    assert.deepEqual(await outbox(t), [failed]);
    await attemptRound(t);
    t.clock.advance(86_400_000);
    await attemptRound(t);
    assert.deepEqual(await outbox(t), [failed]);
    assert.equal(await smtp.count(), 0);
  });
});

Deno.test("[customer e-mails] no resend while an e-mail waits for its retry: the customer gets the retry only", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-smtp-resend-" });
  const smtp = await startSmtpServer(`${dataDir}/received.jsonl`, { mode: "tempfail" });
  const { t, agent } = await signedInApp({
    role: "OWNER",
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: "Kawiarnia Ziarno <sklep@ziarno.example.pl>",
      EMAIL_RETRY_SCHEDULE: "0,1s,1s",
    },
  });
  try {
    await t.request("PUT", "/api/v1/business-details", SHOP_DETAILS);
    const { paymentId } = await paidPayment(t, {}, { customer: { email: "jan@example.com" } });
    await attemptRound(t);
    const [waiting] = await t.store.db.selectFrom("customer_emails")
      .select(["public_id", "status", "attempt_count"]).execute();
    assert.deepEqual({ ...waiting, public_id: undefined }, {
      public_id: undefined,
      status: "PENDING",
      attempt_count: 1,
    });
    const resend = await agent.post(
      `/panel/payments/${paymentId}/emails/${waiting.public_id}/resend`,
    );
    assert.equal(resend.status, 409);
    await smtp.setMode("accept");
    await attemptRound(t);
    await attemptRound(t);
    assert.deepEqual(
      await t.store.db.selectFrom("customer_emails").select(["status", "attempt_count"]).execute(),
      [{ status: "SENT", attempt_count: 2 }],
    );
    assert.equal(await smtp.count(), 1);
  } finally {
    await t.close();
    await smtp.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[customer e-mails] a crash during the last allowed attempt: FAILED as lost, never sent once more", async () => {
  await withSmtp("tempfail", async (t, smtp) => {
    await attemptRound(t);
    await smtp.setMode("accept");
    // What a kill -9 during the third (last) attempt leaves: leased, in flight, its lease run out.
    await t.store.write((trx) =>
      trx.updateTable("customer_emails")
        .set({ attempt_count: 3, in_flight: 1, next_attempt_at: t.clock.now() - 1 }).execute()
    );
    await attemptRound(t);
    await attemptRound(t);
    assert.deepEqual(await outbox(t), [{
      status: "FAILED",
      attempt_count: 3,
      last_error: "No result was recorded: the process sending this e-mail stopped during " +
        "the attempt. It is sent again with the same Message-ID.",
      next_attempt_at: null,
      in_flight: 0,
    }]);
    assert.equal(await smtp.count(), 0);
  });
});

Deno.test("[customer e-mails] an attempt still being sent past its lease is not claimed again by its own process", async () => {
  await withSmtp("slow", async (t, smtp) => {
    await t.services.scheduler.runDue();
    // The server takes 1.5 s to accept; meanwhile the lease (15 s) runs out before any renewal.
    t.clock.advance(20_000);
    await t.services.scheduler.runDue();
    await t.emails.idle();
    assert.deepEqual(
      await t.store.db.selectFrom("customer_emails").select(["status", "attempt_count"]).execute(),
      [{ status: "SENT", attempt_count: 1 }],
    );
    assert.equal(await smtp.count(), 1);
  });
});

Deno.test("[customer e-mails] a slow attempt's lease is renewed in time: a second process does not send it again", async () => {
  const leaseMs = 900;
  await withSmtp("slow", async (t, smtp) => {
    const other = new CustomerEmailSender(t.services, { leaseMs });
    try {
      await t.services.scheduler.runDue();
      // The server takes 1.5 s; the lease (900 ms) is renewed every 300 ms from the clock's time.
      t.clock.advance(600);
      await new Promise((resolve) => setTimeout(resolve, 700));
      t.clock.advance(400);
      // A second process over the same outbox, after the first lease would have run out.
      await other.job().run(t.clock.now());
      await other.idle();
      await t.emails.idle();
      assert.deepEqual(
        await t.store.db.selectFrom("customer_emails").select(["status", "attempt_count"])
          .execute(),
        [{ status: "SENT", attempt_count: 1 }],
      );
      assert.equal(await smtp.count(), 1);
    } finally {
      await other.stop();
    }
  }, { leaseMs });
});
