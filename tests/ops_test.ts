import assert from "node:assert/strict";
import { createApiKey } from "../lib/api_keys.ts";
import {
  createOtherOrganisation,
  createTestOffer,
  expectError,
  makeTestApp,
} from "./support/helpers.ts";
import { demoApiKey, startPaystead } from "./support/processes.ts";

Deno.test("[ops] an API key over its rate gets 429 with Retry-After", async () => {
  const app = await makeTestApp({ env: { RATE_LIMIT_PER_SECOND: "3" } });
  try {
    for (let i = 0; i < 3; i++) assert.equal((await app.request("GET", "/api/v1/qr")).status, 200);
    const response = await app.request("GET", "/api/v1/qr");
    assert.equal(response.headers.get("retry-after"), "1");
    await expectError(
      response,
      429,
      "rate_limit",
      "rate_limited",
      "This API key is over its limit of 3 requests per second. Retry after 1 s.",
    );
    // The refused request wrote nothing and the next second is allowed again.
    app.clock.advance(334);
    assert.equal((await app.request("GET", "/api/v1/qr")).status, 200);
    assert.equal((await app.request("GET", "/api/v1/qr")).status, 429);
  } finally {
    await app.close();
  }
});

Deno.test("[ops] an organisation's keys add up to its own rate, with Retry-After", async () => {
  const app = await makeTestApp({
    env: { RATE_LIMIT_PER_SECOND: "3", RATE_LIMIT_PER_ORG_PER_SECOND: "4" },
  });
  try {
    const second = await createApiKey(app.store, {
      orgId: app.orgId,
      name: "second",
      environment: "sandbox",
      now: app.clock.now(),
    });
    const asSecond = () =>
      app.app.request("/api/v1/qr", { headers: { authorization: `Bearer ${second.secret}` } });
    for (let i = 0; i < 3; i++) assert.equal((await app.request("GET", "/api/v1/qr")).status, 200);
    assert.equal((await asSecond()).status, 200);
    // The second key is within its own rate, but the organisation has used its four.
    const response = await asSecond();
    assert.equal(response.headers.get("retry-after"), "1");
    await expectError(
      response,
      429,
      "rate_limit",
      "rate_limited",
      "This organisation's API keys together are over their limit of 4 requests per second. " +
        "Retry after 1 s.",
    );
    // Another organisation's keys are not affected.
    const { key: other } = await createOtherOrganisation(app);
    const elsewhere = await app.app.request("/api/v1/qr", {
      headers: { authorization: `Bearer ${other.secret}` },
    });
    assert.equal(elsewhere.status, 200);
    app.clock.advance(250);
    assert.equal((await asSecond()).status, 200);
    assert.equal((await asSecond()).status, 429);
  } finally {
    await app.close();
  }
});

Deno.test("[ops] public pages and sign-in are limited per client address, behind a trusted proxy too", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const open = (hostname: string, forwardedFor?: string) =>
      app.app.request(`/o/${offer.qrId}`, {
        headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
      }, { remoteAddr: { hostname, port: 40000, transport: "tcp" } });
    for (let i = 0; i < 20; i++) assert.equal((await open("203.0.113.5")).status, 303);
    const limited = await open("203.0.113.5");
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get("retry-after"), "1");
    assert.match(limited.headers.get("content-type") ?? "", /^text\/html/);
    // Another client is not affected; a forged X-Forwarded-For from a direct client is ignored.
    assert.equal((await open("198.51.100.7", "203.0.113.5")).status, 303);
    // Through the local proxy, the address the proxy appended is the client.
    assert.equal((await open("127.0.0.1", "10.9.9.9, 203.0.113.5")).status, 429);
    assert.equal((await open("127.0.0.1", "203.0.113.5, 192.0.2.44")).status, 303);

    // Sign-in shares the address's bucket, which is empty for 203.0.113.5 by now.
    const signIn = await app.app.request("/panel/sign-in", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: "http://sandbox.test",
      },
      body: "email=a%40b.co&password=x",
    }, { remoteAddr: { hostname: "203.0.113.5", port: 40000, transport: "tcp" } });
    assert.equal(signIn.status, 429);
    assert.equal(signIn.headers.get("retry-after"), "1");
  } finally {
    await app.close();
  }
});

Deno.test({
  name:
    "[ops] logs are JSON lines with request ids and never a key, secret, password or payment code",
  sanitizeResources: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "paystead-logs-" });
    const server = await startPaystead(dataDir, { LOG_LEVEL: "debug" });
    try {
      const key = await demoApiKey(server);
      const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
      const call = async (method: string, path: string, body?: unknown, extra = {}) => {
        const response = await fetch(`${server.url}${path}`, {
          method,
          headers: { ...headers, ...extra },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: response.status, body: await response.json() };
      };
      const offer =
        (await call("POST", "/api/v1/qr", { name: "Logs", amount: 100, currency: "PLN" })).body;
      const payment = (await call("POST", "/api/v1/payments", { qrId: offer.qrId })).body;
      const completed = await call("POST", `/api/v1/payments/${payment.paymentId}/complete`, {
        code: "777419",
      });
      assert.equal(completed.body.status, "SUCCEEDED");
      const endpoint =
        (await call("POST", "/api/v1/webhook-endpoints", { url: "http://127.0.0.1:9/hook" })).body;
      assert.match(endpoint.secret, /^whsec_/);
      const rotated = await call("POST", `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`);
      const wrongKey = `sk_sandbox_${"Q".repeat(28)}zz99`;
      const refused = await call("GET", "/api/v1/qr", undefined, {
        authorization: `Bearer ${wrongKey}`,
      });
      assert.equal(refused.status, 401);
      const crashed = await fetch(`${server.url}/pay/${payment.paymentId}`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: "code=500500",
      });
      await crashed.body?.cancel();
      const password = /Password:\s+([0-9A-Za-z]{20})/.exec(server.output())![1];
      const signIn = await fetch(`${server.url}/panel/sign-in`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        body: new URLSearchParams({ email: "owner@demo.paystead.test", password }),
      });
      await signIn.body?.cancel();
      const session = signIn.headers.get("set-cookie")!.split(";")[0].split("=")[1];
      await new Promise((resolve) => setTimeout(resolve, 300));

      const lines = server.logs().split("\n").filter(Boolean);
      const records = lines.map((line) => JSON.parse(line));
      const requests = records.filter((record) => record.message === "request");
      assert.ok(requests.length >= 7, `${requests.length} request lines`);
      for (const record of requests) {
        assert.match(record.requestId, /^req_[0-9A-Za-z]{24}$/);
        assert.equal(typeof record.status, "number");
        assert.equal(typeof record.latencyMs, "number");
        assert.equal(typeof record.route, "string");
        assert.ok(["debug", "info", "warn", "error"].includes(record.level));
      }
      const complete = requests.find((record) => record.path?.endsWith("/complete"));
      assert.equal(complete.route, "/api/v1/payments/:paymentId/complete");
      assert.equal(complete.status, 200);

      const everything = lines.join("\n");
      const secrets = [
        key,
        key.slice("sk_sandbox_".length),
        wrongKey.slice("sk_sandbox_".length),
        endpoint.secret,
        endpoint.secret.slice("whsec_".length),
        rotated.body.secret ?? "",
        password,
        session,
      ].filter(Boolean);
      for (const secret of secrets) assert.ok(!everything.includes(secret), "a secret was logged");
      // Codes are six digits; ids may contain digit runs, so a code counts only on its own.
      assert.doesNotMatch(everything, /(?<![0-9A-Za-z])(777419|500500)(?![0-9A-Za-z])/);
    } finally {
      await server.stop("SIGKILL");
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
