/**
 * Resident memory of a production process started as the start task starts it (issue 34's "Idle
 * RSS"), RUNS times (3 by default), with the medians: idle after an offer, a create and its read;
 * after the first customer's page (the hosted page's surface loads then); and after BENCH_SECONDS
 * (10 by default) of creates at 32 connections followed as long of hosted pages:
 * `deno run --allow-net --allow-read --allow-write --allow-env --allow-ffi --allow-sys --allow-run bench/idle_memory.ts`.
 */
import { productionApiKey, startPaystead } from "../tests/support/processes.ts";
import { offerCreates, rssMiB } from "./api.ts";
import { runWrk } from "./wrk.ts";

const RUNS = Number(Deno.env.get("RUNS") ?? 3);
const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 10);
/** Lets the start's garbage be collected before the idle figure, as a process at rest would. */
const SETTLE_MS = 2_000;

interface Figures {
  idle: number;
  firstPage: number;
  loaded: number;
}

async function once(): Promise<Figures> {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-idle-memory-" });
  const key = await productionApiKey(dataDir);
  const server = await startPaystead(dataDir, { PAYSTEAD_ENV: "production" });
  try {
    const { headers, body } = await offerCreates(key, server.url);
    const payment = await (await fetch(`${server.url}/api/v1/payments`, {
      method: "POST",
      headers,
      body,
    })).json();
    await (await fetch(`${server.url}/api/v1/payments/${payment.paymentId}`, { headers })).text();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const idle = await rssMiB(server.process.pid);
    const pageUrl = `${server.url}/pay/${payment.paymentId}`;
    const page = await fetch(pageUrl, { headers: { Accept: "text/html" } });
    if (page.status !== 200) throw new Error(`the hosted page answered ${page.status}`);
    await page.text();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const firstPage = await rssMiB(server.process.pid);
    const creates = await runWrk({
      url: `${server.url}/api/v1/payments`,
      method: "POST",
      body,
      headers,
      uniqueIdempotencyKey: true,
      connections: 32,
      seconds: SECONDS,
    });
    const pages = await runWrk({
      url: pageUrl,
      connections: 32,
      seconds: SECONDS,
      headers: { Accept: "text/html" },
    });
    if (creates.nonSuccess > 0 || pages.nonSuccess > 0) {
      throw new Error(`non-2xx answers under load: ${creates.nonSuccess}, ${pages.nonSuccess}`);
    }
    const loaded = await rssMiB(server.process.pid);
    console.log(
      `  idle ${idle.toFixed(1)} MiB, after the first page ${firstPage.toFixed(1)} MiB, after ` +
        `${creates.statuses["201"] ?? 0} creates and ${pages.statuses["200"] ?? 0} pages ` +
        `${loaded.toFixed(1)} MiB`,
    );
    return { idle, firstPage, loaded };
  } finally {
    await server.stop("SIGTERM");
    await Deno.remove(dataDir, { recursive: true });
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

console.log(`Production process RSS, ${RUNS} runs, ${SECONDS} s of creates then of pages`);
const runs: Figures[] = [];
for (let run = 0; run < RUNS; run++) runs.push(await once());
console.log(
  `median: idle ${median(runs.map((run) => run.idle)).toFixed(1)} MiB (target <= 80), after ` +
    `the first page ${median(runs.map((run) => run.firstPage)).toFixed(1)} MiB, after the load ` +
    `${median(runs.map((run) => run.loaded)).toFixed(1)} MiB (target <= 150)`,
);
