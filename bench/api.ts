import { openStore } from "../db/client.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import {
  type ChildServer,
  freePort,
  paysteadCommand,
  productionApiKey,
  startBareServer,
  startPaystead,
} from "../tests/support/processes.ts";
import { runWrk, type WrkResult } from "./wrk.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
/** The server runs on the first CPU, wrk on the second: the figures then do not fight. */
const SERVER_CPU = "0";
const CLIENT_CPU = "1";

/** One row of the table: a figure, its target, and whether it is met. */
export interface BenchRow {
  name: string;
  figure: string;
  bare: string;
  target: string;
  pass: boolean | null;
}

/** Prints rows as a table with PASS/FAIL. */
export function printRows(rows: BenchRow[]): void {
  const width = Math.max(...rows.map((row) => row.name.length));
  for (const row of rows) {
    const verdict = row.pass === null ? "" : row.pass ? "PASS" : "FAIL";
    console.log(
      `${row.name.padEnd(width)}  ${row.figure.padEnd(46)} ${row.bare.padEnd(30)} ` +
        `${row.target.padEnd(26)} ${verdict}`,
    );
  }
}

function share(result: WrkResult, baseline: WrkResult): number {
  return result.requestsPerSecond / baseline.requestsPerSecond * 100;
}

function rate(result: WrkResult): string {
  return `${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, ` +
    `p99 ${result.p99Ms.toFixed(1)} ms`;
}

function bareOf(baseline: WrkResult): string {
  return `bare ${baseline.requestsPerSecond.toFixed(0)} req/s`;
}

async function pin(process: Deno.ChildProcess, cpus: string): Promise<void> {
  const pinned = await new Deno.Command("taskset", {
    args: ["-a", "-p", "-c", cpus, String(process.pid)],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!pinned.success) throw new Error(new TextDecoder().decode(pinned.stderr));
}

/** Resident memory of a process in MiB (`ps`, as reading /proc takes --allow-all). */
async function rssMiB(pid: number): Promise<number> {
  const ps = await new Deno.Command("ps", { args: ["-o", "rss=", "-p", String(pid)] }).output();
  return Number(new TextDecoder().decode(ps.stdout).trim()) / 1024;
}

/** Milliseconds from exec to the first 200 of `/readyz`, on a warm module cache. */
async function startupMs(dataDir: string): Promise<number> {
  const port = freePort();
  const started = performance.now();
  const child = paysteadCommand(dataDir, { PAYSTEAD_ENV: "production" }, port).spawn();
  try {
    for (;;) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`);
        await response.body?.cancel();
        if (response.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  } finally {
    child.kill("SIGTERM");
    await Promise.all([child.status, child.stdout.cancel(), child.stderr.cancel()]);
  }
}

/**
 * The production API under wrk, each figure beside a bare Deno.serve hello-world measured in the
 * same run: creates with an Idempotency-Key at 32 and 1 connections, reads, the middleware chain
 * alone (`/healthz`), memory idle and after the load, and the time to start. Checks afterwards
 * that every 201 wrk counted is a payment in the database.
 */
export async function benchApi(): Promise<BenchRow[]> {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-bench-" });
  const key = await productionApiKey(dataDir);
  const startup = await startupMs(dataDir);
  const bare = await startBareServer();
  let paystead: ChildServer | null = await startPaystead(dataDir, { PAYSTEAD_ENV: "production" });
  const rows: BenchRow[] = [];
  try {
    await pin(bare.process, SERVER_CPU);
    await pin(paystead.process, SERVER_CPU);
    const wrk = (options: Omit<Parameters<typeof runWrk>[0], "seconds" | "cpus">) =>
      runWrk({ ...options, seconds: SECONDS, cpus: CLIENT_CPU });
    const auth = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
    const offer = await (await fetch(`${paystead.url}/api/v1/qr`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: "Bench", amount: 1000, currency: "PLN" }),
    })).json();
    const payment = await (await fetch(`${paystead.url}/api/v1/payments`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ qrId: offer.qrId }),
    })).json();
    const idleRss = await rssMiB(paystead.process.pid);
    const create = {
      url: `${paystead.url}/api/v1/payments`,
      method: "POST",
      body: JSON.stringify({ qrId: offer.qrId }),
      headers: auth,
      uniqueIdempotencyKey: true,
    };

    console.log(
      `\nMerchant API, production process on CPU ${SERVER_CPU}, wrk (one thread) on CPU ` +
        `${CLIENT_CPU}, ${SECONDS} s per figure`,
    );
    let created = 0;
    const bare32 = await wrk({ url: bare.url, connections: 32 });
    const create32 = await wrk({ ...create, connections: 32 });
    created += create32.statuses["201"] ?? 0;
    rows.push({
      name: "POST /api/v1/payments + Idempotency-Key, 32 conn",
      figure: `${rate(create32)}`,
      bare: `${share(create32, bare32).toFixed(1)}% of ${bareOf(bare32)}`,
      target: ">= 4% of bare, p99 <= 15 ms",
      pass: share(create32, bare32) >= 4 && create32.p99Ms <= 15 && create32.nonSuccess === 0,
    });
    const bare1 = await wrk({ url: bare.url, connections: 1 });
    const create1 = await wrk({ ...create, connections: 1 });
    created += create1.statuses["201"] ?? 0;
    rows.push({
      name: "POST /api/v1/payments + Idempotency-Key, 1 conn",
      figure: `${rate(create1)}`,
      bare: `bare p50 ${bare1.p50Ms.toFixed(2)} ms`,
      target: "p50 <= 0.7 ms",
      pass: create1.p50Ms <= 0.7 && create1.nonSuccess === 0,
    });
    const get32 = await wrk({
      url: `${paystead.url}/api/v1/payments/${payment.paymentId}`,
      connections: 32,
      headers: auth,
    });
    rows.push({
      name: "GET /api/v1/payments/{id}, 32 conn",
      figure: rate(get32),
      bare: `${share(get32, bare32).toFixed(1)}% of ${bareOf(bare32)}`,
      target: ">= 10% of bare",
      pass: share(get32, bare32) >= 10 && get32.nonSuccess === 0,
    });
    const health32 = await wrk({ url: `${paystead.url}/healthz`, connections: 32 });
    const chainUs = 1e6 / health32.requestsPerSecond - 1e6 / bare32.requestsPerSecond;
    rows.push({
      name: "GET /healthz (the middleware chain), 32 conn",
      figure: `${rate(health32)}, chain ${chainUs.toFixed(0)} us`,
      bare: `${share(health32, bare32).toFixed(1)}% of ${bareOf(bare32)}`,
      target: ">= 35% of bare",
      pass: share(health32, bare32) >= 35 && health32.nonSuccess === 0,
    });
    const loadedRss = await rssMiB(paystead.process.pid);
    rows.push({
      name: "RSS idle / after the load above",
      figure: `${idleRss.toFixed(0)} MiB / ${loadedRss.toFixed(0)} MiB`,
      bare: `(${(4 * SECONDS).toFixed(0)} s of load)`,
      target: "<= 80 MiB / <= 150 MiB",
      pass: idleRss <= 80 && loadedRss <= 150,
    });
    rows.push({
      name: "start, exec to /readyz (warm cache)",
      figure: `${startup.toFixed(0)} ms`,
      bare: "",
      target: "",
      pass: null,
    });
    for (const [name, result] of [["create 32", create32], ["create 1", create1]] as const) {
      if (result.nonSuccess > 0) {
        console.log(`  ${name}: non-2xx ${JSON.stringify(result.statuses)}`);
      }
    }
    await paystead.stop();
    paystead = null;
    const store = await openStore<EnvironmentSchema>(`file:${dataDir}/production.db`);
    const counted = await store.db.selectFrom("payments").select((eb) =>
      eb.fn.countAll<number>().as("n")
    ).executeTakeFirstOrThrow();
    await store.close();
    const inDatabase = Number(counted.n) - 1;
    rows.push({
      name: "acknowledged creates stored",
      figure: `${created} acknowledged, ${inDatabase} stored`,
      bare: "",
      target: "every one",
      pass: inDatabase >= created,
    });
    return rows;
  } finally {
    await paystead?.stop();
    await bare.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
}

if (import.meta.main) printRows(await benchApi());
