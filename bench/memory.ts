/**
 * Where a production process's resident memory goes, idle and after creates under wrk, by
 * mapping (`/proc/<pid>/smaps`): the Deno binary, the native libsql library, the V8 heap and
 * malloc's arenas (anonymous), and how many bytes of the anonymous memory lie in 64 MiB arenas.
 * Runs once as configured and once with `MALLOC_ARENA_MAX=2`:
 * `deno run -A bench/memory.ts`.
 */
import { productionApiKey, startPaystead } from "../tests/support/processes.ts";
import { offerCreates } from "./api.ts";
import { runWrk } from "./wrk.ts";

const SECONDS = Number(Deno.env.get("BENCH_SECONDS") ?? 10);

/** Resident KiB per mapping name: a file's base name, or `[anon]`, `[heap]`, `[stack]`. */
async function residentByMapping(pid: number): Promise<Map<string, number>> {
  const text = await Deno.readTextFile(`/proc/${pid}/smaps`);
  const totals = new Map<string, number>();
  let name = "";
  for (const line of text.split("\n")) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const path = header[1].trim();
      name = path === "" ? "[anon]" : path.startsWith("[") ? path : path.split("/").at(-1)!;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) totals.set(name, (totals.get(name) ?? 0) + Number(rss[1]));
  }
  return totals;
}

function describe(totals: Map<string, number>): string {
  const all = [...totals.values()].reduce((sum, kib) => sum + kib, 0);
  const top = [...totals].sort((a, b) => b[1] - a[1]).slice(0, 5)
    .map(([name, kib]) => `${name} ${(kib / 1024).toFixed(1)}`);
  return `${(all / 1024).toFixed(0)} MiB (${top.join(", ")})`;
}

async function measure(label: string, env: Record<string, string>): Promise<void> {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-memory-" });
  const key = await productionApiKey(dataDir);
  const server = await startPaystead(dataDir, { PAYSTEAD_ENV: "production", ...env });
  try {
    const { headers, body } = await offerCreates(key, server.url);
    const idle = await residentByMapping(server.process.pid);
    const load = await runWrk({
      url: `${server.url}/api/v1/payments`,
      method: "POST",
      body,
      headers,
      uniqueIdempotencyKey: true,
      connections: 32,
      seconds: SECONDS,
    });
    const loaded = await residentByMapping(server.process.pid);
    console.log(`${label}`);
    console.log(`  idle    ${describe(idle)}`);
    console.log(
      `  loaded  ${describe(loaded)} after ${load.statuses["201"] ?? 0} creates in ${SECONDS} s`,
    );
  } finally {
    await server.stop("SIGTERM");
    await Deno.remove(dataDir, { recursive: true });
  }
}

const VARIANTS: Record<string, Record<string, string>> = JSON.parse(
  Deno.env.get("MEMORY_VARIANTS") ?? '{"as configured":{}}',
);
console.log("Resident MiB by mapping (largest five, MiB)");
for (const [label, env] of Object.entries(VARIANTS)) await measure(label, env);
