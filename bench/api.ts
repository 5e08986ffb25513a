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
import { startReference } from "./reference_server.ts";
import { runWrk, type WrkResult } from "./wrk.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 5);
/** Each figure is the median of this many rounds: one 5-s sample on a shared VM swings by a third. */
const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 3);
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
      `${row.name.padEnd(width)}  ${row.figure.padEnd(52)} ${row.bare.padEnd(38)} ` +
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

async function pin(process: Deno.ChildProcess, cpus: string): Promise<void> {
  const pinned = await new Deno.Command("taskset", {
    args: ["-a", "-p", "-c", cpus, String(process.pid)],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!pinned.success) throw new Error(new TextDecoder().decode(pinned.stderr));
}

/** Resident memory of a process in MiB (`ps`, as reading /proc takes --allow-all). */
export async function rssMiB(pid: number): Promise<number> {
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

/** The figures one round takes, each server's beside the bare server's of the same round. */
interface Round {
  bare32: WrkResult;
  create32: WrkResult;
  reference32: WrkResult;
  bare1: WrkResult;
  create1: WrkResult;
  reference1: WrkResult;
  get32: WrkResult;
  health32: WrkResult;
  pageEn32: WrkResult;
  pagePl32: WrkResult;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The median of each figure of one kind of run across the rounds. */
function medianOf(results: WrkResult[]): WrkResult {
  return {
    requestsPerSecond: median(results.map((result) => result.requestsPerSecond)),
    p50Ms: median(results.map((result) => result.p50Ms)),
    p99Ms: median(results.map((result) => result.p99Ms)),
    statuses: {},
    nonSuccess: results.reduce((sum, result) => sum + result.nonSuccess, 0),
  };
}

/** A figure's share of the same round's bare server, round by round. */
function shares(rounds: Round[], figure: (round: Round) => WrkResult): number[] {
  return rounds.map((round) => share(figure(round), round.bare32));
}

/** Paired ratios of a figure to the reference's, round by round: their median and each. */
function ratiosText(values: number[]): string {
  const rounds = values.length > 1
    ? ` (${values.map((value) => value.toFixed(2)).join(", ")})`
    : "";
  return `${median(values).toFixed(2)}x${rounds}`;
}

function sharesText(values: number[]): string {
  const rounds = values.length > 1
    ? ` (${values.map((value) => value.toFixed(1)).join(", ")})`
    : "";
  return `${median(values).toFixed(1)}%${rounds} of bare`;
}

/** Makes an offer through the API at `url`, and what a create of a payment for it sends. */
export async function offerCreates(key: string, url: string): Promise<Creates> {
  const headers = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
  const offer = await (await fetch(`${url}/api/v1/qr`, {
    method: "POST",
    headers,
    body: JSON.stringify({ name: "Bench", amount: 1000, currency: "PLN" }),
  })).json();
  return { headers, body: JSON.stringify({ qrId: offer.qrId }) };
}

/** What a create sends: the key's headers and the offer's body. */
export interface Creates {
  headers: Record<string, string>;
  body: string;
}

/**
 * The production API under wrk, each figure beside a bare Deno.serve hello-world measured in the
 * same round, BENCH_ROUNDS rounds (3 by default) and their medians: creates with an
 * Idempotency-Key at 32 and 1 connections, and the same creates on the yardstick (the
 * framework-free reference server) to show what this machine allows; reads, the middleware chain
 * alone (`/healthz`), the customer's hosted page in English and in Polish, memory idle and after
 * the load, and the time to start. Checks afterwards
 * that every 201 wrk counted is a payment in the database.
 */
export async function benchApi(): Promise<BenchRow[]> {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-bench-" });
  const referenceDir = await Deno.makeTempDir({ prefix: "paystead-reference-" });
  const key = await productionApiKey(dataDir);
  const startup = await startupMs(dataDir);
  // The reference serves a database Paystead made: the same schema, indexes, key and offer.
  const referenceKey = await productionApiKey(referenceDir);
  const maker = await startPaystead(referenceDir, { PAYSTEAD_ENV: "production" });
  const referenceCreates = await offerCreates(referenceKey, maker.url).finally(() => maker.stop());
  const bare = await startBareServer();
  let paystead: ChildServer | null = await startPaystead(dataDir, { PAYSTEAD_ENV: "production" });
  let reference: ChildServer | null = null;
  const rows: BenchRow[] = [];
  try {
    await pin(bare.process, SERVER_CPU);
    await pin(paystead.process, SERVER_CPU);
    const wrk = (options: Omit<Parameters<typeof runWrk>[0], "seconds" | "cpus">) =>
      runWrk({ ...options, seconds: SECONDS, cpus: CLIENT_CPU });
    const creates = await offerCreates(key, paystead.url);
    const payment = await (await fetch(`${paystead.url}/api/v1/payments`, {
      method: "POST",
      ...creates,
    })).json();
    const idleRss = await rssMiB(paystead.process.pid);
    reference = await startReference(referenceDir);
    await pin(reference.process, SERVER_CPU);
    const create = (url: string, { headers, body }: Creates, connections: number) =>
      wrk({
        url: `${url}/api/v1/payments`,
        method: "POST",
        body,
        headers,
        uniqueIdempotencyKey: true,
        connections,
      });

    console.log(
      `\nMerchant API, production process on CPU ${SERVER_CPU}, wrk (one thread) on CPU ` +
        `${CLIENT_CPU}, ${SECONDS} s per figure, ${ROUNDS} rounds`,
    );
    const paymentUrl = `${paystead.url}/api/v1/payments/${payment.paymentId}`;
    // Each server's steady state: V8 has compiled the paths each figure takes before any counts.
    const warmUp = await create(paystead.url, creates, 32);
    await create(reference.url, referenceCreates, 32);
    await wrk({ url: paymentUrl, connections: 32, headers: creates.headers });
    await wrk({ url: `${paystead.url}/healthz`, connections: 32 });
    const rounds: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bare32 = await wrk({ url: bare.url, connections: 32 });
      const create32 = await create(paystead.url, creates, 32);
      const reference32 = await create(reference.url, referenceCreates, 32);
      const bare1 = await wrk({ url: bare.url, connections: 1 });
      const create1 = await create(paystead.url, creates, 1);
      const reference1 = await create(reference.url, referenceCreates, 1);
      const get32 = await wrk({ url: paymentUrl, connections: 32, headers: creates.headers });
      const health32 = await wrk({ url: `${paystead.url}/healthz`, connections: 32 });
      // The customer's hosted page, as a browser asking for each language gets it.
      const pageUrl = `${paystead.url}/pay/${payment.paymentId}`;
      const page = (language: string) =>
        wrk({
          url: pageUrl,
          connections: 32,
          headers: { Accept: "text/html", "Accept-Language": language },
        });
      const pageEn32 = await page("en-US,en;q=0.9");
      const pagePl32 = await page("pl-PL,pl;q=0.9");
      rounds.push({
        bare32,
        create32,
        reference32,
        bare1,
        create1,
        reference1,
        get32,
        health32,
        pageEn32,
        pagePl32,
      });
      console.log(
        `  round ${round + 1}: bare ${bare32.requestsPerSecond.toFixed(0)} req/s; create ` +
          `${share(create32, bare32).toFixed(1)}% (reference ${
            share(reference32, bare32).toFixed(1)
          }%), GET ${share(get32, bare32).toFixed(1)}%, /healthz ${
            share(health32, bare32).toFixed(1)
          }%, /pay en ${share(pageEn32, bare32).toFixed(1)}% pl ${
            share(pagePl32, bare32).toFixed(1)
          }%`,
      );
    }
    const loadedRss = await rssMiB(paystead.process.pid);
    const bare32 = medianOf(rounds.map((round) => round.bare32));
    const bare1 = medianOf(rounds.map((round) => round.bare1));
    // Issue 34: the create against the framework-free reference server of the same round.
    const create32 = medianOf(rounds.map((round) => round.create32));
    const reference32 = medianOf(rounds.map((round) => round.reference32));
    const rateRatios = rounds.map((round) =>
      round.create32.requestsPerSecond / round.reference32.requestsPerSecond
    );
    const p99Ratios = rounds.map((round) => round.create32.p99Ms / round.reference32.p99Ms);
    rows.push({
      name: "POST /api/v1/payments + Idempotency-Key, 32 conn",
      figure: rate(create32),
      bare: `${ratiosText(rateRatios)} the reference's rate, ${ratiosText(p99Ratios)} its p99; ${
        sharesText(shares(rounds, (round) => round.create32))
      }`,
      target: ">= 0.9x rate, p99 <= 1.3x",
      pass: median(rateRatios) >= 0.9 && median(p99Ratios) <= 1.3 && create32.nonSuccess === 0,
    });
    rows.push({
      name: "yardstick: reference server's create, 32 conn",
      figure: rate(reference32),
      bare: `${sharesText(shares(rounds, (round) => round.reference32))} ${
        bare32.requestsPerSecond.toFixed(0)
      }`,
      target: "",
      pass: null,
    });
    const create1 = medianOf(rounds.map((round) => round.create1));
    const reference1 = medianOf(rounds.map((round) => round.reference1));
    const p50Ratios = rounds.map((round) => round.create1.p50Ms / round.reference1.p50Ms);
    rows.push({
      name: "POST /api/v1/payments + Idempotency-Key, 1 conn",
      figure: rate(create1),
      bare: `${ratiosText(p50Ratios)} the reference's p50 (bare p50 ${bare1.p50Ms.toFixed(2)} ms)`,
      target: "p50 <= 1.2x",
      pass: median(p50Ratios) <= 1.2 && create1.nonSuccess === 0,
    });
    rows.push({
      name: "yardstick: reference server's create, 1 conn",
      figure: rate(reference1),
      bare: "",
      target: "",
      pass: null,
    });
    const get32 = medianOf(rounds.map((round) => round.get32));
    const getShares = shares(rounds, (round) => round.get32);
    rows.push({
      name: "GET /api/v1/payments/{id}, 32 conn",
      figure: rate(get32),
      bare: `${sharesText(getShares)} ${bare32.requestsPerSecond.toFixed(0)}`,
      target: ">= 12% of bare",
      pass: median(getShares) >= 12 && get32.nonSuccess === 0,
    });
    const health32 = medianOf(rounds.map((round) => round.health32));
    const healthShares = shares(rounds, (round) => round.health32);
    const chainUs = 1e6 / health32.requestsPerSecond - 1e6 / bare32.requestsPerSecond;
    rows.push({
      name: "GET /healthz (the middleware chain), 32 conn",
      figure: `${rate(health32)}, chain ${chainUs.toFixed(0)} us`,
      bare: `${sharesText(healthShares)} ${bare32.requestsPerSecond.toFixed(0)}`,
      target: ">= 35% of bare",
      pass: median(healthShares) >= 35 && health32.nonSuccess === 0,
    });
    const pageEn = medianOf(rounds.map((round) => round.pageEn32));
    const pagePl = medianOf(rounds.map((round) => round.pagePl32));
    rows.push({
      name: "GET /pay/{id} in English, 32 conn",
      figure: rate(pageEn),
      bare: `${sharesText(shares(rounds, (round) => round.pageEn32))} ${
        bare32.requestsPerSecond.toFixed(0)
      }`,
      target: "",
      pass: pageEn.nonSuccess === 0 ? null : false,
    });
    // Each round's Polish page against the same round's English page: the cost of a language.
    const polishCost = median(
      rounds.map((round) => round.pageEn32.requestsPerSecond / round.pagePl32.requestsPerSecond),
    );
    rows.push({
      name: "GET /pay/{id} in Polish, 32 conn",
      figure: rate(pagePl),
      bare: `${(polishCost * 100).toFixed(1)}% of the English page's time`,
      target: "<= 110% of English",
      pass: polishCost <= 1.1 && pagePl.nonSuccess === 0,
    });
    rows.push({
      name: "RSS idle / after the load above",
      figure: `${idleRss.toFixed(0)} MiB / ${loadedRss.toFixed(0)} MiB`,
      bare: `(${(6 * SECONDS * ROUNDS).toFixed(0)} s of load)`,
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
    let created = warmUp.statuses["201"] ?? 0;
    for (const round of rounds) {
      const creates = [["create 32", round.create32], ["create 1", round.create1]] as const;
      for (const [name, result] of creates) {
        created += result.statuses["201"] ?? 0;
        if (result.nonSuccess > 0) {
          console.log(`  ${name}: non-2xx ${JSON.stringify(result.statuses)}`);
        }
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
    await reference?.stop();
    await bare.stop();
    await Deno.remove(dataDir, { recursive: true });
    await Deno.remove(referenceDir, { recursive: true });
  }
}

if (import.meta.main) printRows(await benchApi());
