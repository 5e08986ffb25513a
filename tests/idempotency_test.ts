import assert from "node:assert/strict";
import { insertIdempotencyKey } from "../db/idempotency_keys.ts";
import { claimKey, IdempotentRequest, requestFingerprint } from "../lib/idempotency.ts";
import { createOffer } from "../lib/offers.ts";
import { orgContextOnClock } from "../lib/sandbox_clock.ts";
import type { AuthorizationAnswer, AuthorizationRequest } from "../lib/providers/mod.ts";
import { SandboxProvider } from "../lib/providers/sandbox.ts";
import {
  createOtherOrganisation,
  createTestOffer,
  createTestPayment,
  expectError,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";
import { type FailingStore, failingStore } from "./support/failing_store.ts";

function post(app: TestApp, path: string, body: unknown, key: string) {
  return app.request("POST", path, body, { "idempotency-key": key });
}

async function paymentCount(app: TestApp): Promise<number> {
  const row = await app.store.db.selectFrom("payments").select((eb) =>
    eb.fn.countAll<number>().as("n")
  )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

Deno.test("[idempotency] the same request is replayed with Idempotent-Replayed", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const first = await post(app, "/api/v1/payments", { qrId: offer.qrId, quantity: 2 }, "order-1");
    assert.equal(first.status, 201);
    assert.equal(first.headers.get("idempotent-replayed"), null);
    const firstBody = await first.text();

    app.clock.advance(60_000);
    // The same parameters in another order are the same request.
    const again = await app.request(
      "POST",
      "/api/v1/payments",
      '{"quantity":2,"qrId":"' + offer.qrId + '"}',
      {
        "idempotency-key": "order-1",
        "content-type": "application/json",
      },
    );
    assert.equal(again.status, 201);
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    assert.equal(again.headers.get("content-type"), "application/json");
    assert.equal(await again.text(), firstBody);
    assert.notEqual(again.headers.get("request-id"), first.headers.get("request-id"));
    assert.equal(await paymentCount(app), 1);
    const events = await (await app.request("GET", "/api/v1/events")).json();
    assert.equal(events.data.length, 1);
  } finally {
    await app.close();
  }
});

Deno.test("[idempotency] a key reused for another request is 409", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    assert.equal((await post(app, "/api/v1/payments", { qrId: offer.qrId }, "k")).status, 201);
    const message =
      "This Idempotency-Key was used with a different request; use a new key for a new request.";
    await expectError(
      await post(app, "/api/v1/payments", { qrId: offer.qrId, quantity: 2 }, "k"),
      409,
      "conflict",
      "idempotency_key_reused",
      message,
    );
    await expectError(
      await post(app, "/api/v1/qr", { name: "x", amount: 1, currency: "PLN" }, "k"),
      409,
      "conflict",
      "idempotency_key_reused",
      message,
    );
    assert.equal(await paymentCount(app), 1);
  } finally {
    await app.close();
  }
});

Deno.test("[idempotency] a request still running makes the key 409 in use", async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  class SlowProvider extends SandboxProvider {
    override async authorize(request: AuthorizationRequest): Promise<AuthorizationAnswer> {
      await held;
      return super.authorize(request);
    }
  }
  const app = await makeTestApp({ provider: new SlowProvider() });
  try {
    const offer = await createTestOffer(app);
    const payment = await createTestPayment(app, offer.qrId);
    const path = `/api/v1/payments/${payment.paymentId}/complete`;
    const first = post(app, path, { code: "777123" }, "pay-1");
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expectError(
      await post(app, path, { code: "777123" }, "pay-1"),
      409,
      "conflict",
      "idempotency_key_in_use",
      "A request with this Idempotency-Key is still running; retry after it finishes.",
    );
    release();
    const done = await first;
    assert.equal(done.status, 200);
    const body = await done.json();
    assert.equal(body.status, "SUCCEEDED");
    const replay = await post(app, path, { code: "777123" }, "pay-1");
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.deepEqual(await replay.json(), body);
  } finally {
    release();
    await app.close();
  }
});

Deno.test("[idempotency] no 2xx is heard for a write whose commit fails after its response is ready", async () => {
  let store!: FailingStore;
  const app = await makeTestApp({ wrapStore: (real) => (store = failingStore(real)) });
  try {
    const offer = await createTestOffer(app);
    const payment = await createTestPayment(app, offer.qrId);
    // Write 1 claims the key; write 2 cancels the payment, waits for the rendered 200, stores it
    // with the key, and then its commit fails. (A create is one declared write with its answer:
    // see payment_create_at_once_test.ts and storage_failure_test.ts.)
    let writes = 0;
    store.setFailing(() => ++writes === 2);
    const response = await post(
      app,
      `/api/v1/payments/${payment.paymentId}/cancel`,
      undefined,
      "late-failure",
    );
    await expectError(response, 503, "api", "storage_unavailable");
    assert.equal(
      (await (await app.request("GET", `/api/v1/payments/${payment.paymentId}`)).json())
        .status,
      "PENDING",
    );
    const events = await app.store.db.selectFrom("events").select("type").execute();
    assert.deepEqual(events, [{ type: "payment.created" }]);
  } finally {
    await app.close();
  }
});

Deno.test("[idempotency] 50 concurrent identical requests create exactly one payment", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const responses = await Promise.all(
      Array.from(
        { length: 50 },
        () => post(app, "/api/v1/payments", { qrId: offer.qrId }, "burst"),
      ),
    );
    const bodies = await Promise.all(responses.map((response) => response.json()));
    const created = responses.filter((response) => response.status === 201);
    const inUse = bodies.filter((body) => body.error?.code === "idempotency_key_in_use");
    assert.ok(created.length >= 1);
    assert.equal(created.length + inUse.length, 50);
    const ids = new Set(bodies.filter((body) => body.paymentId).map((body) => body.paymentId));
    assert.equal(ids.size, 1);
    assert.equal(await paymentCount(app), 1);
    // Once the first has finished, every retry is a replay of it.
    const retry = await post(app, "/api/v1/payments", { qrId: offer.qrId }, "burst");
    assert.equal(retry.status, 201);
    assert.equal((await retry.json()).paymentId, [...ids][0]);
    assert.equal(await paymentCount(app), 1);
  } finally {
    await app.close();
  }
});

Deno.test("[idempotency] failed requests are not stored, so the key can be used again", async (t) => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    await t.step("a validation failure", async () => {
      await expectError(
        await post(app, "/api/v1/payments", { qrId: offer.qrId, quantity: 0 }, "v"),
        400,
        "invalid_request",
        "parameter_invalid",
      );
      assert.equal((await post(app, "/api/v1/payments", { qrId: offer.qrId }, "v")).status, 201);
    });
    await t.step("a 404 that changed nothing", async () => {
      await expectError(
        await post(app, "/api/v1/payments", { qrId: "qr_nope" }, "n"),
        404,
        "not_found",
        "resource_not_found",
      );
      assert.equal((await post(app, "/api/v1/payments", { qrId: offer.qrId }, "n")).status, 201);
    });
    await t.step("a malformed body", async () => {
      await expectError(
        await post(app, "/api/v1/payments", "{nope", "m"),
        400,
        "invalid_request",
        "invalid_json",
      );
      assert.equal((await post(app, "/api/v1/payments", { qrId: offer.qrId }, "m")).status, 201);
    });
    const keys = await app.store.db.selectFrom("idempotency_keys").select(["key", "status"])
      .orderBy("key")
      .execute();
    assert.deepEqual(keys, [
      { key: "m", status: "COMPLETED" },
      { key: "n", status: "COMPLETED" },
      { key: "v", status: "COMPLETED" },
    ]);
  } finally {
    await app.close();
  }
});

Deno.test("[idempotency] a request that answers 4xx after its write keeps nothing of it", async (t) => {
  // No route refuses after writing today; the key's contract must still hold when one does, so
  // this runs a real service's write under the key exactly as `answered` does.
  const app = await makeTestApp();
  try {
    const body = { name: "Tea", amount: 900, currency: "PLN" };
    const fingerprint = requestFingerprint("POST", "/api/v1/qr", body);
    const offerCount = async () =>
      (await (await app.request("GET", "/api/v1/qr")).json()).data.length;
    for (const status of [400, 404, 409, 422]) {
      await t.step(`${status}`, async () => {
        const key = `refused-${status}`;
        const before = await offerCount();
        const claim = await claimKey(app.store, {
          orgId: app.orgId,
          key,
          fingerprint,
          at: app.clock.now(),
        });
        const request = new IdempotentRequest(app.store, claim);
        const ctx = await orgContextOnClock(app.services, app.orgId);
        const written = await createOffer({ ...ctx, write: request.write }, body);
        assert.match(written.public_id, /^qr_/);
        await request.finish({
          status,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "refused_after_writing" } }),
        });
        assert.equal(await offerCount(), before);
        // The key is free again: a retry runs the request instead of replaying the refusal.
        const retry = await post(app, "/api/v1/qr", body, key);
        assert.equal(retry.status, 201);
        assert.equal(retry.headers.get("idempotent-replayed"), null);
        assert.equal(await offerCount(), before + 1);
      });
    }
  } finally {
    await app.close();
  }
});

Deno.test("[idempotency] a key abandoned by a crashed request is taken over after its lease", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const body = { qrId: offer.qrId };
    // What a process killed mid-request leaves: the claim, and (atomically) no payment.
    await app.store.write((trx) =>
      insertIdempotencyKey(trx, {
        org_id: app.orgId,
        key: "crashed",
        fingerprint: requestFingerprint("POST", "/api/v1/payments", body),
        locked_until: app.clock.now() + 60_000,
        created_at: app.clock.now(),
      })
    );
    await expectError(
      await post(app, "/api/v1/payments", body, "crashed"),
      409,
      "conflict",
      "idempotency_key_in_use",
    );
    app.clock.advance(60_000);
    const response = await post(app, "/api/v1/payments", body, "crashed");
    assert.equal(response.status, 201);
    const replay = await post(app, "/api/v1/payments", body, "crashed");
    assert.equal(replay.headers.get("idempotent-replayed"), "true");
    assert.equal(await paymentCount(app), 1);
  } finally {
    await app.close();
  }
});

Deno.test("[idempotency] keys are per organisation and kept 24 hours", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    assert.equal((await post(app, "/api/v1/payments", { qrId: offer.qrId }, "shared")).status, 201);

    const { key: key } = await createOtherOrganisation(app);
    const asOther = await app.app.request("/api/v1/qr", {
      method: "POST",
      headers: {
        authorization: `Bearer ${key.secret}`,
        "content-type": "application/json",
        "idempotency-key": "shared",
      },
      body: JSON.stringify({ name: "Globex tea", amount: 300, currency: "EUR" }),
    });
    assert.equal(asOther.status, 201);
    assert.equal(asOther.headers.get("idempotent-replayed"), null);

    app.clock.advance(24 * 3_600_000 - 1);
    assert.equal(
      (await post(app, "/api/v1/payments", { qrId: offer.qrId, quantity: 5 }, "shared")).status,
      409,
    );
    app.clock.advance(1);
    const reused = await post(app, "/api/v1/payments", { qrId: offer.qrId, quantity: 5 }, "shared");
    assert.equal(reused.status, 201);
    assert.equal((await reused.json()).quantity, 5);

    app.clock.advance(24 * 3_600_000);
    await app.services.scheduler.runAll();
    assert.equal(
      (await app.store.db.selectFrom("idempotency_keys").select("key").execute()).length,
      0,
    );
  } finally {
    await app.close();
  }
});

Deno.test("[idempotency] a malformed key is 400", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    for (const key of ["x".repeat(256), "has space", "tab\there"]) {
      const error = await expectError(
        await post(app, "/api/v1/payments", { qrId: offer.qrId }, key),
        400,
        "invalid_request",
        "parameter_invalid",
        "Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.",
      );
      assert.equal(error.error.param, "Idempotency-Key");
    }
    assert.equal(await paymentCount(app), 0);
  } finally {
    await app.close();
  }
});
