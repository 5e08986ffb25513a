/** Runs a fake acquirer's command (`main.ts fake-payu`, `fake-p24`) as a child process. */
import { freePort, shippedArgs, waitForUrl } from "./processes.ts";

const root = new URL("../../", import.meta.url).pathname;

/** A running fake process. */
export interface FakeProcess {
  url: string;
  /** The variables it printed for Paystead (PAYMENT_PROVIDER and the provider's). */
  env: Record<string, string>;
  output(): string;
  /** Calls the control surface: `control("PATCH", "/switches", {...})`. */
  // deno-lint-ignore no-explicit-any
  control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
}

/**
 * Starts `command` under the cli task's flags on a free port with extra flags; resolves once it
 * printed `lastVariable`, the last of its variables.
 */
export async function startFakeProcess(
  command: "fake-payu" | "fake-p24",
  flags: string[],
  lastVariable: string,
): Promise<FakeProcess> {
  const port = freePort();
  const process = new Deno.Command(Deno.execPath(), {
    args: shippedArgs("cli", [command, "--port", String(port), ...flags]),
    stdout: "piped",
    stderr: "piped",
    cwd: root,
  }).spawn();
  let output = "";
  (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of process.stdout) output += decoder.decode(chunk, { stream: true });
  })().catch(() => {});
  process.stderr.pipeTo(new WritableStream()).catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  await waitForUrl(`${url}/__fake/switches`);
  const deadline = Date.now() + 10_000;
  while (!output.includes(`${lastVariable}=`)) {
    if (Date.now() > deadline) throw new Error(`${command} printed no variables: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const env = Object.fromEntries(
    output.split("\n")
      .map((line) => /^(PAYMENT_PROVIDER|[A-Z0-9]+_[A-Z_]+)=(.*)$/.exec(line.trim()))
      .filter((match) => match !== null)
      .map((match) => [match![1], match![2]]),
  );
  return {
    url,
    env,
    output: () => output,
    async control(method, path, body) {
      const response = await fetch(`${url}/__fake${path}`, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
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
