/**
 * Reconciling a statement of 10 MiB (about 218,000 purchases of unknown orders, the kind of
 * upload that ran a process out of memory in issue 43) in a sandbox process started with the
 * start task's flags: how long it takes and how far it grows the process's resident memory
 * (sampled every 50 ms, against the figure just before), twice: the first also loads csv-parse.
 * `deno task bench`, or alone: `deno run -A bench/statements.ts`.
 */
import { unknownOrdersStatement } from "../tests/support/payu_statement.ts";
import { demoApiKey, startPaystead } from "../tests/support/processes.ts";
import type { BenchRow } from "./api.ts";
import { rssMiB } from "./exports.ts";

const TARGET_MIB = 60;

async function reconcileOnce(
  url: string,
  key: string,
  pid: number,
  body: Uint8Array<ArrayBuffer>,
): Promise<{ seconds: number; growthMiB: number }> {
  const idle = await rssMiB(pid);
  let peak = idle;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, await rssMiB(pid));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${url}/api/v1/reconciliations`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "text/csv" },
    body,
  });
  if (response.status !== 201) throw new Error(`reconciliation: ${response.status}`);
  await response.body?.cancel();
  const seconds = (performance.now() - started) / 1000;
  running = false;
  await sampler;
  return { seconds, growthMiB: peak - idle };
}

/** The statement row of the bench table. */
export async function benchStatements(): Promise<BenchRow[]> {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-statements-" });
  const server = await startPaystead(dataDir);
  try {
    const key = await demoApiKey(server);
    const { body, lines } = unknownOrdersStatement(10 * 1024 * 1024);
    const first = await reconcileOnce(server.url, key, server.process.pid, body);
    const again = await reconcileOnce(server.url, key, server.process.pid, body);
    return [{
      name: `statement of 10 MiB (${lines} lines)`,
      figure: `${first.seconds.toFixed(1)}, ${again.seconds.toFixed(1)} s; RSS +${
        first.growthMiB.toFixed(1)
      }, +${again.growthMiB.toFixed(1)} MiB`,
      bare: "first (csv-parse loaded), then again",
      target: `RSS growth again <= ${TARGET_MIB} MiB`,
      pass: again.growthMiB <= TARGET_MIB,
    }];
  } finally {
    await server.stop("SIGTERM");
    await Deno.remove(dataDir, { recursive: true });
  }
}

if (import.meta.main) {
  const { printRows } = await import("./api.ts");
  printRows(await benchStatements());
}
