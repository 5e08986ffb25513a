import assert from "node:assert/strict";
import { startFakeP24 } from "../fakes/p24/mod.ts";
import {
  basic,
  p24Api,
  p24WithReceiver,
  registerBody,
  registered,
} from "./support/p24_fake_helpers.ts";
import { waitFor } from "./support/payu_fake_helpers.ts";

async function charge(fake: Parameters<typeof registered>[0], code = "777123") {
  const { token, sessionId } = await registered(fake);
  const answer = await p24Api(fake, "POST", "/api/v1/paymentMethod/blik/chargeByCode", {
    token,
    blikCode: code,
  });
  return { token, sessionId, answer };
}

Deno.test("[fake p24 switches] notifications: the BLIK result first, or reordered, duplicated, dropped", async (t) => {
  await t.step("P24's order: BLIK result, then urlStatus", async () => {
    const { fake, received } = p24WithReceiver();
    await charge(fake);
    await fake.idle();
    assert.deepEqual(received.map((n) => n.url.split("/").at(-1)), ["blik", "notify"]);
    fake.close();
  });
  await t.step("reordered: urlStatus first", async () => {
    const { fake, received } = p24WithReceiver({ switches: { reorderNotifications: true } });
    await charge(fake);
    await fake.idle();
    assert.deepEqual(received.map((n) => n.url.split("/").at(-1)), ["notify", "blik"]);
    fake.close();
  });
  await t.step("duplicated: each twice", async () => {
    const { fake, received } = p24WithReceiver({ switches: { duplicateNotifications: true } });
    await charge(fake);
    await fake.idle();
    assert.deepEqual(received.map((n) => n.url.split("/").at(-1)), [
      "blik",
      "blik",
      "notify",
      "notify",
    ]);
    assert.equal(received[2].raw, received[3].raw);
    fake.close();
  });
  await t.step(
    "dropped: nothing sent, recorded as dropped; the lookup still says paid",
    async () => {
      const { fake, received } = p24WithReceiver({ switches: { dropNotifications: true } });
      const { sessionId } = await charge(fake);
      await fake.idle();
      assert.equal(received.length, 0);
      assert.deepEqual(fake.notifications().map((n) => [n.kind, n.outcome]), [
        ["blik", "dropped"],
        ["status", "dropped"],
      ]);
      const lookup = await p24Api(fake, "GET", `/api/v1/transaction/by/sessionId/${sessionId}`);
      assert.equal(lookup.body.data.status, 1);
      fake.close();
    },
  );
  await t.step("a BLIK decision delay: nothing until it passes", async () => {
    const { fake, received } = p24WithReceiver({ switches: { blikDecisionDelayMs: 40 } });
    await charge(fake);
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(received.length, 0);
    assert.equal(fake.transactions()[0].paidAt, null);
    await fake.idle();
    assert.equal(received.length, 2);
    fake.close();
  });
  await t.step("a failed delivery of the BLIK result is tried again until 2xx", async () => {
    const { fake, received, answers } = p24WithReceiver({
      switches: { notifyRetryDelaysMs: [5, 5, 5] },
    });
    answers.push(500, 502);
    await charge(fake, "500500");
    await fake.idle();
    await waitFor(() => received.length === 3);
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(received.length, 3);
    assert.deepEqual(fake.notifications().map((n) => n.answer), [500, 502, 200]);
    fake.close();
  });
});

Deno.test("[fake p24 switches] API errors: 500 or 503 with P24's body, counted down, nothing done", async () => {
  const { fake } = p24WithReceiver({ switches: { apiErrorStatus: 503, apiErrorRemaining: 2 } });
  const body = await registerBody(fake);
  for (let i = 0; i < 2; i++) {
    const answer = await p24Api(fake, "POST", "/api/v1/transaction/register", body);
    assert.equal(answer.status, 503);
    assert.deepEqual(answer.body, { error: "Service unavailable", code: 503 });
  }
  assert.equal(fake.transactions().length, 0);
  assert.equal((await p24Api(fake, "POST", "/api/v1/transaction/register", body)).status, 200);
  fake.set({ apiErrorStatus: 500, apiErrorRemaining: null });
  const failing = await p24Api(fake, "GET", "/api/v1/testAccess");
  assert.equal(failing.status, 500);
  assert.deepEqual(failing.body, { error: "Undefined error", code: 500 });
  fake.close();
});

Deno.test("[fake p24 switches] hanging before or after the work, and slowness after it", async (t) => {
  const fake = await startFakeP24({ switches: { blikDecisionDelayMs: 60_000 } });
  try {
    const call = (path: string, body: unknown, timeoutMs: number) =>
      fetch(`${fake.url}${path}`, {
        method: "POST",
        headers: { authorization: basic(fake), "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    await t.step("before: no answer, nothing registered", async () => {
      fake.set({ hang: "before" });
      await assert.rejects(() => call("/api/v1/transaction/register", {}, 150), /abort|timed out/i);
      assert.equal(fake.transactions().length, 0);
    });
    await t.step("after: no answer, but the code was taken", async () => {
      fake.set({ hang: "off" });
      const body = await registerBody(fake);
      const registeredAnswer = await call("/api/v1/transaction/register", body, 5_000);
      const token = (await registeredAnswer.json()).data.token;
      fake.set({ hang: "after" });
      await assert.rejects(
        () => call("/api/v1/paymentMethod/blik/chargeByCode", { token, blikCode: "777123" }, 150),
        /abort|timed out/i,
      );
      assert.equal(fake.transactions()[0].blik?.code, "777123");
    });
    await t.step("slow: the answer comes late, the charge is recorded first", async () => {
      fake.set({ hang: "off", responseDelayMs: 300 });
      const body = await registerBody(fake);
      const started = call("/api/v1/transaction/register", body, 5_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(fake.transactions().length, 2);
      assert.equal((await started).status, 200);
    });
  } finally {
    await fake.close();
  }
});

Deno.test("[fake p24 switches] refusing connections closes the listener for a while", async () => {
  const fake = await startFakeP24();
  try {
    const refused = await fetch(`${fake.url}/__fake/refuse`, {
      method: "POST",
      body: JSON.stringify({ ms: 300 }),
    });
    assert.deepEqual(await refused.json(), { refusingForMs: 300 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await assert.rejects(
      () => fetch(`${fake.url}/api/v1/testAccess`, { headers: { authorization: basic(fake) } }),
      TypeError,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const back = await fetch(`${fake.url}/api/v1/testAccess`, {
      headers: { authorization: basic(fake) },
    });
    assert.equal(back.status, 200);
    await back.body?.cancel();
  } finally {
    await fake.close();
  }
  const { fake: inProcess } = p24WithReceiver();
  inProcess.refuseFor(60_000);
  await assert.rejects(
    () => inProcess.fetch(new Request("http://127.0.0.1/api/v1/testAccess")),
    /connection refused/,
  );
  inProcess.close();
});

Deno.test("[fake p24 switches] invalid switches are refused, through set() and PATCH", async () => {
  const { fake } = p24WithReceiver();
  assert.throws(() => fake.set({ notifyDelayMs: -1 }), /notifyDelayMs/);
  // deno-lint-ignore no-explicit-any
  assert.throws(() => fake.set({ hang: "sometimes" as any }), /hang/);
  // deno-lint-ignore no-explicit-any
  assert.throws(() => fake.set({ nope: true } as any), /switches|nope/);
  const patch = (body: string) =>
    fake.fetch(new Request("http://127.0.0.1/__fake/switches", { method: "PATCH", body }));
  const bad = await patch('{"apiErrorStatus": 404}');
  assert.equal(bad.status, 400);
  assert.match((await bad.json()).error, /^apiErrorStatus: /);
  const notJson = await patch("{");
  assert.equal(notJson.status, 400);
  await notJson.body?.cancel();
  const good = await patch('{"methods": {"25": {"status": false}}, "feeBasisPoints": 99}');
  assert.equal(good.status, 200);
  const switches = await good.json();
  assert.deepEqual(switches.methods, { "25": { status: false } });
  assert.equal(switches.feeBasisPoints, 99);
  fake.close();
});
