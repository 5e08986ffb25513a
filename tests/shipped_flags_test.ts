import assert from "node:assert/strict";
import { compiledArgs, shippedArgs } from "./support/processes.ts";

const root = new URL("../", import.meta.url).pathname;
const ALL = /(["'`])(-A|--allow-all)\1/;
/** Names a Paystead entry point: main.ts or one of the binaries' bin/*.ts. */
const PRODUCT = /\bmain\.ts\b|(^|[^/\w])bin\/[^"'`\s]*\.ts\b/;
/** Runs what it names (`deno info main.ts` only reads it). */
const RUN = /(["'`])run\1/;
const HELPER = /\b(shippedArgs|compiledArgs)\(/;

/** The text of every `new Deno.Command(...)` call in `source`, with its line. */
function commandCalls(source: string): { line: number; text: string }[] {
  const calls: { line: number; text: string }[] = [];
  for (const match of source.matchAll(/new Deno\.Command\(/g)) {
    let depth = 0;
    let end = match.index;
    for (; end < source.length; end++) {
      if (source[end] === "(") depth++;
      if (source[end] === ")" && --depth === 0) break;
    }
    calls.push({
      line: source.slice(0, match.index).split("\n").length,
      text: source.slice(match.index, end + 1),
    });
  }
  return calls;
}

/**
 * Why a spawn is not the product as shipped: it names main.ts or bin/*.ts itself (the task's flags
 * come only from shippedArgs / compiledArgs), or it adds every permission to a product process.
 */
function offence(text: string): string | null {
  if (ALL.test(text) && (PRODUCT.test(text) || HELPER.test(text))) {
    return "runs Paystead with every permission";
  }
  if (PRODUCT.test(text) && RUN.test(text) && !HELPER.test(text)) {
    return "runs Paystead with flags of its own, not shippedArgs / compiledArgs";
  }
  return null;
}

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

Deno.test("[shipped] no test or benchmark runs Paystead with --allow-all or flags of its own", async () => {
  const offenders: string[] = [];
  for (const dir of ["tests", "bench"]) {
    for await (const path of sources(`${root}${dir}`)) {
      // This file plants offences to prove the scan sees them.
      if (path === new URL(import.meta.url).pathname) continue;
      for (const call of commandCalls(await Deno.readTextFile(path))) {
        const why = offence(call.text);
        if (why) offenders.push(`${path.slice(root.length)}:${call.line} ${why}`);
      }
    }
  }
  assert.deepEqual(offenders, []);
});

Deno.test("[shipped] the scan sees a product process spawned with every permission", () => {
  // Written with placeholders, so this file is no spawn of that kind itself to a text search.
  const planted = [
    'new Deno.Command(Deno.execPath(), { args: ["run", "SHORT", `${root}main.ts`, "migrate"] })',
    'new Deno.Command(Deno.execPath(), { args: ["run", "LONG", `${root}bin/${entry}.ts`] })',
    'new Deno.Command(Deno.execPath(), { args: ["run", "SHORT", ...shippedArgs("cli", []).slice(1)] })',
    'new Deno.Command(Deno.execPath(), { args: ["run", "--allow-read", "main.ts", "serve"] })',
  ].join("\n").replaceAll("SHORT", "-" + "A").replaceAll("LONG", "--allow-" + "all");
  assert.deepEqual(commandCalls(planted).map((call) => [call.line, offence(call.text)]), [
    [1, "runs Paystead with every permission"],
    [2, "runs Paystead with every permission"],
    [3, "runs Paystead with every permission"],
    [4, "runs Paystead with flags of its own, not shippedArgs / compiledArgs"],
  ]);
  // A tool the tests run with every permission is not Paystead.
  assert.equal(offence('new Deno.Command(Deno.execPath(), { args: ["run", "-A", SETUP] })'), null);
});

Deno.test("[shipped] the tasks that run Paystead name each permission, and the helpers use them", async () => {
  const tasks = JSON.parse(await Deno.readTextFile(`${root}deno.json`)).tasks as Record<
    string,
    string
  >;
  for (const name of ["start", "dev", "cli", "compile"]) {
    assert.doesNotMatch(tasks[name], /(^|\s)(-A|--allow-all)(\s|$)/, name);
  }
  const start = shippedArgs("start", ["--port", "1"]);
  assert.equal(
    start.join(" "),
    tasks.start.replace(/^DENO_NO_UPDATE_CHECK=1 deno /, "").replace("main.ts", `${root}main.ts`) +
      " --port 1",
  );
  const cli = shippedArgs("cli", ["migrate"]);
  assert.equal(
    cli.join(" "),
    tasks.cli.replace(/^deno /, "").replace("main.ts", `${root}main.ts`) + " migrate",
  );
  const production = compiledArgs("production", ["migrate"]);
  assert.deepEqual(production.slice(-2), [`${root}bin/production.ts`, "migrate"]);
  for (const flag of ["--allow-net", "--allow-ffi", "--unstable-cron"]) {
    assert.ok(production.includes(flag), flag);
  }
  assert.ok(!production.includes("--include") && !production.includes("--output"));
});
