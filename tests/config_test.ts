import assert from "node:assert/strict";
import { openStore } from "../db/client.ts";
import type { AccountsSchema, EnvironmentSchema } from "../db/schema.ts";
import { ManualClock } from "../lib/clock.ts";
import { ConfigError, loadConfig, parseDurationList, requireProvider } from "../lib/config.ts";
import { silentLogger } from "../lib/log.ts";
import { providerFromConfig } from "../lib/providers/from_config.ts";
import { PayuProvider } from "../lib/providers/payu/provider.ts";
import { SandboxProvider } from "../lib/providers/sandbox.ts";
import { createApp } from "../routes/app.ts";
import { PAYU_TEST_ENV, runCli } from "./support/processes.ts";

Deno.test("[config] defaults describe a local sandbox", () => {
  const config = loadConfig({});
  assert.equal(config.environment, "sandbox");
  assert.equal(config.port, 8787);
  assert.equal(config.databaseUrl, "file:./data/sandbox.db");
  assert.equal(config.accountsDatabaseUrl, "file:./data/accounts.db");
  assert.equal(config.publicUrl, "http://localhost:8787");
  assert.equal(config.productionPublicUrl, "http://localhost:8788");
  assert.equal(config.quickstartAccess, "role");
  assert.equal(config.rateLimitPerSecond, 100);
  assert.equal(config.rateLimitPerOrgPerSecond, 300);
  assert.equal(loadConfig({ RATE_LIMIT_PER_SECOND: "7" }).rateLimitPerOrgPerSecond, 21);
  assert.equal(
    loadConfig({ RATE_LIMIT_PER_ORG_PER_SECOND: "150" }).rateLimitPerOrgPerSecond,
    150,
  );
});

Deno.test("[config] production defaults to its own port, file and the contract's retry schedule", () => {
  const config = loadConfig({ PAYSTEAD_ENV: "production", DATA_DIR: "/srv/paystead/" });
  assert.equal(config.port, 8788);
  assert.equal(config.databaseUrl, "file:/srv/paystead/production.db");
  assert.deepEqual(config.webhookRetryScheduleMs, [
    0,
    5_000,
    300_000,
    1_800_000,
    7_200_000,
    18_000_000,
    36_000_000,
    50_400_000,
    72_000_000,
    86_400_000,
  ]);
});

Deno.test("[config] flags override variables", () => {
  const config = loadConfig({ PAYSTEAD_ENV: "sandbox", PORT: "9000" }, {
    env: "production",
    port: "9100",
    dataDir: "/tmp/x",
  });
  assert.equal(config.environment, "production");
  assert.equal(config.port, 9100);
  assert.equal(config.databaseUrl, "file:/tmp/x/production.db");
});

Deno.test("[config] a bad value stops start-up with one line naming the variable", async (t) => {
  const cases: [Record<string, string>, string][] = [
    [
      { PORT: "abc" },
      'Invalid configuration: PORT must be a whole number between 1 and 65535 (got "abc").',
    ],
    [
      { PORT: "70000" },
      'Invalid configuration: PORT must be a whole number between 1 and 65535 (got "70000").',
    ],
    [
      { PAYSTEAD_ENV: "staging" },
      'Invalid configuration: PAYSTEAD_ENV must be sandbox or production (got "staging").',
    ],
    [
      { QUICKSTART_ACCESS: "all" },
      'Invalid configuration: QUICKSTART_ACCESS must be plan or role (got "all").',
    ],
    [
      { DATABASE_URL: "postgres://x" },
      'Invalid configuration: DATABASE_URL must start with file:, http://, https://, libsql:// or ws(s):// (got "postgres://x").',
    ],
    [
      { PUBLIC_URL: "localhost:8787" },
      'Invalid configuration: PUBLIC_URL must be an absolute http:// or https:// URL without a query (got "localhost:8787").',
    ],
    [
      { RATE_LIMIT_PER_SECOND: "0" },
      'Invalid configuration: RATE_LIMIT_PER_SECOND must be a positive whole number (got "0").',
    ],
    [
      { RATE_LIMIT_PER_ORG_PER_SECOND: "many" },
      'Invalid configuration: RATE_LIMIT_PER_ORG_PER_SECOND must be a positive whole number (got "many").',
    ],
    [
      { LOG_LEVEL: "loud" },
      'Invalid configuration: LOG_LEVEL must be debug, info, warn or error (got "loud").',
    ],
    [
      { WEBHOOK_RETRY_SCHEDULE: "1x" },
      'Invalid configuration: WEBHOOK_RETRY_SCHEDULE must be a comma-separated list of durations such as 0,5s,5m,2h (at most 50, each up to 7 days) (got "1x").',
    ],
  ];
  for (const [env, message] of cases) {
    await t.step(Object.keys(env)[0], () => {
      assert.throws(() => loadConfig(env), (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.message, message);
        assert.ok(!error.message.includes("\n"));
        return true;
      });
    });
  }
});

Deno.test("[config] retry schedules parse units", () => {
  assert.deepEqual(parseDurationList("0, 5s,250ms,2m,1h,3"), [
    0,
    5000,
    250,
    120_000,
    3_600_000,
    3000,
  ]);
  assert.equal(parseDurationList("5s,,1m"), null);
  assert.equal(parseDurationList("8d"), null);
});

Deno.test("[config] the payment provider: the simulator in the sandbox, PayU wherever named", () => {
  assert.deepEqual(loadConfig({}).paymentProvider, { kind: "sandbox" });
  const payu = loadConfig({
    PAYSTEAD_ENV: "production",
    PAYMENT_PROVIDER: "payu",
    PAYU_POS_ID: "300746",
    PAYU_CLIENT_ID: "300746",
    PAYU_CLIENT_SECRET: "secret",
    PAYU_SECOND_KEY: "second",
  });
  assert.deepEqual(payu.paymentProvider, {
    kind: "payu",
    apiUrl: "https://secure.payu.com",
    posId: "300746",
    clientId: "300746",
    clientSecret: "secret",
    secondKey: "second",
  });
  assert.deepEqual(requireProvider(payu), payu.paymentProvider);
  const sandboxOnPayu = loadConfig({
    PAYMENT_PROVIDER: "payu",
    PAYU_API_URL: "https://secure.snd.payu.com/",
    PAYU_POS_ID: "1",
    PAYU_CLIENT_ID: "1",
    PAYU_CLIENT_SECRET: "s",
    PAYU_SECOND_KEY: "k",
  });
  assert.equal(sandboxOnPayu.paymentProvider?.kind, "payu");
  assert.equal(
    (sandboxOnPayu.paymentProvider as { apiUrl: string }).apiUrl,
    "https://secure.snd.payu.com",
  );
});

Deno.test("[config] PayU is reached over https, or over http only on this machine", async (t) => {
  const payu = {
    PAYMENT_PROVIDER: "payu",
    PAYU_POS_ID: "1",
    PAYU_CLIENT_ID: "1",
    PAYU_CLIENT_SECRET: "s",
    PAYU_SECOND_KEY: "k",
  };
  for (const url of ["http://payu.example", "http://203.0.113.7:8790", "http://10.0.0.5"]) {
    await t.step(url, () => {
      assert.throws(
        () => loadConfig({ PAYSTEAD_ENV: "production", ...payu, PAYU_API_URL: url }),
        new ConfigError(
          `Invalid configuration: PAYU_API_URL must be https:// (http:// only to this machine, such as a local fake PayU) (got "${url}").`,
        ),
      );
    });
  }
  for (const url of ["http://127.0.0.1:8790", "http://localhost:8790", "http://[::1]:8790"]) {
    await t.step(url, () => {
      const config = loadConfig({ PAYSTEAD_ENV: "production", ...payu, PAYU_API_URL: url });
      assert.equal((config.paymentProvider as { apiUrl: string }).apiUrl, url);
    });
  }
});

Deno.test("[config] production refuses to serve without a real payment provider", async (t) => {
  const refusal =
    "Invalid configuration: PAYMENT_PROVIDER must be payu in production (with PAYU_POS_ID, PAYU_CLIENT_ID, PAYU_CLIENT_SECRET, PAYU_SECOND_KEY); the sandbox simulator takes no money.";
  for (const env of [{}, { PAYMENT_PROVIDER: "sandbox" }]) {
    await t.step(JSON.stringify(env), () => {
      const config = loadConfig({ PAYSTEAD_ENV: "production", ...env });
      assert.equal(config.paymentProvider, null);
      assert.throws(() => requireProvider(config), new ConfigError(refusal));
      assert.throws(
        () => providerFromConfig(config, { clock: new ManualClock() }),
        new ConfigError(refusal),
      );
    });
  }
  await t.step("payu without one of its variables", () => {
    assert.throws(
      () =>
        loadConfig({
          PAYSTEAD_ENV: "production",
          PAYMENT_PROVIDER: "payu",
          PAYU_POS_ID: "300746",
          PAYU_CLIENT_ID: "300746",
          PAYU_SECOND_KEY: "second",
        }),
      new ConfigError(
        "Invalid configuration: PAYU_CLIENT_SECRET is required with PAYMENT_PROVIDER=payu (from the POS's REST API settings in PayU's panel).",
      ),
    );
  });
  await t.step("an unknown provider", () => {
    assert.throws(
      () => loadConfig({ PAYMENT_PROVIDER: "stripe" }),
      new ConfigError(
        'Invalid configuration: PAYMENT_PROVIDER must be sandbox or payu (got "stripe").',
      ),
    );
  });
  await t.step("serve --env production through main(): one line, exit 2", async () => {
    const dataDir = await Deno.makeTempDir({ prefix: "paystead-refuse-" });
    try {
      const envs: Record<string, string>[] = [{}, { PAYMENT_PROVIDER: "sandbox" }];
      for (const env of envs) {
        const result = await runCli(
          ["serve", "--env", "production", "--data-dir", dataDir],
          env,
        );
        assert.equal(result.code, 2);
        assert.equal(result.stdout, "");
        assert.equal(result.stderr, refusal);
      }
      // Refused before any database was opened.
      assert.deepEqual([...Deno.readDirSync(dataDir)], []);
    } finally {
      await Deno.remove(dataDir, { recursive: true });
    }
  });
});

Deno.test("[config] no production app can run the sandbox simulator", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-noprod-sim-" });
  const config = loadConfig({ PAYSTEAD_ENV: "production", DATA_DIR: dataDir, ...PAYU_TEST_ENV });
  const accounts = await openStore<AccountsSchema>(config.accountsDatabaseUrl);
  const store = await openStore<EnvironmentSchema>(config.databaseUrl);
  try {
    for (const provider of [new SandboxProvider(), new SandboxProvider({ timeoutMs: 1 })]) {
      assert.throws(
        () => createApp({ config, store, accounts, provider, log: silentLogger }),
        new Error("A production process must never run the sandbox simulator."),
      );
    }
    const built = createApp({ config, store, accounts, log: silentLogger });
    assert.equal(built.services.provider instanceof PayuProvider, true);
    assert.equal(built.services.provider.name, "payu");
    await built.webhooks.stop();
  } finally {
    await store.close();
    await accounts.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});
