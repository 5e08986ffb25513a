import assert from "node:assert/strict";
import { compiledArgs, freePort, V8_FLAGS, waitForUrl } from "./support/processes.ts";

const root = new URL("../", import.meta.url).pathname;
const ENVIRONMENTS = ["sandbox", "production"] as const;

/** The compile task's commands, the type check first. */
async function compileTaskSteps(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${root}deno.json`));
  return (config.tasks.compile as string).split("&&").map((part) => part.trim());
}

/** The compile task's `deno compile` commands. */
async function compileTask(): Promise<string[]> {
  return (await compileTaskSteps()).filter((step) => step.startsWith("deno compile "));
}

Deno.test("[compile] the compile task type-checks both entries, then builds one binary per environment", async () => {
  const steps = await compileTaskSteps();
  // The binaries' heap bound would also bound the compiler's type check, which runs out of
  // memory under it: the check runs first, unbounded, and each compile skips its own.
  assert.equal(steps[0], "deno check bin/sandbox.ts bin/production.ts");
  const commands = await compileTask();
  assert.equal(steps.length, 3);
  assert.equal(commands.length, 2);
  ENVIRONMENTS.forEach((environment, index) => {
    const words = commands[index].split(/\s+/);
    assert.deepEqual(words.slice(0, 3), ["deno", "compile", "--no-check"]);
    for (
      const flag of [
        "--allow-net",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-ffi",
        "--allow-sys",
        "--unstable-cron",
        "--unstable-no-legacy-abort",
      ]
    ) {
      assert.ok(words.includes(flag), `${environment}: ${flag}`);
    }
    assert.equal(words[words.indexOf("--include") + 1], "static");
    assert.equal(words[words.indexOf("--output") + 1], `dist/paystead-${environment}`);
    assert.equal(words.at(-1), `bin/${environment}.ts`);
  });
});

Deno.test("[compile] no module loads a local file by a path computed at run time, but the fakes", async () => {
  const offenders: string[] = [];
  const dirs = ["lib", "db", "routes", "components", "islands", "bin"];
  const files = ["main.ts", "server.ts"];
  for (const dir of dirs) {
    for await (const entry of walk(`${root}${dir}`)) files.push(entry);
  }
  for (const file of files) {
    const lines = (await Deno.readTextFile(file.startsWith("/") ? file : `${root}${file}`))
      .split("\n");
    lines.forEach((line, index) => {
      // deno compile embeds a dynamic import() only when its specifier is a string literal.
      if (/\bimport\s*\(\s*(?!["'])/.test(line)) {
        offenders.push(`${file.replace(root, "")}:${index + 1}: ${line.trim()}`);
      }
    });
  }
  // The one such import on purpose: main.ts's runFake, so that the binaries embed no fake.
  assert.deepEqual(offenders.map((offender) => offender.replace(/:\d+:/, ":")), [
    "main.ts: const { runFakeCommand } = await import(fakes.href);",
  ]);
});

Deno.test("[compile] the binaries' module graphs hold nothing of fakes/", async () => {
  for (const entry of ["bin/sandbox.ts", "bin/production.ts", "main.ts"]) {
    const info = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", entry],
      cwd: root,
      stdout: "piped",
      stderr: "null",
    }).output();
    assert.ok(info.success);
    const graph = JSON.parse(new TextDecoder().decode(info.stdout)) as {
      modules: { specifier: string; dependencies?: { specifier: string }[] }[];
    };
    const fakes = graph.modules.flatMap((module) => [
      module.specifier,
      ...(module.dependencies ?? []).map((dependency) => dependency.specifier),
    ]).filter((specifier) =>
      specifier.startsWith(`file://${root}fakes/`) || /^(\.\.?\/)+fakes\//.test(specifier)
    );
    assert.deepEqual(fakes, [], entry);
  }
  // What main.ts's runFake builds its URL to, so the check above is not empty by a rename.
  assert.ok((await Deno.stat(`${root}fakes/cli.ts`)).isFile);
  assert.match(await Deno.readTextFile(`${root}main.ts`), /new URL\("\.\/fakes\/cli\.ts"/);
});

Deno.test("[compile] both binaries embed every worker module", async () => {
  const workers: string[] = [];
  for (const dir of ["lib", "db"]) {
    for await (const file of walk(`${root}${dir}`)) {
      const text = await Deno.readTextFile(file);
      for (const match of text.matchAll(/new Worker\(\s*new URL\(\s*["']([^"']+)["']/g)) {
        workers.push(new URL(match[1], `file://${file}`).pathname.slice(root.length));
      }
    }
  }
  assert.deepEqual(workers.sort(), ["db/wal_checkpoint_worker.ts", "lib/ops/backup_worker.ts"]);
  // deno compile leaves out worker modules unless they are included by name.
  for (const command of await compileTask()) {
    const words = command.split(/\s+/);
    const included = words.filter((_, i) => words[i - 1] === "--include");
    for (const worker of workers) assert.ok(included.includes(worker), `${worker} in ${command}`);
  }
});

async function* walk(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* walk(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

Deno.test("[compile] each binary's entry serves only the environment it was built for", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-bin-" });
  try {
    const run = (entry: "sandbox" | "production", env: Record<string, string>) =>
      new Deno.Command(Deno.execPath(), {
        args: compiledArgs(entry, ["migrate", "--data-dir", dataDir]),
        env,
        stdout: "piped",
        stderr: "piped",
      }).output();
    const refused = await run("production", { PAYSTEAD_ENV: "sandbox" });
    assert.equal(refused.code, 2);
    assert.equal(
      new TextDecoder().decode(refused.stderr).trim(),
      "This binary serves the production environment, but PAYSTEAD_ENV asks for 'sandbox'; run paystead-sandbox for that.",
    );
    const migrated = await run("production", {});
    assert.equal(migrated.code, 0);
    assert.equal(
      new TextDecoder().decode(migrated.stdout).trim(),
      `Migrated file:${dataDir}/accounts.db and file:${dataDir}/production.db.`,
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

const DENORT = Deno.env.get("DENORT_BIN");

Deno.test({
  name: DENORT
    ? "[compile] the compiled sandbox binary builds, starts and serves its embedded files"
    : "[compile] the compiled binaries (skipped: DENORT_BIN is not set, and deno compile cannot download its runtime from dl.deno.land on this machine)",
  ignore: !DENORT,
  sanitizeResources: false,
  async fn() {
    const build = await new Deno.Command(Deno.execPath(), {
      args: ["task", "compile"],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(build.code, 0, new TextDecoder().decode(build.stderr));
    const dataDir = await Deno.makeTempDir({ prefix: "paystead-compiled-" });
    const port = freePort();
    const child = new Deno.Command(`${root}dist/paystead-sandbox`, {
      args: ["serve", "--port", String(port), "--data-dir", dataDir],
      env: { LISTEN_HOST: "127.0.0.1" },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    try {
      const url = `http://127.0.0.1:${port}`;
      await waitForUrl(`${url}/healthz`);
      const island = await fetch(`${url}/static/islands.js`);
      assert.equal(island.status, 200);
      await island.body?.cancel();
      let output = "";
      const decoder = new TextDecoder();
      for await (const chunk of child.stdout) {
        output += decoder.decode(chunk, { stream: true });
        if (/API key:\s+sk_sandbox_\w+/.test(output)) break;
      }
      const key = /API key:\s+(sk_sandbox_\w+)/.exec(output)![1];
      const offers = await fetch(`${url}/api/v1/qr`, {
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(offers.status, 200);
      await offers.body?.cancel();
    } finally {
      child.kill("SIGKILL");
      await child.status;
      await Deno.remove(dataDir, { recursive: true });
    }
  },
});

Deno.test("[compile] modules loaded on first use are in the graph deno compile embeds", async () => {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "main.ts"],
    cwd: root,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(info.success);
  const graph = JSON.parse(new TextDecoder().decode(info.stdout)) as {
    modules: { specifier: string; dependencies?: { specifier: string; isDynamic?: boolean }[] }[];
  };
  const lazyImportsOf = (file: string) =>
    (graph.modules.find((module) => module.specifier.endsWith(file))?.dependencies ?? [])
      .filter((dependency) => dependency.isDynamic).map((dependency) => dependency.specifier)
      .sort();
  assert.deepEqual(lazyImportsOf("/lib/password_strength.ts"), [
    "./i18n/mod.ts",
    "@zxcvbn-ts/core",
    "@zxcvbn-ts/language-common",
    "@zxcvbn-ts/language-en",
    "@zxcvbn-ts/language-pl",
  ]);
  assert.deepEqual(lazyImportsOf("/lib/offer_codes.ts"), ["qrcode"]);
  assert.deepEqual(lazyImportsOf("/db/client.ts"), ["./remote_store.ts"]);
  assert.deepEqual(lazyImportsOf("/routes/app.ts"), [
    "./checkout.tsx",
    "./panel/mod.tsx",
    "./pay.tsx",
    "./sandbox_inbox.ts",
  ]);
  assert.deepEqual(lazyImportsOf("/lib/exports/xlsx.ts"), ["exceljs", "node:stream"]);
  assert.deepEqual(lazyImportsOf("/lib/webhooks/delivery/sender.ts"), ["./pinned_request.ts"]);
  assert.deepEqual(lazyImportsOf("/lib/exports/csv.ts"), ["csv-stringify"]);
  assert.deepEqual(lazyImportsOf("/lib/reconciliations/statement.ts"), ["csv-parse/stream"]);
  assert.deepEqual(lazyImportsOf("/routes/error_pages.ts"), ["./error_page.tsx"]);
  assert.deepEqual(lazyImportsOf("/lib/emails/sender.ts"), ["./render.tsx"]);
  assert.deepEqual(lazyImportsOf("/lib/emails/mailer.ts"), ["nodemailer"]);
  assert.deepEqual(lazyImportsOf("/lib/ops/offsite_store.ts"), [
    "@aws-sdk/client-s3",
    "@aws-sdk/lib-storage",
  ]);
  assert.deepEqual(lazyImportsOf("/lib/ops/encryption.ts"), ["age-encryption"]);
  assert.deepEqual(lazyImportsOf("/main.ts"), [
    "./lib/cli/mod.ts",
    "./lib/config_transfer/describe.ts",
    "./lib/config_transfer/export.ts",
    "./lib/config_transfer/format.ts",
    "./lib/config_transfer/import.ts",
    "./lib/ops/commands.ts",
  ]);
});

Deno.test("[compile] the binaries, deno task start and the test servers share the V8 flags", async () => {
  const config = JSON.parse(await Deno.readTextFile(`${root}deno.json`));
  // The heap bounds, and the collector the server calls once its start is done.
  assert.equal(
    V8_FLAGS,
    "--v8-flags=--max-semi-space-size=8,--max-old-space-size=160,--expose-gc",
  );
  assert.ok((config.tasks.start as string).split(/\s+/).includes(V8_FLAGS));
  for (const command of await compileTask()) assert.ok(command.split(/\s+/).includes(V8_FLAGS));
});
