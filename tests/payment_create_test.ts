import assert from "node:assert/strict";
import type { Store } from "../db/client.ts";
import type { SqlStatement } from "../db/libsql_dialect.ts";
import { mergeItems } from "../db/mergeable_write.ts";
import { PAYMENT_CREATE, type PaymentCreate } from "../db/payment_create.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { createTestOffer, makeTestApp } from "./support/helpers.ts";

/** The environment store, recording which write path each write took. */
function recordingStore(calls: string[]) {
  let beforeStatements = (_statements: readonly SqlStatement[]): Promise<void> => Promise.resolve();
  const wrap = (store: Store<EnvironmentSchema>): Store<EnvironmentSchema> => ({
    ...store,
    get writable() {
      return store.writable;
    },
    write: (work) => (calls.push("write"), store.write(work)),
    writeVisible: (work) => (calls.push("writeVisible"), store.writeVisible(work)),
    writeStatement: (work) => (calls.push("writeStatement"), store.writeStatement(work)),
    writeStatements: (
      statements,
    ) => (calls.push("writeStatements"), store.writeStatements(statements)),
    writeMergeable: async (kind, input) => {
      calls.push("writeMergeable");
      await beforeStatements(kind.statements([input]));
      return store.writeMergeable(kind, input);
    },
  });
  return {
    wrap,
    setBeforeStatements(action: typeof beforeStatements) {
      beforeStatements = action;
    },
  };
}

async function rowCounts(store: Store<EnvironmentSchema>) {
  const count = async (table: "payments" | "events" | "idempotency_keys") =>
    Number(
      (await store.db.selectFrom(table).select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()).n,
    );
  return {
    payments: await count("payments"),
    events: await count("events"),
    keys: await count("idempotency_keys"),
  };
}

Deno.test("[payment create] a create is one declared write: payment, event and key with its answer", async () => {
  const calls: string[] = [];
  const recording = recordingStore(calls);
  const t = await makeTestApp({ wrapStore: recording.wrap });
  try {
    const offer = await createTestOffer(t);
    calls.length = 0;
    const response = await t.request("POST", "/api/v1/payments", {
      qrId: offer.qrId,
      quantity: 2,
      customer: { email: "Ann@Example.TEST", name: "Ann" },
      metadata: { order: "7" },
    }, { "idempotency-key": "once-1" });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get("content-type"), "application/json");
    assert.equal(response.headers.get("cache-control"), "no-store");
    const text = await response.text();
    assert.deepEqual(calls, ["writeMergeable"]);
    const created = JSON.parse(text);
    assert.equal(created.status, "PENDING");
    assert.equal(created.amount, 2500);
    assert.equal(created.quantity, 2);
    assert.deepEqual(created.customer, { email: "ann@example.test", name: "Ann" });
    assert.deepEqual(created.metadata, { order: "7" });
    assert.equal(created.version, 1);

    // The answer is the payment as GET shows it, the event carries it, the key replays it.
    const fetched = await t.request("GET", `/api/v1/payments/${created.paymentId}`);
    assert.deepEqual(await fetched.json(), created);
    const events = await (await t.request("GET", "/api/v1/events?type=payment.created")).json();
    assert.equal(events.data.length, 1);
    assert.deepEqual(events.data[0].data, created);
    const replay = await t.request("POST", "/api/v1/payments", {
      qrId: offer.qrId,
      quantity: 2,
      customer: { email: "Ann@Example.TEST", name: "Ann" },
      metadata: { order: "7" },
    }, { "idempotency-key": "once-1" });
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.equal(replay.headers.get("content-type"), "application/json");
    assert.equal(await replay.text(), text);
    assert.deepEqual(await rowCounts(t.store), { payments: 1, events: 1, keys: 1 });

    const reused = await t.request("POST", "/api/v1/payments", { qrId: offer.qrId }, {
      "idempotency-key": "once-1",
    });
    assert.equal(reused.status, 409);
    assert.equal((await reused.json()).error.code, "idempotency_key_reused");

    calls.length = 0;
    const keyless = await t.request("POST", "/payments", { qrId: offer.qrId });
    assert.equal(keyless.status, 201);
    assert.deepEqual(calls, ["writeMergeable"]);
    assert.deepEqual(await rowCounts(t.store), { payments: 2, events: 2, keys: 1 });
  } finally {
    await t.close();
  }
});

Deno.test("[payment create] an offer changed between its read and the write: nothing stays, the offer's rules answer", async () => {
  const calls: string[] = [];
  const recording = recordingStore(calls);
  const t = await makeTestApp({ wrapStore: recording.wrap });
  try {
    const offer = await createTestOffer(t);
    const before = await rowCounts(t.store);
    // The test clock stands still: the change lands in the same millisecond as the read.
    recording.setBeforeStatements(async () => {
      recording.setBeforeStatements(() => Promise.resolve());
      const deactivated = await t.request("PATCH", `/api/v1/qr/${offer.qrId}`, { active: false });
      assert.equal(deactivated.status, 200);
    });
    calls.length = 0;
    const response = await t.request("POST", "/api/v1/payments", { qrId: offer.qrId }, {
      "idempotency-key": "changed-1",
    });
    assert.equal(response.status, 409);
    assert.equal((await response.json()).error.code, "offer_inactive");
    // The first write inserted nothing; the offer read again refused; no key was kept.
    assert.deepEqual(calls.filter((call) => call !== "write"), ["writeMergeable"]);
    assert.deepEqual(await rowCounts(t.store), before);
    const again = await t.request("PATCH", `/api/v1/qr/${offer.qrId}`, { active: true });
    assert.equal(again.status, 200);
    const retried = await t.request("POST", "/api/v1/payments", { qrId: offer.qrId }, {
      "idempotency-key": "changed-1",
    });
    assert.equal(retried.status, 201);
    assert.equal(retried.headers.get("idempotent-replayed"), null);
  } finally {
    await t.close();
  }
});

Deno.test("[payment create] concurrent creates with one key: one payment, every other answer replays it", async () => {
  const calls: string[] = [];
  const recording = recordingStore(calls);
  const t = await makeTestApp({ wrapStore: recording.wrap });
  try {
    const offer = await createTestOffer(t);
    const responses = await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          t.request("POST", "/api/v1/payments", { qrId: offer.qrId }, {
            "idempotency-key": "twin",
          }),
      ),
    );
    assert.deepEqual(responses.map((response) => response.status), Array(8).fill(201));
    const replayed = responses.filter((response) =>
      response.headers.get("idempotent-replayed") === "true"
    );
    assert.equal(replayed.length, 7);
    const bodies = new Set(await Promise.all(responses.map((response) => response.text())));
    assert.equal(bodies.size, 1);
    const { payments, keys } = await rowCounts(t.store);
    assert.deepEqual({ payments, keys }, { payments: 1, keys: 1 });
  } finally {
    await t.close();
  }
});

Deno.test("[payment create] what is refused before the write writes nothing", async () => {
  const calls: string[] = [];
  const recording = recordingStore(calls);
  const t = await makeTestApp({ wrapStore: recording.wrap });
  try {
    calls.length = 0;
    const missing = await t.request("POST", "/api/v1/payments", { qrId: "qr_nope" });
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error.param, "qrId");
    const invalid = await t.request("POST", "/api/v1/payments", { qrId: 5 });
    assert.equal(invalid.status, 400);
    const badKey = await t.request("POST", "/api/v1/payments", { qrId: "qr_nope" }, {
      "idempotency-key": "with space",
    });
    assert.equal(badKey.status, 400);
    assert.equal((await badKey.json()).error.param, "Idempotency-Key");
    assert.ok(!calls.includes("writeMergeable"), calls.join());
  } finally {
    await t.close();
  }
});

Deno.test("[payment create] an offer remembered from the last create is checked by the write: a stale one is read again", async () => {
  const calls: string[] = [];
  const recording = recordingStore(calls);
  const t = await makeTestApp({ wrapStore: recording.wrap });
  try {
    const offer = await createTestOffer(t);
    assert.equal((await t.request("POST", "/api/v1/payments", { qrId: offer.qrId })).status, 201);
    const off = await t.request("PATCH", `/api/v1/qr/${offer.qrId}`, { active: false });
    assert.equal(off.status, 200);
    // The offer remembered as active is refused by the write (its updated_at moved on), read
    // again, and its rules answer.
    calls.length = 0;
    const refused = await t.request("POST", "/api/v1/payments", { qrId: offer.qrId });
    assert.equal(refused.status, 409);
    assert.equal((await refused.json()).error.code, "offer_inactive");
    assert.deepEqual(calls, ["writeMergeable"]);
    assert.equal((await rowCounts(t.store)).payments, 1);
    const on = await t.request("PATCH", `/api/v1/qr/${offer.qrId}`, { active: true });
    assert.equal(on.status, 200);
    calls.length = 0;
    const created = await t.request("POST", "/api/v1/payments", { qrId: offer.qrId });
    assert.equal(created.status, 201);
    assert.equal((await created.json()).amount, 1250);
    assert.deepEqual(calls, ["writeMergeable"]);
    // Remembered now: the next create writes at once, and its payment is the offer's.
    calls.length = 0;
    const again = await t.request("POST", "/api/v1/payments", { qrId: offer.qrId });
    assert.equal(again.status, 201);
    assert.deepEqual(calls, ["writeMergeable"]);
    assert.equal((await rowCounts(t.store)).payments, 3);
  } finally {
    await t.close();
  }
});

Deno.test("[payment create] creates sharing statements each happen whole or not at all, as alone", async () => {
  const t = await makeTestApp();
  try {
    const offer = await createTestOffer(t);
    const taken = await t.request("POST", "/api/v1/payments", { qrId: offer.qrId }, {
      "idempotency-key": "taken",
    });
    assert.equal(taken.status, 201);
    const row = await t.store.db.selectFrom("offers").select(["id", "org_id", "updated_at"])
      .where("public_id", "=", offer.qrId).executeTakeFirstOrThrow();
    const create = (name: string, key?: string, offerRow = row): PaymentCreate => ({
      payment: {
        public_id: `pay_${name}`,
        org_id: row.org_id,
        offer_id: row.id,
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
        expires_at: 2,
        processing_deadline_at: null,
        created_at: 1,
        updated_at: 1,
        locale: null,
        invoice_company_name: null,
        invoice_tax_id: null,
        payment_methods: null,
        attempt_id: null,
        payment_method: null,
        bank: null,
        provider: null,
        customer_language: null,
      },
      offer: offerRow,
      event: {
        public_id: `evt_${name}`,
        org_id: row.org_id,
        type: "payment.created",
        payload: `{"paymentId":"pay_${name}"}`,
        created_at: 1,
      },
      key: key === undefined ? undefined : {
        key,
        fingerprint: "f",
        lockedUntil: 3,
        status: 201,
        contentType: "application/json",
        body: `answer ${name}`,
        createdAt: 1,
      },
    });
    const creates = [
      create("a", "key-a"),
      create("b"),
      create("c", "key-c", { ...row, updated_at: row.updated_at - 1 }),
      create("d", "taken"),
      create("e", "key-a"),
    ];
    const groups = mergeItems(creates.map((input) => ({ kind: PAYMENT_CREATE, input })));
    // The second create under key-a waits for a turn of its own, after the first.
    assert.deepEqual(groups.map((group) => group.members), [[0, 1, 2, 3], [4]]);
    const ids = [];
    for (const { members, statements } of groups) {
      const inputs = members.map((index) => creates[index]);
      ids.push(...PAYMENT_CREATE.results(inputs, await t.store.writeStatements(statements)));
    }
    const payments = await t.store.db.selectFrom("payments").select(["id", "public_id"])
      .orderBy("id").execute();
    const byName = new Map(payments.map((payment) => [payment.public_id, payment.id]));
    // a and b happened; c (the offer moved on), d (its key was there) and e (a took its key) not.
    assert.deepEqual(ids, [byName.get("pay_a"), byName.get("pay_b"), null, null, null]);
    assert.deepEqual(
      payments.slice(1).map((payment) => payment.public_id),
      ["pay_a", "pay_b"],
    );
    const events = await t.store.db.selectFrom("events").select("public_id").orderBy("id")
      .execute();
    assert.deepEqual(events.slice(1).map((event) => event.public_id), ["evt_a", "evt_b"]);
    const keys = await t.store.db.selectFrom("idempotency_keys")
      .select(["key", "status", "response_body"]).orderBy("id").execute();
    assert.deepEqual(keys.slice(1), [
      { key: "key-a", status: "COMPLETED", response_body: "answer a" },
    ]);
  } finally {
    await t.close();
  }
});
