import assert from "node:assert/strict";
import { type ChildServer, startPaystead } from "./support/processes.ts";
import { startSqld } from "./support/sqld.ts";
import { startReceiver } from "./support/webhook_receiver.ts";

async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined>,
  ms = 30_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

Deno.test({
  name:
    "[multi-instance] two processes over one libSQL server share idempotency, webhooks, renewals and sessions",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dir = await Deno.makeTempDir({ prefix: "paystead-sqld-" });
    const accountsDb = await startSqld(`${dir}/accounts`);
    const sandboxDb = await startSqld(`${dir}/sandbox`);
    const receiver = startReceiver();
    const env = {
      DATABASE_URL: sandboxDb.url,
      ACCOUNTS_DATABASE_URL: accountsDb.url,
      WEBHOOK_RETRY_SCHEDULE: "0,200ms,400ms,800ms",
    };
    // Both start at once over empty databases: migrations and the demo organisation must happen once.
    const servers: ChildServer[] = await Promise.all([
      startPaystead(`${dir}/a`, env),
      startPaystead(`${dir}/b`, env),
    ]);
    const [a, b] = servers;
    try {
      const key = await waitFor("the demo key", () => {
        const match = /API key:\s+(sk_sandbox_\w+)/.exec(a.output() + b.output());
        return Promise.resolve(match?.[1]);
      });
      assert.equal((a.output() + b.output()).match(/First start/g)?.length, 1);
      const call = async (
        server: ChildServer,
        method: string,
        path: string,
        body?: unknown,
        headers = {},
      ) => {
        const response = await fetch(`${server.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${key}`,
            "content-type": "application/json",
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: await response.json() };
      };
      const offer =
        (await call(a, "POST", "/api/v1/qr", { name: "Shared", amount: 500, currency: "PLN" }))
          .body;

      await t.step("an Idempotency-Key holds across the two processes", async () => {
        const results = await Promise.all(
          Array.from(
            { length: 20 },
            (_, i) =>
              call(servers[i % 2], "POST", "/api/v1/payments", { qrId: offer.qrId }, {
                "idempotency-key": "shared-1",
              }),
          ),
        );
        const created = results.filter((result) => result.status === 201);
        const inUse = results.filter((result) =>
          result.body.error?.code === "idempotency_key_in_use"
        );
        assert.equal(created.length + inUse.length, 20);
        assert.equal(new Set(created.map((result) => result.body.paymentId)).size, 1);
        const paymentId = created[0].body.paymentId;
        for (const server of servers) {
          const retry = await call(server, "POST", "/api/v1/payments", { qrId: offer.qrId }, {
            "idempotency-key": "shared-1",
          });
          assert.equal(retry.body.paymentId, paymentId);
        }
        const listed = await call(b, "GET", `/api/v1/payments?qrId=${offer.qrId}&limit=100`);
        assert.deepEqual(
          listed.body.data.map((payment: { paymentId: string }) => payment.paymentId),
          [paymentId],
        );
      });

      await t.step("each event is delivered once, whichever process recorded it", async () => {
        const endpoint = await call(a, "POST", "/api/v1/webhook-endpoints", {
          url: receiver.url,
          events: ["payment.created"],
        });
        assert.equal(endpoint.status, 201);
        const webhookOffer =
          (await call(b, "POST", "/api/v1/qr", { name: "Hooks", amount: 100, currency: "PLN" }))
            .body;
        const payments = await Promise.all(
          Array.from(
            { length: 40 },
            (_, i) => call(servers[i % 2], "POST", "/api/v1/payments", { qrId: webhookOffer.qrId }),
          ),
        );
        assert.ok(payments.every((payment) => payment.status === 201));
        const events = (await call(a, "GET", "/api/v1/events?type=payment.created&limit=100")).body
          .data
          .filter((event: { data: { qrId: string } }) => event.data.qrId === webhookOffer.qrId)
          .map((event: { id: string }) => event.id);
        assert.equal(events.length, 40);
        await waitFor(
          "40 deliveries",
          () => Promise.resolve(receiver.received.length >= 40 ? true : undefined),
        );
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const ids = receiver.received.map((request) => request.headers.get("webhook-id"));
        assert.equal(ids.length, 40, "no event was delivered twice");
        assert.deepEqual([...ids].sort(), [...events].sort());
      });

      await t.step("a renewal both processes find due is charged once", async () => {
        const monthly = (await call(a, "POST", "/api/v1/qr", {
          name: "Monthly",
          amount: 900,
          currency: "PLN",
          recurring: { interval: "MONTH" },
        })).body;
        const first = (await call(a, "POST", "/api/v1/payments", { qrId: monthly.qrId })).body;
        const paid = await call(b, "POST", `/api/v1/payments/${first.paymentId}/complete`, {
          code: "777123",
        });
        assert.equal(paid.body.status, "SUCCEEDED");
        const subscription = (await call(a, "GET", "/api/v1/subscriptions")).body.data[0];
        assert.equal(subscription.status, "ACTIVE");
        // Both processes move the clock past the period end and wake their renewal jobs at once.
        await call(a, "POST", "/api/v1/sandbox/clock/advance", { days: 31 });
        await call(b, "POST", "/api/v1/sandbox/clock/advance", { days: 1 });
        const renewed = await waitFor("the renewal", async () => {
          const current =
            (await call(b, "GET", `/api/v1/subscriptions/${subscription.subscriptionId}`)).body;
          return current.currentPeriodEnd !== subscription.currentPeriodEnd ? current : undefined;
        });
        assert.equal(renewed.status, "ACTIVE");
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const charged =
          (await call(a, "GET", `/api/v1/payments?qrId=${monthly.qrId}&status=SUCCEEDED`)).body
            .data;
        assert.equal(charged.length, 2, "the first payment and exactly one renewal");
      });

      await t.step("a panel session started on one process is valid on the other", async () => {
        const password = /Password:\s+([0-9A-Za-z]{20})/.exec(a.output() + b.output())![1];
        const signIn = await fetch(`${a.url}/panel/sign-in`, {
          method: "POST",
          redirect: "manual",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: a.url },
          body: new URLSearchParams({ email: "owner@demo.paystead.test", password }),
        });
        await signIn.body?.cancel();
        assert.equal(signIn.status, 303);
        const cookie = signIn.headers.get("set-cookie")!.split(";")[0];
        assert.match(cookie, /^paystead_session=/);
        const signedOut = await fetch(`${b.url}/panel`, { redirect: "manual" });
        await signedOut.body?.cancel();
        assert.match(signedOut.headers.get("location") ?? "", /^\/panel\/sign-in/);
        const onB = await fetch(`${b.url}/panel`, { redirect: "manual", headers: { cookie } });
        await onB.body?.cancel();
        // Signed in on B too: the demo owner is sent to choose a password, not to sign in.
        assert.doesNotMatch(onB.headers.get("location") ?? "", /sign-in/);
      });

      await t.step(
        "with the libSQL server down, the API answers 503 with Retry-After, not 500",
        async () => {
          await sandboxDb.stop();
          for (
            const [method, path, body] of [
              ["GET", "/api/v1/payments/pay_000000000000000000000000", undefined],
              ["POST", "/api/v1/payments", { qrId: offer.qrId }],
            ] as const
          ) {
            const response = await fetch(`${a.url}${path}`, {
              method,
              headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
              body: body && JSON.stringify(body),
            });
            assert.equal(response.status, 503, `${method} ${path}`);
            assert.equal((await response.json()).error.code, "storage_unavailable");
            assert.equal(response.headers.get("retry-after"), "5");
          }
          const ready = await fetch(`${a.url}/readyz`);
          assert.equal(ready.status, 503);
          await ready.body?.cancel();
        },
      );
    } finally {
      await Promise.all(servers.map((server) => server.stop("SIGKILL")));
      await receiver.close();
      await accountsDb.stop();
      await sandboxDb.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
