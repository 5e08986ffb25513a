/**
 * What this disk allows a durable write: the latency of `fdatasync` after an 80 KiB append (about
 * a batch of creates' WAL frames), alone and while another file takes random 4 KiB page writes and
 * an fsync per thousand (what a WAL checkpoint does). A 1-connection create waits for one such
 * flush at least, so its p50 cannot be below this one's.
 * `deno run -A bench/disk.ts` (FLUSHES, default 3000).
 */
const FLUSHES = Number(Deno.env.get("FLUSHES") ?? 3000);
const APPEND = new Uint8Array(80 * 1024).fill(120);
const PAGE = new Uint8Array(4096).fill(121);
const PAGES = 20_000;

/** Milliseconds of each fdatasync after an append, sorted. */
async function flushLatencies(path: string): Promise<number[]> {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const latencies: number[] = [];
  try {
    for (let i = 0; i < FLUSHES; i++) {
      await file.write(APPEND);
      const started = performance.now();
      await file.syncData();
      latencies.push(performance.now() - started);
    }
  } finally {
    file.close();
  }
  return latencies.sort((a, b) => a - b);
}

/** Random page writes and an fsync per thousand, until `stop` is aborted. */
async function checkpointLike(path: string, stop: AbortSignal): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true });
  try {
    while (!stop.aborted) {
      for (let i = 0; i < 1000; i++) {
        await file.seek(Math.floor(Math.random() * PAGES) * PAGE.length, Deno.SeekMode.Start);
        await file.write(PAGE);
      }
      await file.sync();
    }
  } finally {
    file.close();
  }
}

function describe(latencies: number[]): string {
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  return `p50 ${at(0.5).toFixed(2)} ms, p90 ${at(0.9).toFixed(2)}, p99 ${at(0.99).toFixed(2)}, ` +
    `max ${latencies[latencies.length - 1].toFixed(2)}`;
}

// On the repository's disk, where the data directory is by default (/tmp may be in memory).
const cache = new URL("../.cache/", import.meta.url).pathname;
await Deno.mkdir(cache, { recursive: true });
const dir = await Deno.makeTempDir({ dir: cache });
try {
  console.log(`fdatasync after an 80 KiB append, ${FLUSHES} times`);
  console.log(
    `  alone:                             ${describe(await flushLatencies(`${dir}/wal`))}`,
  );
  const stop = new AbortController();
  const checkpoint = checkpointLike(`${dir}/db`, stop.signal);
  const beside = await flushLatencies(`${dir}/wal`);
  stop.abort();
  await checkpoint;
  console.log(`  beside checkpoint-like page writes: ${describe(beside)}`);
} finally {
  await Deno.remove(dir, { recursive: true });
}
