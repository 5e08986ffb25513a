import assert from "node:assert/strict";
import { listensPubliclyWithoutProxy } from "../lib/exposure.ts";
import { startPaysteadWithFileLimit, waitForUrl } from "./support/processes.ts";

const FILE_LIMIT = 64;
/** Far more connections than the process has descriptors for. */
const FLOOD = FILE_LIMIT * 3;
/** Floods in a row, each against the listener started again after the one before. */
const WAVES = 3;

/** Opens a connection and sends half a request: headers that never end. */
async function halfSentRequest(port: number): Promise<Deno.Conn | null> {
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(new TextEncoder().encode("GET /healthz HTTP/1.1\r\nHost: x\r\n"));
    return conn;
  } catch {
    // Refused or reset: the listener is down (the point of the flood).
    return null;
  }
}

Deno.test("[server] a flood of half-sent requests past the file limit leaves a server that answers once it goes", async () => {
  const dataDir = await Deno.makeTempDir();
  const server = await startPaysteadWithFileLimit(dataDir, FILE_LIMIT, {
    METRICS_TOKEN: "flood-test-metrics-token-0123456789",
  });
  let exited = false;
  server.process.status.then(() => exited = true);
  try {
    const conns: Deno.Conn[] = [];
    for (let wave = 0; wave < WAVES; wave++) {
      // Each wave floods the listener that came back after the last one, until it fails too.
      let opened = 0;
      for (let i = 0; i < FLOOD; i++) {
        const conn = await halfSentRequest(server.port);
        if (conn) {
          conns.push(conn);
          opened++;
        } else if (opened > 0) {
          break;
        } else {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
      assert.ok(opened > 0, `wave ${wave} found a listener`);
    }
    // Give the process the turn in which it would have exited on the listener's rejection.
    await fetch(`${server.url}/healthz`).then((r) => r.body?.cancel(), () => {});
    assert.equal(exited, false, "the process must survive the flood");
    assert.match(server.logs(), /the listener failed; listening again as soon as it can/);

    for (const conn of conns) conn.close();
    await waitForUrl(`${server.url}/healthz`);
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: "ok", environment: "sandbox" });
    assert.equal(exited, false);

    const metrics = await fetch(`${server.url}/metrics`, {
      headers: { Authorization: "Bearer flood-test-metrics-token-0123456789" },
    });
    assert.equal(metrics.status, 200);
    const failures = /paystead_listener_failures_total\{stage="accept"\} (\d+)/
      .exec(await metrics.text());
    assert.ok(failures && Number(failures[1]) >= WAVES, `failures counted: ${failures?.[1]}`);
    const lines = server.logs().split("\n").filter((line) => line.includes("the listener"));
    assert.equal(
      lines.filter((line) => line.includes("the listener failed")).length,
      1,
      "one error line per episode",
    );
    assert.equal(lines.filter((line) => line.includes("the listener serves again")).length, 1);
  } finally {
    await server.stop();
    await server.exited();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("[server] a public LISTEN_HOST with no proxy but loopback ones counts as exposed", () => {
  const loopbackProxies = ["127.0.0.1", "::1"];
  const exposed = (listenHost: string, trustedProxies = loopbackProxies) =>
    listensPubliclyWithoutProxy({ listenHost, trustedProxies });
  for (const host of ["0.0.0.0", "::", "[::]", "203.0.114.7", "2a00:1450::1", "paystead.example"]) {
    assert.equal(exposed(host), true, host);
  }
  for (const host of ["127.0.0.1", "127.0.1.1", "::1", "localhost", "app.localhost", "10.0.0.5"]) {
    assert.equal(exposed(host), false, host);
  }
  assert.equal(exposed("0.0.0.0", ["10.0.0.2"]), false, "a proxy on another machine is in front");
  assert.equal(exposed("0.0.0.0", ["127.0.0.1", "10.0.0.2"]), false);
});
