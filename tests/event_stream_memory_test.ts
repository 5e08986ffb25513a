import assert from "node:assert/strict";
import { type SseMessage, SseParser } from "../lib/cli/sse.ts";
import { expectError } from "./support/helpers.ts";
import { type ChildServer, runCli, startPaystead } from "./support/processes.ts";

/** Three sandbox keys of a new BASIC organisation, made through the CLI before the server starts. */
async function basicOrganisationKeys(dataDir: string, count: number): Promise<string[]> {
  const env = { DATA_DIR: dataDir };
  for (
    const args of [
      ["migrate"],
      ["org", "create", "--slug", "shop", "--name", "Shop", "--plan", "BASIC"],
    ]
  ) {
    const result = await runCli(args, env);
    assert.equal(result.code, 0, result.stderr);
  }
  const keys = [];
  for (let i = 0; i < count; i++) {
    const result = await runCli(["key", "create", "--org", "shop", "--env", "sandbox"], env);
    assert.equal(result.code, 0, result.stderr);
    keys.push(/(sk_sandbox_\w+)/.exec(result.stdout)![1]);
  }
  return keys;
}

/** Metadata at the API's limits, in two-byte characters (the most a string takes in memory). */
const LARGE_METADATA = Object.fromEntries(
  Array.from({ length: 50 }, (_, i) => [`key_${i}`, "ż".repeat(500)]),
);

async function post(server: ChildServer, key: string, path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  assert.equal(response.status, 201, JSON.stringify(json));
  return json;
}

/**
 * Opens a stream over a bare socket and reads only its response head, then never reads again:
 * the server's writes back up as they would for a client that stops reading.
 */
async function openUnreadStream(
  server: ChildServer,
  key: string,
  after: string,
): Promise<{ status: number; head: string; conn: Deno.Conn }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
  await conn.write(new TextEncoder().encode(
    `GET /api/v1/events/stream?startingAfter=${after} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      `Authorization: Bearer ${key}\r\n\r\n`,
  ));
  let head = "";
  const buffer = new Uint8Array(1024);
  while (!head.includes("\r\n\r\n")) {
    const read = await conn.read(buffer);
    assert.ok(read !== null, "the server closed the stream before answering");
    head += new TextDecoder().decode(buffer.subarray(0, read));
  }
  return { status: Number(head.slice(9, 12)), head, conn };
}

/**
 * Reads `count` events from a stream opened after `after`, retrying the open while the server
 * has yet to notice that earlier readers went away.
 */
async function readEvents(server: ChildServer, key: string, after: string, count: number) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const response = await fetch(`${server.url}/api/v1/events/stream?startingAfter=${after}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    if (response.status === 429 && Date.now() < deadline) {
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    assert.equal(response.status, 200);
    const parser = new SseParser();
    const events: SseMessage[] = [];
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    while (events.length < count) {
      const { value, done } = await reader.read();
      assert.ok(!done, `the stream ended after ${events.length} events`);
      events.push(...parser.push(value).filter((message) => message.kind === "event"));
    }
    await reader.cancel();
    return events as Extract<SseMessage, { kind: "event" }>[];
  }
}

/** The process's resident memory in MiB, from /proc. */
async function residentMiB(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

Deno.test({
  name: "[events] streams that replay large events to readers who never read keep memory bounded",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dataDir = await Deno.makeTempDir({ prefix: "paystead-streams-" });
    const keys = await basicOrganisationKeys(dataDir, 3);
    const server = await startPaystead(dataDir);
    const conns: Deno.Conn[] = [];
    try {
      const offer = await post(server, keys[0], "/api/v1/qr", {
        name: "Large",
        amount: 100,
        currency: "PLN",
      });
      await post(server, keys[0], "/api/v1/payments", { qrId: offer.qrId });
      const first = await (await fetch(`${server.url}/api/v1/events?order=asc&limit=1`, {
        headers: { authorization: `Bearer ${keys[0]}` },
      })).json();
      const after = first.data[0].id;
      for (let round = 0; round < 100; round++) {
        await Promise.all(
          keys.map((key) =>
            post(server, key, "/api/v1/payments", { qrId: offer.qrId, metadata: LARGE_METADATA })
          ),
        );
      }
      const before = await residentMiB(server.process.pid);

      // Three keys open five streams each, as many as a key may, and never read them.
      const statuses: number[] = [];
      for (const key of keys) {
        for (let i = 0; i < 5; i++) {
          const stream = await openUnreadStream(server, key, after);
          conns.push(stream.conn);
          statuses.push(stream.status);
        }
      }
      // The organisation's keys add up: ten streams, and the eleventh on is 429.
      assert.deepEqual(statuses, [...Array(10).fill(200), ...Array(5).fill(429)]);
      const refused = await fetch(`${server.url}/api/v1/events/stream`, {
        headers: { authorization: `Bearer ${keys[2]}` },
      });
      await expectError(
        refused,
        429,
        "rate_limit",
        "too_many_streams",
        "This organisation's API keys already have 10 event streams open, the most they may; " +
          "close one and retry.",
      );
      assert.equal(refused.headers.get("retry-after"), "5");

      // Each open stream holds at most a replay page, however much is waiting.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const health = await fetch(`${server.url}/healthz`);
      assert.equal(health.status, 200);
      await health.body?.cancel();
      const during = await residentMiB(server.process.pid);
      assert.ok(during - before < 48, `memory grew from ${before} to ${during} MiB`);

      // The readers go away; their streams end, and a reader that reads gets every event.
      for (const conn of conns.splice(0)) conn.close();
      const events = await readEvents(server, keys[0], after, 300);
      const stored = await (await fetch(`${server.url}/api/v1/events?limit=1`, {
        headers: { authorization: `Bearer ${keys[0]}` },
      })).json();
      assert.equal(events.length, 300);
      assert.equal(events.at(-1)!.id, stored.data[0].id);
      assert.deepEqual(JSON.parse(events[0].data).data.metadata, LARGE_METADATA);
    } finally {
      for (const conn of conns) {
        try {
          conn.close();
        } catch {
          // already closed by the server
        }
      }
      await server.stop();
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});
