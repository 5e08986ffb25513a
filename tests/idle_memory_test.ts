import assert from "node:assert/strict";
import { shippedFlags, startPaystead } from "./support/processes.ts";

const root = new URL("../", import.meta.url).pathname;
const COLLECTED = "collected the start's garbage";

Deno.test("[idle] the start task resolves a dynamic import when it runs; the binaries embed them all", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${root}deno.json`));
  // A server then neither reads nor holds the pages' modules and the large packages (their
  // npm metadata alone was 4-6 MiB) until a request needs them; no code cache: V8 then compiles
  // only the functions that run instead of every one the cache held (issue 34, idle memory).
  const start = shippedFlags("start");
  assert.ok(start.includes("--unstable-lazy-dynamic-imports"));
  assert.ok(start.includes("--no-code-cache"));
  // deno compile leaves a lazily loaded import out of the binary: never for the compile task,
  // nor for every command through deno.json.
  assert.ok(!(config.unstable as string[]).includes("lazy-dynamic-imports"));
  assert.doesNotMatch(config.tasks.compile, /lazy-dynamic-imports/);
});

Deno.test("[idle] a server collects its start's garbage once", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-idle-" });
  const server = await startPaystead(dataDir, { PAYSTEAD_ENV: "sandbox", LOG_LEVEL: "info" });
  try {
    const health = await fetch(`${server.url}/healthz`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
  } finally {
    await server.stop("SIGTERM");
    await Deno.remove(dataDir, { recursive: true });
  }
  const lines = server.logs().split("\n").filter((line) => line.includes(COLLECTED))
    .map((line) => JSON.parse(line));
  assert.equal(lines.length, 1);
  assert.equal(lines[0].level, "info");
  assert.equal(typeof lines[0].ms, "number");
  // The last-resort collection gives back the young generation the start grew (a plain major
  // collection keeps it): about 6-8 MiB of a 28 MiB heap.
  assert.ok(lines[0].freedMiB >= 3, `freed ${lines[0].freedMiB} MiB`);
  assert.ok(lines[0].heapMiB < 28, `heap ${lines[0].heapMiB} MiB`);
});
