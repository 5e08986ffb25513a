import assert from "node:assert/strict";
import { ConfigError, loadConfig, parseDurationList } from "../lib/config.ts";

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
