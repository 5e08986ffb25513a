import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../lib/config.ts";
import { hasMetricsToken } from "../routes/ops.ts";
import { makeTestApp } from "./support/helpers.ts";
import { freePort, startPaystead } from "./support/processes.ts";

const TOKEN = "0123456789abcdef0123456789abcdef";

Deno.test("[metrics] on the public port only with the token; otherwise a plain 404", async () => {
  for (const env of [{}, { METRICS_TOKEN: TOKEN }] as Record<string, string>[]) {
    const t = await makeTestApp({ env });
    try {
      for (
        const authorization of [undefined, "Bearer wrong", `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]
      ) {
        const response = await t.app.request("/metrics", {
          headers: { accept: "application/json", ...(authorization && { authorization }) },
        });
        assert.equal(response.status, 404);
        const body = await response.json();
        assert.equal(body.error.code, "route_not_found");
        assert.equal(body.error.message, "There is no GET /metrics.");
      }
      const right = await t.app.request("/metrics", {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      if ("METRICS_TOKEN" in env) {
        assert.equal(right.status, 200);
        assert.match(await right.text(), /# TYPE paystead_http_requests_total counter/);
      } else {
        assert.equal(right.status, 404, "no token configured: nobody reads it here");
        await right.body?.cancel();
      }
    } finally {
      await t.close();
    }
  }
});

Deno.test("[metrics] the token compare", () => {
  assert.equal(hasMetricsToken(`Bearer ${TOKEN}`, TOKEN), true);
  assert.equal(hasMetricsToken(`Bearer ${TOKEN}`, null), false);
  assert.equal(hasMetricsToken(undefined, TOKEN), false);
  assert.equal(hasMetricsToken(`bearer ${TOKEN}`, TOKEN), false);
  assert.equal(hasMetricsToken(`Bearer ${TOKEN.slice(1)}`, TOKEN), false);
});

Deno.test("[metrics] METRICS_LISTEN and METRICS_TOKEN settings", () => {
  assert.deepEqual(loadConfig({}).metricsListen, { hostname: "127.0.0.1", port: 9464 });
  assert.deepEqual(loadConfig({ PAYSTEAD_ENV: "production" }).metricsListen, {
    hostname: "127.0.0.1",
    port: 9465,
  });
  assert.equal(loadConfig({ METRICS_LISTEN: "off" }).metricsListen, null);
  assert.deepEqual(loadConfig({ METRICS_LISTEN: "[::1]:9100" }).metricsListen, {
    hostname: "::1",
    port: 9100,
  });
  assert.deepEqual(loadConfig({ METRICS_LISTEN: "10.0.0.5:9100" }).metricsListen, {
    hostname: "10.0.0.5",
    port: 9100,
  });
  assert.equal(loadConfig({}).metricsToken, null);
  assert.equal(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken, TOKEN);
  assert.throws(
    () => loadConfig({ METRICS_LISTEN: "9464" }),
    new ConfigError(
      'Invalid configuration: METRICS_LISTEN must be host:port (such as 127.0.0.1:9464) or off (got "9464").',
    ),
  );
  assert.throws(() => loadConfig({ METRICS_LISTEN: "127.0.0.1:70000" }), ConfigError);
  assert.throws(
    () => loadConfig({ METRICS_TOKEN: "short" }),
    new ConfigError(
      'Invalid configuration: METRICS_TOKEN must be 32 to 200 printable characters without spaces (e.g. from openssl rand -hex 32) (got "short").',
    ),
  );
});

Deno.test("[metrics] a real server serves them on the metrics address alone", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-metrics-" });
  const metricsPort = freePort();
  const server = await startPaystead(dataDir, { METRICS_LISTEN: `127.0.0.1:${metricsPort}` });
  // A second process on the same metrics address: it logs why and serves its public port.
  const second = await startPaystead(await Deno.makeTempDir({ prefix: "paystead-metrics-" }), {
    METRICS_LISTEN: `127.0.0.1:${metricsPort}`,
  });
  try {
    const publicMetrics = await fetch(`${server.url}/metrics`);
    assert.equal(publicMetrics.status, 404);
    await publicMetrics.body?.cancel();
    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    assert.equal(metrics.status, 200);
    assert.match(
      await metrics.text(),
      /paystead_http_requests_total\{method="GET",route="\/metrics",status="404",ok="false"\} 1/,
    );
    const other = await fetch(`http://127.0.0.1:${metricsPort}/healthz`);
    assert.equal(other.status, 404);
    await other.body?.cancel();

    const health = await fetch(`${second.url}/healthz`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
    assert.match(second.logs(), /metrics listener did not start; set METRICS_LISTEN/);
  } finally {
    await server.stop();
    await second.stop();
    await server.exited();
    await second.exited();
    await Deno.remove(dataDir, { recursive: true });
  }
});
