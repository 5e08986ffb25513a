import { type ChildServer, demoApiKey, startPaystead } from "../tests/support/processes.ts";
import type { BenchRow } from "./api.ts";
import { startSqld } from "../tests/support/sqld.ts";
import { cpuSeconds } from "./cpu.ts";

const SECONDS = Number(Deno.env.get("SOAK_SECONDS") ?? 15);
/**
 * 32 clients per instance: the concurrency each process gets in the single-process rows. With
 * fewer, a closed loop measures the round trip to sqld rather than what the two instances carry.
 */
const CLIENTS = Number(Deno.env.get("SOAK_CLIENTS") ?? 64);
const FAILURE_RATE = 0.3;

interface Outcome {
  paymentIds: Set<string>;
  retries: number;
  /** Milliseconds from a create's first attempt to its 201, one per acknowledged create. */
  latenciesMs: number[];
}

/**
 * Creates one payment under its own Idempotency-Key, retrying on the other process until it
 * lands. `first` is the process tried first: clients spread over both, so both take load.
 */
async function createWithRetries(
  servers: ChildServer[],
  first: number,
  key: string,
  qrId: string,
  idempotencyKey: string,
  outcome: Outcome,
): Promise<string | null> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const server = servers[(first + attempt) % servers.length];
    try {
      const response = await fetch(`${server.url}/api/v1/payments`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          "idempotency-key": idempotencyKey,
        },
        body: JSON.stringify({ qrId }),
      });
      const body = await response.json();
      if (response.status === 201) return body.paymentId;
    } catch {
      // connection trouble: retry with the same key
    }
    outcome.retries++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return null;
}

/**
 * Two sandbox processes over one libSQL server, under load for a bounded time while a receiver
 * fails 30% of deliveries: afterwards every acknowledged payment exists exactly once per
 * Idempotency-Key and every event has been delivered.
 */
export async function benchSoak(): Promise<BenchRow> {
  const dir = await Deno.makeTempDir({ prefix: "paystead-soak-" });
  const accounts = await startSqld(`${dir}/accounts`);
  const sandbox = await startSqld(`${dir}/sandbox`);
  const received = new Map<string, number[]>();
  let seed = 20261121;
  const flaky = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff < FAILURE_RATE;
  };
  const receiver = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const id = request.headers.get("webhook-id") ?? "";
      await request.text();
      const status = flaky() ? 500 : 200;
      received.set(id, [...(received.get(id) ?? []), status]);
      return new Response(null, { status });
    },
  );
  // Hrana over WebSocket: about half the latency per statement of HTTP.
  const env = {
    DATABASE_URL: sandbox.url.replace("http://", "ws://"),
    ACCOUNTS_DATABASE_URL: accounts.url.replace("http://", "ws://"),
    // Twenty attempts: with ten, 0.3^10 of events (six in a million, one in a dozen soaks of 13,000
    // events) would meet ten failures in a row by chance and be given up, which is no fault.
    WEBHOOK_RETRY_SCHEDULE: "0,250ms,500ms,1s,1s" + ",2s".repeat(15),
  };
  const servers = [await startPaystead(`${dir}/a`, env)];
  servers.push(await startPaystead(`${dir}/b`, env));
  try {
    const key = await demoApiKey(servers[0]);
    const call = async (path: string, body?: unknown) =>
      await (await fetch(`${servers[0].url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      })).json();
    const offer = await call("/api/v1/qr", { name: "Soak", amount: 100, currency: "PLN" });
    await call("/api/v1/webhook-endpoints", { url: `http://127.0.0.1:${receiver.addr.port}/hook` });

    const outcome: Outcome = { paymentIds: new Set(), retries: 0, latenciesMs: [] };
    let keys = 0;
    let lost = 0;
    const pids = [
      sandbox.pid,
      accounts.pid,
      ...servers.map((server) => server.process.pid),
      Deno.pid,
    ];
    const cpuBefore = await Promise.all(pids.map(cpuSeconds));
    const started = Date.now();
    await Promise.all(Array.from({ length: CLIENTS }, async (_, client) => {
      while (Date.now() - started < SECONDS * 1000) {
        const sent = performance.now();
        const paymentId = await createWithRetries(
          servers,
          client,
          key,
          offer.qrId,
          `soak-${client}-${keys++}`,
          outcome,
        );
        if (paymentId === null) lost++;
        else {
          outcome.paymentIds.add(paymentId);
          outcome.latenciesMs.push(performance.now() - sent);
        }
      }
    }));
    const elapsed = (Date.now() - started) / 1000;
    const [sqldCpu, accountsCpu, ...othersCpu] = (await Promise.all(pids.map(cpuSeconds)))
      .map((seconds, index) => seconds - cpuBefore[index]);

    const stored: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await call(
        `/api/v1/payments?qrId=${offer.qrId}&limit=100${after ? `&startingAfter=${after}` : ""}`,
      );
      stored.push(...page.data.map((payment: { paymentId: string }) => payment.paymentId));
      if (!page.hasMore) break;
      after = page.data.at(-1).paymentId;
    }
    const events: string[] = [];
    after = undefined;
    for (;;) {
      const page = await call(`/api/v1/events?limit=100${after ? `&startingAfter=${after}` : ""}`);
      events.push(...page.data.map((event: { id: string }) => event.id));
      if (!page.hasMore) break;
      after = page.data.at(-1).id;
    }
    const deadline = Date.now() + 120_000;
    const undelivered = () => events.filter((id) => !(received.get(id) ?? []).includes(200));
    while (undelivered().length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const attempts = [...received.values()].reduce((sum, statuses) => sum + statuses.length, 0);
    const twice = [...received.values()].filter((statuses) =>
      statuses.filter((s) => s === 200).length > 1
    );
    console.log(
      `\nSoak: 2 sandbox processes over sqld, ${CLIENTS} clients for ${SECONDS} s, receiver failing ${
        FAILURE_RATE * 100
      }%`,
    );
    console.log(
      `  payments acknowledged ${outcome.paymentIds.size} (${
        (outcome.paymentIds.size / elapsed).toFixed(0)
      }/s), ` +
        `stored ${stored.length}, requests retried ${outcome.retries}, gave up ${lost}`,
    );
    const latencies = outcome.latenciesMs.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.floor(q * (latencies.length - 1))]?.toFixed(1);
    console.log(
      `  a create's latency, first attempt to 201: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
    );
    console.log(
      `  sqld CPU under the load: ${(sqldCpu / elapsed * 100).toFixed(0)}% of a core, ${
        (sqldCpu / outcome.paymentIds.size * 1e6).toFixed(0)
      } us per acknowledged create`,
    );
    // The rest of the two cores: each instance, and this process (the clients and the receiver).
    const perCreate = (seconds: number) =>
      `${(seconds / outcome.paymentIds.size * 1e6).toFixed(0)} us`;
    console.log(
      `  CPU per acknowledged create: instances ${
        othersCpu.slice(0, -1).map(perCreate).join(" and ")
      }, ` +
        `clients and receiver ${perCreate(othersCpu.at(-1)!)}, accounts sqld ${
          perCreate(accountsCpu)
        }, all ${perCreate(sqldCpu + accountsCpu + othersCpu.reduce((a, b) => a + b, 0))}`,
    );
    const most = Math.max(0, ...[...received.values()].map((statuses) => statuses.length));
    console.log(
      `  events ${events.length}, delivered ${events.length - undelivered().length}, ` +
        `attempts ${attempts} (at most ${most} for one event), ` +
        `delivered more than once after a 2xx ${twice.length}`,
    );
    for (const id of undelivered().slice(0, 5)) {
      console.log(`  not delivered: ${id}, answers ${received.get(id)?.join(",") ?? "none"}`);
    }
    const storedIds = new Set(stored);
    const ok = lost === 0 && stored.length === outcome.paymentIds.size &&
      [...outcome.paymentIds].every((id) => storedIds.has(id)) && undelivered().length === 0;
    console.log(
      `  ${ok ? "OK: nothing lost, nothing duplicated, every event delivered" : "FAILED"}`,
    );
    const perSecond = outcome.paymentIds.size / elapsed;
    return {
      name: `two instances over sqld, ${CLIENTS} clients`,
      figure: `${perSecond.toFixed(0)}/s${ok ? "" : " (soak FAILED)"}`,
      bare: "",
      target: ">= 2,000/s",
      pass: ok && perSecond >= 2000,
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop("SIGTERM")));
    await receiver.shutdown();
    await accounts.stop();
    await sandbox.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) console.log(await benchSoak());
