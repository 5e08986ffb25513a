import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../lib/config.ts";
import {
  type HostResolver,
  isLoopbackHost,
  webhookTargetPolicy,
} from "../lib/webhooks/address_policy.ts";
import { createTestOffer, createTestPayment, expectError, makeTestApp } from "./support/helpers.ts";
import {
  createTestEndpoint,
  deliveriesOf,
  eventsOfType,
  startReceiver,
} from "./support/webhook_receiver.ts";

/** A sandbox served at `publicUrl`, as an operator would configure it. */
function sandboxEnv(publicUrl: string, allowPrivate?: string): Record<string, string> {
  return {
    PUBLIC_URL: publicUrl,
    SANDBOX_PUBLIC_URL: publicUrl,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: allowPrivate ?? "false",
  };
}

Deno.test("[webhooks] a sandbox served beyond loopback follows production's address policy", () => {
  const policy = (env: Record<string, string>) => webhookTargetPolicy(loadConfig(env));
  assert.equal(policy({}), null, "deno task start: http://localhost:8787");
  for (const url of ["http://localhost:8787", "http://127.0.0.1:9000", "http://[::1]:8787"]) {
    assert.equal(policy(sandboxEnv(url)), null, url);
  }
  assert.equal(policy(sandboxEnv("http://shop.localhost:8787")), null);
  for (const url of ["https://sandbox.shop.example", "http://192.168.1.10:8787"]) {
    assert.equal(policy(sandboxEnv(url)), "public_sandbox", url);
    assert.equal(policy(sandboxEnv(url, "true")), null, `${url}, private targets allowed`);
  }
  assert.equal(
    policy({ PAYSTEAD_ENV: "production", PUBLIC_URL: "http://localhost:8788" }),
    "production",
  );
  for (const host of ["127.8.9.10", "::ffff:127.0.0.1", "LOCALHOST"]) {
    assert.equal(isLoopbackHost(host), true, host);
  }
  for (const host of ["10.0.0.1", "::2", "localhost.example", "0.0.0.0"]) {
    assert.equal(isLoopbackHost(host), false, host);
  }
});

Deno.test("[config] WEBHOOK_ALLOW_PRIVATE_TARGETS is true or false, and never in production", () => {
  assert.equal(loadConfig({}).webhookAllowPrivateTargets, false);
  assert.equal(
    loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }).webhookAllowPrivateTargets,
    true,
  );
  assert.throws(
    () => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "yes" }),
    new ConfigError(
      'Invalid configuration: WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false (got "yes").',
    ),
  );
  assert.throws(
    () => loadConfig({ PAYSTEAD_ENV: "production", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }),
    new ConfigError(
      "Invalid configuration: WEBHOOK_ALLOW_PRIVATE_TARGETS=true is for a sandbox only; " +
        "production webhooks always go to public https addresses.",
    ),
  );
  assert.equal(
    loadConfig({ PAYSTEAD_ENV: "production", WEBHOOK_ALLOW_PRIVATE_TARGETS: "false" })
      .webhookAllowPrivateTargets,
    false,
  );
});

Deno.test("[webhooks] a public sandbox refuses private targets at registration and at every attempt", async (t) => {
  const dns: Record<string, string[]> = {
    "hooks.example": ["93.184.216.34"],
    "metadata.example": ["169.254.169.254"],
  };
  const resolveHost: HostResolver = (host) => Promise.resolve(dns[host] ?? []);
  const app = await makeTestApp({
    env: sandboxEnv("https://sandbox.shop.example"),
    resolveHost,
  });
  const register = (url: string) => app.request("POST", "/api/v1/webhook-endpoints", { url });
  try {
    const refused: [string, string][] = [
      [
        "http://127.0.0.1:8080/h",
        "'url': must be an https:// URL in a sandbox served beyond this machine.",
      ],
      [
        "https://169.254.169.254/latest/meta-data",
        "'url': must not point at a loopback, private, link-local or reserved address in a " +
        "sandbox served beyond this machine.",
      ],
      [
        "https://metadata.example/h",
        "'url': metadata.example resolves to 169.254.169.254, which is not a public address. " +
        "Webhooks in a sandbox served beyond this machine go only to public addresses.",
      ],
    ];
    for (const [url, message] of refused) {
      await t.step(url, async () => {
        const body = await expectError(
          await register(url),
          400,
          "invalid_request",
          "parameter_invalid",
          message,
        );
        assert.equal(body.error.param, "url");
      });
    }
    await t.step("a public host is accepted; repointed at loopback, nothing is sent", async () => {
      const receiver = startReceiver();
      try {
        const response = await register("https://hooks.example/h");
        assert.equal(response.status, 201);
        dns["hooks.example"] = ["127.0.0.1"];
        const offer = await createTestOffer(app);
        await createTestPayment(app, offer.qrId);
        await app.webhooks.idle();
        const [event] = await eventsOfType(app, "payment.created");
        const [delivery] = await deliveriesOf(app, event.id);
        const [attempt] = delivery.attempts as Record<string, unknown>[];
        assert.equal(attempt.errorCode, "address_not_allowed");
        assert.equal(
          attempt.errorMessage,
          "hooks.example resolves to 127.0.0.1, which is not a public address.",
        );
        assert.equal(receiver.received.length, 0);
      } finally {
        await receiver.close();
      }
    });
  } finally {
    await app.close();
  }
});

Deno.test("[webhooks] a sandbox on localhost, or allowed private targets, delivers to 127.0.0.1", async (t) => {
  const settings: [string, Record<string, string>][] = [
    ["PUBLIC_URL on localhost", sandboxEnv("http://localhost:8787")],
    ["WEBHOOK_ALLOW_PRIVATE_TARGETS=true", sandboxEnv("https://sandbox.shop.example", "true")],
  ];
  for (const [name, env] of settings) {
    await t.step(name, async () => {
      const receiver = startReceiver();
      const app = await makeTestApp({ env, resolveHost: () => Promise.resolve([]) });
      try {
        const endpoint = await createTestEndpoint(app, { url: receiver.url });
        assert.equal(endpoint.url, receiver.url);
        const offer = await createTestOffer(app);
        await createTestPayment(app, offer.qrId);
        await app.webhooks.idle();
        assert.equal(receiver.received.length, 1);
        assert.equal(JSON.parse(receiver.received[0].body).type, "payment.created");
      } finally {
        await app.close();
        await receiver.close();
      }
    });
  }
});
