import { PAYU_SANDBOX_POS } from "../../fakes/payu/mod.ts";
/** Runs Paystead and baseline servers as child processes on 127.0.0.1 (crash tests, benchmarks). */

/** A free TCP port on 127.0.0.1. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/**
 * Waits until `url` answers with a response `accept` takes, or throws after `timeoutMs`; stops
 * polling once `signal` aborts.
 */
export async function waitForUrl(
  url: string,
  timeoutMs = 30_000,
  accept: (response: Response) => boolean = () => true,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !signal?.aborted) {
    try {
      const response = await fetch(url);
      await response.body?.cancel();
      if (accept(response)) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** A child that exited before it answered, with what it printed on stderr. */
export class ChildExitedError extends Error {
  constructor(readonly code: number, readonly logs: string) {
    super(`the child exited with code ${code} before it answered: ${logs.slice(-500)}`);
  }
}

/** A running child server. */
export interface ChildServer {
  url: string;
  port: number;
  process: Deno.ChildProcess;
  /** Everything the process printed on stdout so far. */
  output(): string;
  /** Everything the process printed on stderr so far (its JSON log lines). */
  logs(): string;
  stop(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
  /** Resolves when the process has exited and everything it printed has been read. */
  exited(): Promise<Deno.CommandStatus>;
}

const root = new URL("../../", import.meta.url).pathname;

/** The `deno.json` tasks that run a Paystead process, each standing for a way it ships. */
export type ShippedTask = "start" | "cli";

const TASKS = JSON.parse(Deno.readTextFileSync(`${root}deno.json`)).tasks as Record<string, string>;

/**
 * The flags `deno task <task>` runs `main.ts` with (permissions and V8 flags), read from
 * `deno.json`: a test runs the product under what ships, never `--allow-all`, so a thing that only
 * works with every permission fails here as it would for a merchant.
 */
export function shippedFlags(task: ShippedTask): string[] {
  const words = TASKS[task].split(/\s+/);
  const flags = words.slice(words.indexOf("run") + 1, words.indexOf("main.ts"));
  if (flags.some((flag) => flag === "-A" || flag === "--allow-all")) {
    throw new Error(`the ${task} task grants every permission; it must name each one`);
  }
  return flags;
}

/**
 * The variables `deno task <task>` sets for `deno` (its leading `NAME=value` words): a test runs
 * the product with them too.
 */
export function shippedEnv(task: ShippedTask): Record<string, string> {
  const words = TASKS[task].split(/\s+/);
  return Object.fromEntries(
    words.slice(0, words.indexOf("deno")).map((word) => {
      const at = word.indexOf("=");
      return [word.slice(0, at), word.slice(at + 1)];
    }),
  );
}

/** The arguments that run `deno task <task> <args>` (the start task's `serve` included). */
export function shippedArgs(task: ShippedTask, args: string[]): string[] {
  const words = TASKS[task].split(/\s+/);
  const commands = words.slice(words.indexOf("main.ts") + 1);
  return ["run", ...shippedFlags(task), `${root}main.ts`, ...commands, ...args];
}

/**
 * The arguments that run `bin/<environment>.ts <args>` with the flags `deno task compile` builds
 * that environment's binary with (permissions, V8 and unstable flags; not its --include/--output).
 */
export function compiledArgs(environment: "sandbox" | "production", args: string[]): string[] {
  const entry = `bin/${environment}.ts`;
  const words = TASKS.compile.split("&&").map((part) => part.trim().split(/\s+/))
    .find((command) => command[1] === "compile" && command.at(-1) === entry);
  if (!words) throw new Error(`the compile task builds no binary from ${entry}`);
  const flags = words.slice(words.indexOf("compile") + 1, -1).filter((word, i, all) =>
    word !== "--include" && word !== "--output" && all[i - 1] !== "--include" &&
    all[i - 1] !== "--output"
  );
  if (flags.some((flag) => flag === "-A" || flag === "--allow-all")) {
    throw new Error(`the compile task grants ${entry} every permission; it must name each one`);
  }
  return ["run", ...flags, `${root}${entry}`, ...args];
}

/** The V8 flags `deno task start` runs with (the heap bounds): benchmarks use them too. */
export const V8_FLAGS = shippedFlags("start").find((flag) => flag.startsWith("--v8-flags=")) ??
  "";

/**
 * Production's PayU settings in tests: PayU's public sandbox POS, which the fake PayU accepts.
 * A production process needs a real provider to start; tests that reach PayU override the URL.
 */
export const PAYU_TEST_ENV: Record<string, string> = {
  PAYMENT_PROVIDER: "payu",
  PAYU_API_URL: "https://secure.snd.payu.com",
  PAYU_POS_ID: PAYU_SANDBOX_POS.posId,
  PAYU_CLIENT_ID: PAYU_SANDBOX_POS.clientId,
  PAYU_CLIENT_SECRET: PAYU_SANDBOX_POS.clientSecret,
  PAYU_SECOND_KEY: PAYU_SANDBOX_POS.secondKey,
};

/** Paystead answers every request with a Request-Id: another test's server on the port does not. */
function isPaystead(response: Response): boolean {
  return response.headers.has("request-id");
}

/**
 * Starts `main.ts serve` on a free port with the given data directory and variables.
 * NOTE: test files run in parallel, so a port `freePort` found may be taken by another test's
 * server before the child binds it; then the child exits and another port is tried.
 */
export async function startPaystead(
  dataDir: string,
  env: Record<string, string> = {},
  port?: number,
): Promise<ChildServer> {
  for (let attempt = 1;; attempt++) {
    const chosen = port ?? freePort();
    try {
      return await startChild(
        paysteadCommand(dataDir, env, chosen),
        chosen,
        "/healthz",
        isPaystead,
      );
    } catch (error) {
      const taken = error instanceof ChildExitedError && /already in use/.test(error.logs);
      if (!taken || port !== undefined || attempt === 3) throw error;
    }
  }
}

/** The command that serves Paystead from `main.ts` on `port` (benchmarks time its start). */
export function paysteadCommand(
  dataDir: string,
  env: Record<string, string>,
  port: number,
): Deno.Command {
  return new Deno.Command(Deno.execPath(), {
    args: shippedArgs("start", ["--port", String(port), "--data-dir", dataDir]),
    env: {
      ...shippedEnv("start"),
      LOG_LEVEL: "warn",
      LISTEN_HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // Load and crash tests send thousands of requests with one key; they measure other things.
      RATE_LIMIT_PER_SECOND: "1000000",
      // Tests run many servers at once; the one that checks the metrics listener sets its own.
      METRICS_LISTEN: "off",
      ...(env.PAYSTEAD_ENV === "production" && PAYU_TEST_ENV),
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
    cwd: root,
  });
}

/**
 * Starts `main.ts serve` like `startPaystead`, under a shell's `ulimit -n fileLimit`: the process
 * can hold at most that many open files and sockets.
 */
export async function startPaysteadWithFileLimit(
  dataDir: string,
  fileLimit: number,
  env: Record<string, string> = {},
  port = freePort(),
): Promise<ChildServer> {
  const serve = [Deno.execPath()]
    .concat(shippedArgs("start", ["--port", String(port), "--data-dir", dataDir])).map((arg) =>
      `'${arg.replaceAll("'", "'\\''")}'`
    ).join(" ");
  const command = new Deno.Command("sh", {
    args: ["-c", `ulimit -n ${fileLimit} && exec ${serve}`],
    env: {
      LOG_LEVEL: "warn",
      LISTEN_HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
    cwd: root,
  });
  return await startChild(command, port, "/healthz");
}

/** Starts a bare `Deno.serve` hello-world: the baseline every figure is a ratio of. */
export async function startBareServer(port = freePort()): Promise<ChildServer> {
  const code =
    `Deno.serve({ port: ${port}, hostname: "127.0.0.1", onListen() {} }, () => new Response("Hello, world"));`;
  const command = new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "piped",
    stderr: "piped",
  });
  return await startChild(command, port, "/");
}

/**
 * Spawns `command` and resolves once `readyPath` on `port` answers as `accept` expects; throws
 * ChildExitedError if the child exits first.
 */
export async function startChild(
  command: Deno.Command,
  port: number,
  readyPath: string,
  accept?: (response: Response) => boolean,
): Promise<ChildServer> {
  const process = command.spawn();
  let output = "";
  let logs = "";
  const readers = Promise.all([
    (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of process.stdout) output += decoder.decode(chunk, { stream: true });
    })().catch(() => {}),
    (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of process.stderr) logs += decoder.decode(chunk, { stream: true });
    })().catch(() => {}),
  ]);
  const url = `http://127.0.0.1:${port}`;
  const polling = new AbortController();
  const exit = process.status.then((status) => status);
  const ready = waitForUrl(url + readyPath, 30_000, accept, polling.signal).then(() => null);
  const exitedFirst = await Promise.race([ready, exit]).finally(() => polling.abort());
  if (exitedFirst) {
    await ready.catch(() => {});
    await readers;
    throw new ChildExitedError(exitedFirst.code, logs);
  }
  return {
    url,
    port,
    process,
    output: () => output,
    logs: () => logs,
    async exited() {
      const status = await process.status;
      await readers;
      return status;
    },
    async stop(signal: Deno.Signal = "SIGTERM") {
      try {
        process.kill(signal);
      } catch {
        // already gone
      }
      return await process.status;
    },
  };
}

/** The demo API key printed at first start. */
export async function demoApiKey(server: ChildServer): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const match = /API key:\s+(sk_sandbox_\w+)/.exec(server.output());
    if (match) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the server did not print a demo API key");
}

/** Runs a CLI command (`main.ts <args>`) to completion; returns its exit code and output. */
export async function runCli(args: string[], env: Record<string, string> = {}) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: shippedArgs("cli", args),
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/**
 * Runs a compiled binary's command (`paystead-<environment> <args>`) to completion, from its
 * entry with the compile task's flags; returns its exit code and output.
 */
export async function runBinary(
  environment: "sandbox" | "production",
  args: string[],
  env: Record<string, string> = {},
) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: compiledArgs(environment, args),
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/** Creates an organisation and a production API key in `dataDir` through the CLI. */
export async function productionApiKey(dataDir: string): Promise<string> {
  const env = { DATA_DIR: dataDir, PAYSTEAD_ENV: "production" };
  const org = await runCli(
    ["org", "create", "--slug", "bench", "--name", "Bench", "--plan", "PRO"],
    env,
  );
  if (org.code !== 0) throw new Error(org.stderr);
  const key = await runCli(["key", "create", "--org", "bench"], env);
  const secret = /(sk_production_[0-9A-Za-z]{32})/.exec(key.stdout)?.[1];
  if (!secret) throw new Error(`no key in: ${key.stdout} ${key.stderr}`);
  return secret;
}
