/** Runs `main.ts fake-payu` as a child process and drives it through /__fake. */
import { freePort, shippedArgs, waitForUrl } from "./processes.ts";

const root = new URL("../../", import.meta.url).pathname;

/** A running fake-payu process. */
export interface FakePayuProcess {
  url: string;
  /** The PAYU_* variables (and PAYMENT_PROVIDER) it printed for Paystead. */
  env: Record<string, string>;
  output(): string;
  /** Calls the control surface: `control("PATCH", "/switches", {...})`. */
  // deno-lint-ignore no-explicit-any
  control(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(signal?: Deno.Signal): Promise<Deno.CommandStatus>;
}

/** Starts the CLI fake PayU on a free port with extra flags; resolves once it printed its env. */
export async function startFakePayuProcess(flags: string[] = []): Promise<FakePayuProcess> {
  const port = freePort();
  const process = new Deno.Command(Deno.execPath(), {
    args: shippedArgs("cli", ["fake-payu", "--port", String(port), ...flags]),
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
  while (!output.includes("PAYU_SECOND_KEY=")) {
    if (Date.now() > deadline) throw new Error(`fake-payu printed no variables: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const env = Object.fromEntries(
    output.split("\n")
      .map((line) => /^(PAYMENT_PROVIDER|PAYU_[A-Z_]+)=(.*)$/.exec(line.trim()))
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
