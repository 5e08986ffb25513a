/**
 * Webhook delivery benchmark, against the real server in its own process:
 *
 *   deno run -A bench/webhooks.ts [--events 50000]
 *
 * 1. Lag: payments created at a steady rate; a local receiver measures event time to receipt.
 * 2. Throughput: the server is stopped, a backlog of events is written to its database, and
 *    the server is started again; deliveries/s is measured at the receiver while the backlog
 *    drains, and the API's latency (GET /api/v1/payments/{id}) is measured at the same time with
 *    wrk (when /usr/bin/wrk exists; otherwise a bounded in-process load loop), and once before
 *    as a baseline.
 */
import { parseArgs } from "node:util";
import { createOrganisation } from "../lib/accounts/organisations.ts";
import { createApiKey } from "../lib/api_keys.ts";
import { loadConfig } from "../lib/config.ts";
import { recordEvent } from "../lib/events.ts";
import { newId } from "../lib/ids.ts";
import { closeDatabases, openDatabases } from "../server.ts";
import { type ChildServer, freePort, startPaystead } from "../tests/support/processes.ts";

/** What the benchmark measured; times in milliseconds. */
export interface WebhooksBenchResult {
  lag: { events: number; ratePerSecond: number; p50: number; p99: number; max: number };
  drain: {
    events: number;
    seconds: number;
    deliveriesPerSecond: number;
    /** While the API load run went on (delivery then leaves half the thread to the API). */
    deliveriesPerSecondUnderApiLoad: number;
  };
  api: {
    tool: "wrk" | "load loop";
    idle: LatencySample;
    duringDrain: LatencySample;
  };
}

/** Latency percentiles of a load run. */
export interface LatencySample {
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
}

/** Options of a run; the defaults are the targets' conditions. */
export interface WebhooksBenchOptions {
  /** Size of the backlog to drain. */
  events?: number;
  /** Events created for the lag measurement, and their rate. */
  lagEvents?: number;
  lagRatePerSecond?: number;
  /** Length of each API load run, in seconds. */
  loadSeconds?: number;
  /** Where progress lines go. */
  log?: (line: string) => void;
}

const WRK = "/usr/bin/wrk";
/**
 * Concurrent API clients. Few on purpose: eight closed-loop connections saturate the process's
 * one thread on their own, and the figure would then measure the load generator's queue, not
 * what a client waits while webhooks drain.
 */
const CONNECTIONS = 2;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A receiver that counts deliveries and, for fresh events, how late they arrived. */
function startReceiver() {
  const state = {
    received: 0,
    ids: new Set<string>(),
    lags: [] as number[],
    firstAt: 0,
    lastAt: 0,
    measureLag: true,
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    const now = Date.now();
    state.received++;
    state.ids.add(req.headers.get("webhook-id")!);
    if (state.firstAt === 0) state.firstAt = now;
    state.lastAt = now;
    if (state.measureLag) state.lags.push(now - Date.parse(JSON.parse(body).createdAt));
    return new Response(null, { status: 204 });
  });
  return {
    state,
    url: `http://127.0.0.1:${server.addr.port}/hook`,
    close: () => server.shutdown(),
  };
}

function parseWrkLatency(value: string, unit: string): number {
  const factor: Record<string, number> = { us: 0.001, ms: 1, s: 1000 };
  return Number(value) * factor[unit];
}

async function measureApi(
  url: string,
  apiKey: string,
  seconds: number,
): Promise<{ tool: "wrk" | "load loop"; sample: LatencySample }> {
  const hasWrk = await Deno.stat(WRK).then(() => true, () => false);
  if (hasWrk) {
    const { stdout } = await new Deno.Command(WRK, {
      args: [
        "-t1",
        `-c${CONNECTIONS}`,
        `-d${seconds}s`,
        "--latency",
        "-H",
        `Authorization: Bearer ${apiKey}`,
        url,
      ],
      stdout: "piped",
    }).output();
    const text = new TextDecoder().decode(stdout);
    const line = (p: string) => new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s)`, "m").exec(text);
    const p50 = line("50")!;
    const p99 = line("99")!;
    const requests = Number(/(\d+) requests in/.exec(text)![1]);
    const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text);
    if (non2xx) throw new Error(`wrk got ${non2xx[1]} error responses:\n${text}`);
    return {
      tool: "wrk",
      sample: {
        requests,
        requestsPerSecond: Math.round(requests / seconds),
        p50: parseWrkLatency(p50[1], p50[2]),
        p99: parseWrkLatency(p99[1], p99[2]),
      },
    };
  }
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
    while (performance.now() < deadline) {
      const start = performance.now();
      const response = await fetch(url, { headers: { authorization: `Bearer ${apiKey}` } });
      await response.body?.cancel();
      if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
      latencies.push(performance.now() - start);
    }
  }));
  latencies.sort((a, b) => a - b);
  return {
    tool: "load loop",
    sample: {
      requests: latencies.length,
      requestsPerSecond: Math.round(latencies.length / seconds),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    },
  };
}

async function waitFor(condition: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs the webhook benchmark in a temporary data directory and returns what it measured. */
export async function runWebhooksBench(
  options: WebhooksBenchOptions = {},
): Promise<WebhooksBenchResult> {
  const events = options.events ?? 50_000;
  const lagEvents = options.lagEvents ?? 1_000;
  const lagRate = options.lagRatePerSecond ?? 100;
  const loadSeconds = options.loadSeconds ?? 10;
  const log = options.log ?? ((line: string) => console.error(line));
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-bench-webhooks-" });
  const receiver = startReceiver();
  const port = freePort();
  let server: ChildServer | null = null;
  try {
    const config = loadConfig({
      PAYSTEAD_ENV: "sandbox",
      DATABASE_URL: `file:${dataDir}/sandbox.db`,
      ACCOUNTS_DATABASE_URL: `file:${dataDir}/accounts.db`,
    });
    let databases = await openDatabases(config);
    const org = await createOrganisation(
      databases.accounts,
      { slug: "bench", name: "Bench", plan: "ENTERPRISE" },
      Date.now(),
    );
    const { secret: apiKey } = await createApiKey(databases.store, {
      orgId: org.id,
      name: "bench",
      environment: "sandbox",
      now: Date.now(),
    });
    await closeDatabases(databases);

    server = await startPaystead(dataDir, { LOG_LEVEL: "error" }, port);
    const api = async (path: string, body: unknown) => {
      const response = await fetch(server!.url + path, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      if (!response.ok) {
        throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
      }
      return await response.json();
    };
    await api("/api/v1/webhook-endpoints", { url: receiver.url });
    const offer = await api("/api/v1/qr", { name: "Bench", amount: 100, currency: "PLN" });
    const target = await api("/api/v1/payments", { qrId: offer.qrId });

    log(`lag: ${lagEvents} payments at ${lagRate}/s ...`);
    const interval = 1000 / lagRate;
    const started = performance.now();
    const creations: Promise<unknown>[] = [];
    for (let index = 0; index < lagEvents; index++) {
      const due = started + index * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      creations.push(api("/api/v1/payments", { qrId: offer.qrId }));
    }
    await Promise.all(creations);
    await waitFor(() => receiver.state.ids.size >= lagEvents + 1, 30_000, "lag deliveries");
    const lags = receiver.state.lags.slice(1).sort((a, b) => a - b);

    const paymentUrl = `${server.url}/api/v1/payments/${target.paymentId}`;
    log(`api: idle baseline, ${loadSeconds} s ...`);
    const idle = await measureApi(paymentUrl, apiKey, loadSeconds);
    await server.stop();
    server = null;

    log(`drain: writing a backlog of ${events} events ...`);
    databases = await openDatabases(config);
    const payload = { ...target, status: "PENDING" };
    for (let written = 0; written < events; written += 1_000) {
      await databases.store.write(async (trx) => {
        for (let index = written; index < Math.min(events, written + 1_000); index++) {
          await recordEvent(trx, {
            orgId: org.id,
            type: "payment.created",
            environment: "sandbox",
            createdAt: Date.now(),
            data: { ...payload, paymentId: newId("payment") },
          });
        }
      });
    }
    await closeDatabases(databases);
    receiver.state.measureLag = false;
    receiver.state.received = 0;
    receiver.state.firstAt = 0;

    log("drain: starting the server on the backlog ...");
    server = await startPaystead(dataDir, { LOG_LEVEL: "error" }, port);
    const startedAt = Date.now();
    await waitFor(() => receiver.state.received > 0, 30_000, "the first backlog delivery");
    log(`drain: measuring the API for ${loadSeconds} s while it drains ...`);
    const receivedBeforeLoad = receiver.state.received;
    const loadStarted = Date.now();
    const during = await measureApi(paymentUrl, apiKey, loadSeconds);
    const underLoad = Math.round(
      (receiver.state.received - receivedBeforeLoad) / ((Date.now() - loadStarted) / 1000),
    );
    const drainedBeforeLoadEnded = receiver.state.received >= events;
    await waitFor(() => receiver.state.received >= events, 600_000, "the backlog to drain");
    const seconds = (receiver.state.lastAt - receiver.state.firstAt) / 1000;
    if (drainedBeforeLoadEnded) log("note: the backlog drained before the API load run ended");
    log(`drain: ${events} deliveries, first after ${receiver.state.firstAt - startedAt} ms`);
    return {
      lag: {
        events: lags.length,
        ratePerSecond: lagRate,
        p50: percentile(lags, 50),
        p99: percentile(lags, 99),
        max: lags.at(-1) ?? NaN,
      },
      drain: {
        events,
        seconds,
        deliveriesPerSecond: Math.round(events / seconds),
        deliveriesPerSecondUnderApiLoad: underLoad,
      },
      api: { tool: during.tool, idle: idle.sample, duringDrain: during.sample },
    };
  } finally {
    await server?.stop();
    await receiver.close();
    await Deno.remove(dataDir, { recursive: true });
  }
}

/** Formats a result as the lines the benchmark prints. */
export function formatWebhooksBench(result: WebhooksBenchResult): string {
  const { lag, drain, api } = result;
  const sample = (s: LatencySample) =>
    `p50 ${s.p50.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms (${s.requestsPerSecond} req/s)`;
  return [
    `webhooks: deliveries/s (backlog of ${drain.events}): ${drain.deliveriesPerSecond} ` +
    `(${drain.seconds.toFixed(1)} s; ${drain.deliveriesPerSecondUnderApiLoad}/s while the API ` +
    "load ran)   target >= 2000",
    `webhooks: commit-to-receipt lag (${lag.events} events at ${lag.ratePerSecond}/s): ` +
    `p50 ${lag.p50} ms, p99 ${lag.p99} ms, max ${lag.max} ms   target p99 < 100 ms`,
    `webhooks: API GET /api/v1/payments/{id} (${api.tool}, ${CONNECTIONS} connections): ` +
    `idle ${sample(api.idle)}; during the drain ${sample(api.duringDrain)}   target p99 < 20 ms`,
  ].join("\n");
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { events: { type: "string" }, "load-seconds": { type: "string" } },
  });
  const result = await runWebhooksBench({
    events: values.events ? Number(values.events) : undefined,
    loadSeconds: values["load-seconds"] ? Number(values["load-seconds"]) : undefined,
  });
  console.log(formatWebhooksBench(result));
}
