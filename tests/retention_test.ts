import assert from "node:assert/strict";
import { sql } from "kysely";
import { webhookLogRetentionJob } from "../lib/ops/retention.ts";
import { makeTestApp, type TestApp } from "./support/helpers.ts";

const DAY_MS = 86_400_000;
let serial = 0;

/** An endpoint (disabled, so nothing is sent) to hang deliveries on. */
async function disabledEndpoint(t: TestApp): Promise<number> {
  const now = t.clock.now();
  const row = await t.store.write((trx) =>
    trx.insertInto("webhook_endpoints").values({
      public_id: `we_retention${serial++}`,
      org_id: t.orgId,
      url: "https://receiver.example/hook",
      event_types: '["*"]',
      enabled: 0,
      disabled_reason: "MANUAL",
      disabled_at: now,
      secret: "whsec_test",
      events_after_id: 0,
      created_at: now,
      updated_at: now,
    }).returning("id").executeTakeFirstOrThrow()
  );
  return row.id;
}

/** One event with `count` deliveries of `status`, each with one attempt of about 1 KiB. */
async function deliveries(
  t: TestApp,
  endpointId: number,
  count: number,
  status: string,
): Promise<string[]> {
  const now = t.clock.now();
  const ids: string[] = [];
  await t.store.write(async (trx) => {
    const event = await trx.insertInto("events").values({
      public_id: `evt_retention${serial++}`,
      org_id: t.orgId,
      type: "payment.created",
      payload: "{}",
      created_at: now,
    }).returning("id").executeTakeFirstOrThrow();
    for (let i = 0; i < count; i++) {
      const pending = status === "PENDING";
      ids.push(`whd_retention${serial}`);
      const delivery = await trx.insertInto("webhook_deliveries").values({
        public_id: `whd_retention${serial++}`,
        org_id: t.orgId,
        event_id: event.id,
        endpoint_id: endpointId,
        triggered_by: "RESEND",
        status,
        attempt_count: 1,
        in_flight: 0,
        next_attempt_at: pending ? now + 60_000 : null,
        created_at: now,
        updated_at: now,
        completed_at: pending ? null : now,
      }).returning("id").executeTakeFirstOrThrow();
      await trx.insertInto("webhook_attempts").values({
        delivery_id: delivery.id,
        number: 1,
        url: "https://receiver.example/hook",
        started_at: now,
        duration_ms: 12,
        succeeded: status === "SUCCEEDED" ? 1 : 0,
        response_status: status === "SUCCEEDED" ? 200 : 500,
        response_body: "x".repeat(1024),
      }).execute();
    }
  });
  return ids;
}

async function counts(t: TestApp) {
  const count = async (table: "webhook_deliveries" | "webhook_attempts" | "events") =>
    Number(
      (await t.store.db.selectFrom(table).select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()).n,
    );
  return {
    deliveries: await count("webhook_deliveries"),
    attempts: await count("webhook_attempts"),
    events: await count("events"),
  };
}

Deno.test("[retention] finished deliveries older than the retention go in batches; the rest stays", async () => {
  const t = await makeTestApp({ env: { WEBHOOK_LOG_RETENTION_DAYS: "7" } });
  try {
    assert.equal(t.config.webhookLogRetentionDays, 7);
    const endpoint = await disabledEndpoint(t);
    // 1,203 old finished deliveries: more than two batches of 500.
    await deliveries(t, endpoint, 1200, "SUCCEEDED");
    await deliveries(t, endpoint, 3, "FAILED");
    const pending = await deliveries(t, endpoint, 4, "PENDING");
    t.clock.advance(7 * DAY_MS + 1);
    const recent = await deliveries(t, endpoint, 5, "SUCCEEDED");
    assert.deepEqual(await counts(t), { deliveries: 1212, attempts: 1212, events: 4 });

    const job = webhookLogRetentionJob(t.store, t.clock, t.config.webhookLogRetentionDays);
    const next = await job.run(t.clock.now());
    assert.equal(next, t.clock.now() + 3_600_000);
    // Pending deliveries and every event are kept, however old.
    assert.deepEqual(await counts(t), { deliveries: 9, attempts: 9, events: 4 });
    // (The dispatcher cancels the pending ones, as their endpoint is disabled: today, so they stay.)
    const left = await t.store.db.selectFrom("webhook_deliveries").select("public_id")
      .orderBy("id").execute();
    assert.deepEqual(left.map((row) => row.public_id), [...pending, ...recent]);
  } finally {
    await t.close();
  }
});

Deno.test("[retention] under a steady load the webhook log and the file stop growing", async () => {
  const t = await makeTestApp();
  try {
    assert.equal(t.config.webhookLogRetentionDays, 30);
    const endpoint = await disabledEndpoint(t);
    const job = webhookLogRetentionJob(t.store, t.clock, t.config.webhookLogRetentionDays);
    const pages = async () =>
      Number(
        (await sql<{ page_count: number }>`PRAGMA page_count`.execute(t.store.db)).rows[0]
          .page_count,
      );
    const daily: { deliveries: number; pages: number }[] = [];
    for (let day = 0; day < 70; day++) {
      await deliveries(t, endpoint, 100, "SUCCEEDED");
      await job.run(t.clock.now());
      daily.push({ deliveries: (await counts(t)).deliveries, pages: await pages() });
      t.clock.advance(DAY_MS);
    }
    // Thirty-one days of deliveries are kept (today's and the thirty before it), then no more.
    assert.equal(daily[29].deliveries, 3000);
    for (const day of daily.slice(30)) assert.equal(day.deliveries, 3100);
    // Deleted pages are reused: the file is no larger on day 70 than on day 40.
    assert.ok(daily[69].pages <= daily[39].pages, `${daily[39].pages} -> ${daily[69].pages}`);
    assert.equal((await counts(t)).events, 70);
  } finally {
    await t.close();
  }
});
