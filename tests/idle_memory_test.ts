import assert from "node:assert/strict";
import { loadConfig } from "../lib/config.ts";
import { PAYU_TEST_ENV, shippedEnv, shippedFlags, startPaystead } from "./support/processes.ts";

const root = new URL("../", import.meta.url).pathname;
const COLLECTED = "collected the start's garbage";

Deno.test("[idle] the start task resolves a dynamic import when it runs; the binaries embed every literal one", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${root}deno.json`));
  // A server then neither reads nor holds the pages' modules and the large packages until a
  // request needs them (the S3 SDK's npm metadata alone is about 4 MiB, kept for the process's
  // life); without the code cache V8 compiles the functions that run, not every one the cache
  // held (issue 34, idle memory).
  const start = shippedFlags("start");
  assert.ok(start.includes("--unstable-lazy-dynamic-imports"));
  assert.ok(start.includes("--no-code-cache"));
  // deno compile --no-check under the flag builds its graph without the dynamic imports, and
  // the binary would lack those modules: it is in neither the compile task nor deno.json's
  // unstable list, which every command reads. (fakes/ is left out on purpose, by a URL built at
  // run time: tests/compile_test.ts.)
  assert.ok(!(config.unstable as string[]).includes("lazy-dynamic-imports"));
  assert.doesNotMatch(config.tasks.compile, /lazy-dynamic-imports/);
});

Deno.test("[idle] the start task runs deno without its update check", () => {
  // Otherwise each start of `deno run` resolves dl.deno.land and loads the system's CA
  // certificates and TLS code, held for the process's life (about 1 MiB; at every start where the
  // check cannot finish, once a day where it can): a payment server has no reason to call out.
  // The compiled binaries make no such check.
  assert.deepEqual(shippedEnv("start"), { DENO_NO_UPDATE_CHECK: "1" });
});

Deno.test("[idle] a server collects its start's garbage once and gives malloc's freed pages back", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-idle-" });
  const server = await startPaystead(dataDir, { PAYSTEAD_ENV: "sandbox", LOG_LEVEL: "info" });
  try {
    // The test servers run as the start task runs them: without Deno's update check.
    const environ = await Deno.readTextFile(`/proc/${server.process.pid}/environ`);
    assert.ok(environ.split("\0").includes("DENO_NO_UPDATE_CHECK=1"));
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
  // And malloc gives back what loading the modules freed (glibc, as on this machine).
  assert.equal(lines[0].mallocTrimmed, true);
});

Deno.test("[idle] a start's configuration builds no Intl formatter; a wrong value's message may", () => {
  // The first Intl formatter of a process loads ICU's locale data and code: about 4 MiB that an
  // idle server held for good when the configuration made its PAYMENT_PROVIDER message (issue 34).
  const made: string[] = [];
  const intl = Intl as unknown as Record<string, new (...args: unknown[]) => object>;
  const kinds = ["ListFormat", "NumberFormat", "DateTimeFormat", "PluralRules"];
  const originals = kinds.map((kind) => intl[kind]);
  kinds.forEach((kind, i) => {
    intl[kind] = new Proxy(originals[i], {
      construct(target, args) {
        made.push(kind);
        return Reflect.construct(target, args);
      },
    });
  });
  try {
    loadConfig({});
    loadConfig({ PAYSTEAD_ENV: "production", ...PAYU_TEST_ENV });
    assert.deepEqual(made, []);
    assert.throws(() => loadConfig({ PAYMENT_PROVIDER: "stripe" }), /must be sandbox or payu/);
    assert.deepEqual(made, ["ListFormat"]);
  } finally {
    kinds.forEach((kind, i) => intl[kind] = originals[i]);
  }
});
