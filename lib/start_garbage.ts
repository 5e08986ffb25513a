import type { Logger } from "./log.ts";

/** V8's collector, on the global object when the process runs with `--v8-flags=--expose-gc`. */
type ExposedGc = (options: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void;

/**
 * Collects the start's garbage once, before the first request: module evaluation, migrations
 * and building the routes leave the young generation grown to its bound and old pages holding
 * garbage, which V8's memory reducer gives back only after tens of seconds at rest. A
 * "last-resort" collection also shrinks the young generation: 8-9 MiB of an idle process
 * (issue 34), for 40-200 ms at start. Without `--expose-gc` (`deno task cli serve`) it does
 * nothing.
 */
export function collectStartGarbage(log: Logger): void {
  const gc = (globalThis as { gc?: ExposedGc }).gc;
  if (!gc) return;
  const started = performance.now();
  const before = Deno.memoryUsage().heapTotal;
  gc({ type: "major", execution: "sync", flavor: "last-resort" });
  const trimmed = returnFreedMalloc();
  log.info("collected the start's garbage", {
    ms: Math.round(performance.now() - started),
    heapMiB: Math.round(Deno.memoryUsage().heapTotal / 2 ** 20),
    freedMiB: Math.round((before - Deno.memoryUsage().heapTotal) / 2 ** 20),
    mallocTrimmed: trimmed,
  });
}

/**
 * Gives the pages malloc freed during the start back to the system (glibc's `malloc_trim`):
 * loading the modules leaves them in its arenas, about 0.7 MiB of an idle process. Whether it
 * ran: not where there is no glibc.
 */
function returnFreedMalloc(): boolean {
  try {
    const libc = Deno.dlopen("libc.so.6", {
      malloc_trim: { parameters: ["usize"], result: "i32" },
    });
    try {
      libc.symbols.malloc_trim(0n);
      return true;
    } finally {
      libc.close();
    }
  } catch {
    return false;
  }
}
