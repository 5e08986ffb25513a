/**
 * Runs before the test suite (`deno task test`): makes sure the browser tests have their
 * Chromium and the README's commands their `jq`. Debian's `chromium` or `jq` is installed with
 * apt-get when it is missing and this user may install it without being asked anything (root,
 * apt-get present); otherwise the run stops at once with one line that says what to install.
 */

/** Where Debian's `chromium` package puts the browser; `CHROMIUM_BIN` names another one. */
export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/** What the set-up finds on this machine. */
export interface Machine {
  /** The Chromium the browser tests will launch. */
  chromium: string;
  chromiumFound: boolean;
  root: boolean;
  aptGet: boolean;
}

/** What to do about it. */
export type Plan = { kind: "ready" } | { kind: "install" } | { kind: "stop"; line: string };

/** The one line a run stops with when Chromium is missing and cannot be installed here. */
export function missingChromiumLine(chromium: string): string {
  const where = chromium === DEBIAN_CHROMIUM ? chromium : `${chromium} (CHROMIUM_BIN)`;
  return `The browser tests need Chromium at ${where}: install Debian's chromium package ` +
    "(sudo apt-get install chromium) or set CHROMIUM_BIN to a Chromium binary, then run " +
    "the tests again.";
}

/** Decides between going ahead, installing Debian's chromium, and stopping. */
export function planChromium(machine: Machine): Plan {
  if (machine.chromiumFound) return { kind: "ready" };
  // Installing puts Debian's browser at its own path only: it cannot make another path exist.
  if (machine.chromium === DEBIAN_CHROMIUM && machine.root && machine.aptGet) {
    return { kind: "install" };
  }
  return { kind: "stop", line: missingChromiumLine(machine.chromium) };
}

/** The one line a run stops with when jq is missing and cannot be installed here. */
export function missingJqLine(): string {
  return "The README's commands, which the tests run as written, need jq: install Debian's jq " +
    "package (sudo apt-get install jq), then run the tests again.";
}

/** Decides between going ahead, installing Debian's jq, and stopping. */
export function planJq(machine: { jqFound: boolean; root: boolean; aptGet: boolean }): Plan {
  if (machine.jqFound) return { kind: "ready" };
  if (machine.root && machine.aptGet) return { kind: "install" };
  return { kind: "stop", line: missingJqLine() };
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    const info = await Deno.stat(path);
    return info.isFile && info.mode !== null && (info.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

async function onPath(command: string): Promise<boolean> {
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    if (dir && await isExecutable(`${dir}/${command}`)) return true;
  }
  return false;
}

async function aptGet(args: string[]): Promise<string | null> {
  const output = await new Deno.Command("apt-get", {
    args,
    env: { DEBIAN_FRONTEND: "noninteractive" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (output.success) return null;
  const lines = new TextDecoder().decode(output.stderr).trim().split("\n");
  return lines.at(-1) || `exit code ${output.code}`;
}

async function install(debianPackage: string, purpose: string): Promise<string | null> {
  console.error(`Installing Debian's ${debianPackage} for ${purpose} (apt-get)...`);
  return await aptGet(["update", "-qq"]) ??
    await aptGet(["install", "-y", "-qq", debianPackage]);
}

async function main(): Promise<number> {
  const chromium = Deno.env.get("CHROMIUM_BIN") || DEBIAN_CHROMIUM;
  const root = Deno.uid() === 0;
  const canInstall = await onPath("apt-get");
  const plan = planChromium({
    chromium,
    chromiumFound: await isExecutable(chromium),
    root,
    aptGet: canInstall,
  });
  if (plan.kind === "stop") {
    console.error(plan.line);
    return 1;
  }
  if (plan.kind === "install") {
    const failure = await install("chromium", "the browser tests");
    if (failure !== null || !await isExecutable(chromium)) {
      const reason = failure ?? `no ${chromium} afterwards`;
      console.error(
        `apt-get could not install chromium (${reason}). ${missingChromiumLine(chromium)}`,
      );
      return 1;
    }
  }
  const jq = planJq({ jqFound: await onPath("jq"), root, aptGet: canInstall });
  if (jq.kind === "stop") {
    console.error(jq.line);
    return 1;
  }
  if (jq.kind === "install") {
    const failure = await install("jq", "the README's commands");
    if (failure !== null || !await onPath("jq")) {
      console.error(
        `apt-get could not install jq (${failure ?? "no jq afterwards"}). ${missingJqLine()}`,
      );
      return 1;
    }
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main());
