/**
 * The commands the README (and the panel) shows, run in bash exactly as written: the blocks'
 * text, a shell session that carries variables from one block to the next, background runs of
 * the blocks that serve, and a check of the `# ->` comments that say what a command answers.
 */
import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url).pathname;

/** One ```sh block of the README, with the heading it sits under. */
export interface ShellBlock {
  /** The nearest `##`/`###` heading above the block, without its hashes. */
  section: string;
  /** The block's text, as a reader copies it (ending with a newline). */
  text: string;
}

/** Every ```sh block of the README, in order. */
export function readmeShellBlocks(): ShellBlock[] {
  const readme = Deno.readTextFileSync(`${root}README.md`);
  const blocks: ShellBlock[] = [];
  let section = "";
  let open: string[] | null = null;
  for (const line of readme.split("\n")) {
    if (open) {
      if (line === "```") {
        blocks.push({ section, text: open.join("\n") + "\n" });
        open = null;
      } else open.push(line);
    } else if (line === "```sh") open = [];
    else if (/^#{2,3} /.test(line)) section = line.replace(/^#+ /, "");
  }
  return blocks;
}

/** The `index`th shell block under the README's heading `section`, exactly as written. */
export function readmeBlock(section: string, index = 0): string {
  const block = readmeShellBlocks().filter((block) => block.section === section)[index];
  assert.ok(block, `the README has no shell block ${index} under '${section}'`);
  return block.text;
}

/** What a command printed and how it ended. */
export interface BashResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Where, and with which variables, a command runs. */
export interface BashOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** `bash -euo pipefail -c`: the first failing command fails the whole. */
  strict?: boolean;
}

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** Runs `script` through `bash -c`, as a reader who pastes it would, to completion. */
export async function bash(script: string, options: BashOptions = {}): Promise<BashResult> {
  const output = await new Deno.Command("bash", {
    args: [...(options.strict ? ["-euo", "pipefail"] : []), "-c", script],
    cwd: options.cwd ?? root,
    env: options.env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/**
 * Sourced by bash (BASH_ENV) before each block of a session: stops at the first failing command,
 * as a reader would, loads the variables earlier blocks set, and writes the ones this block sets
 * when it ends. The block itself is still run as `bash -c <its text>`.
 */
const SESSION_PRELUDE = `set -euo pipefail
__paystead_known=" $(compgen -v | tr '\\n' ' ') "
if [ -s "$PAYSTEAD_SESSION_STATE" ]; then source "$PAYSTEAD_SESSION_STATE"; fi
__paystead_save() {
  local name
  for name in $(compgen -v); do
    case "$__paystead_known" in *" $name "*) continue ;; esac
    case "$name" in __paystead* | BASH* | FUNCNAME | PIPESTATUS | name) continue ;; esac
    declare -p "$name"
  done > "$PAYSTEAD_SESSION_STATE.next"
  mv "$PAYSTEAD_SESSION_STATE.next" "$PAYSTEAD_SESSION_STATE"
}
if [ -n "\${PAYSTEAD_SESSION_SAVE:-}" ]; then trap __paystead_save EXIT; fi
# A bash the block starts is not part of the session.
export -n BASH_ENV PAYSTEAD_SESSION_STATE PAYSTEAD_SESSION_SAVE
`;

/** A process a session started in the background, stopped with everything it started. */
export interface BackgroundRun {
  /** Everything it printed so far, stdout and stderr together, in order of arrival. */
  output(): string;
  /** What it printed on stdout alone. */
  stdout(): string;
  /** Waits until its output matches `pattern`, or throws after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends SIGTERM to its process group and waits for it to end. */
  stop(): Promise<void>;
}

/**
 * A shell session over several blocks: each runs as its own `bash -c <text>`, and the variables
 * a block sets (QR=..., export KEY=...) are there for the next, as in one terminal.
 */
export class ShellSession {
  private constructor(
    private readonly folder: string,
    readonly cwd: string,
    private readonly env: Record<string, string>,
  ) {}

  /** A session working in `cwd`, with `env` added to this process's environment. */
  static async open(cwd: string, env: Record<string, string> = {}): Promise<ShellSession> {
    const folder = await Deno.makeTempDir({ prefix: "paystead-shell-" });
    await Deno.writeTextFile(`${folder}/prelude.sh`, SESSION_PRELUDE);
    await Deno.writeTextFile(`${folder}/state.sh`, "");
    return new ShellSession(folder, cwd, env);
  }

  private environment(save: boolean): Record<string, string> {
    return {
      ...this.env,
      BASH_ENV: `${this.folder}/prelude.sh`,
      PAYSTEAD_SESSION_STATE: `${this.folder}/state.sh`,
      PAYSTEAD_SESSION_SAVE: save ? "1" : "",
    };
  }

  /** Runs one block's text to completion; the variables it sets stay for the next ones. */
  async run(text: string, env: Record<string, string> = {}): Promise<BashResult> {
    return await bash(text, { cwd: this.cwd, env: { ...this.environment(true), ...env } });
  }

  /** The value a block left in variable `name` (empty when unset). */
  async variable(name: string): Promise<string> {
    const result = await bash(`printf %s "\${${name}:-}"`, {
      cwd: this.cwd,
      env: this.environment(false),
    });
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  }

  /**
   * Starts a block that keeps running (a server, `listen`) in its own process group, with the
   * session's variables; `stop` ends it and everything it started.
   */
  start(text: string, env: Record<string, string> = {}): BackgroundRun {
    // setsid: the block's process leads a new group, so its children stop with it.
    const child = new Deno.Command("setsid", {
      args: ["bash", "-c", text],
      cwd: this.cwd,
      env: { ...this.environment(false), ...env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let printed = "";
    let stdout = "";
    const readers = Promise.all([child.stdout, child.stderr].map(async (stream) => {
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
        printed += chunk;
        if (stream === child.stdout) stdout += chunk;
      }
    }));
    let exited = false;
    const status = child.status.then((status) => {
      exited = true;
      return status;
    });
    return {
      output: () => printed,
      stdout: () => stdout,
      async waitFor(pattern, timeoutMs = 30_000) {
        const deadline = Date.now() + timeoutMs;
        while (Date.now() < deadline) {
          const match = printed.match(pattern);
          if (match) return match;
          if (exited) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error(`no ${pattern} within ${timeoutMs} ms in:\n${printed}`);
      },
      async stop() {
        if (!exited) {
          try {
            Deno.kill(-child.pid, "SIGTERM");
          } catch {
            // already gone
          }
        }
        await status;
        await readers;
      },
    };
  }

  /** Removes the session's files. */
  async close(): Promise<void> {
    await Deno.remove(this.folder, { recursive: true });
  }
}

/**
 * A `# ...` comment's picture of output as a pattern: `...` stands for anything (with the spaces
 * around it), everything else is literal.
 */
export function shownPattern(picture: string): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(
    `^${picture.trim().split(/\s*\.\.\.\s*/).map(escape).join("[\\s\\S]*?")}$`,
    "m",
  );
}

/** The `# -> ...` comments of a block: what its commands answer, as the reader is shown it. */
export function promisedAnswers(text: string): string[] {
  return [...text.matchAll(/# (?:sandbox: )?-> (.+)$/gm)].map((match) => match[1].trim());
}

/** The JSON documents a block printed one after another (curl adds no newline between them). */
export function jsonDocuments(stdout: string): unknown[] {
  const documents: unknown[] = [];
  let rest = stdout.trim();
  while (rest) {
    // The shortest prefix that parses is the first document: `}{` never occurs inside a string
    // of ours without the prefix failing to parse.
    let end = rest.indexOf("}") + 1;
    while (end > 0) {
      try {
        documents.push(JSON.parse(rest.slice(0, end)));
        break;
      } catch {
        end = rest.indexOf("}", end) + 1;
      }
    }
    assert.ok(end > 0, `not JSON: ${rest.slice(0, 200)}`);
    rest = rest.slice(end).trim();
  }
  return documents;
}

/** Asserts that every `# -> ...` promise of `text` matches one of the JSON documents printed. */
export function assertAnswersAsShown(text: string, documents: unknown[]): void {
  const printed = documents.map((document) => JSON.stringify(document));
  for (const picture of promisedAnswers(text)) {
    assert.ok(
      printed.some((json) => shownPattern(picture).test(json)),
      `no answer is as the README shows it (${picture}):\n${printed.join("\n")}`,
    );
  }
}

/**
 * Asserts that the comment lines after a block's command (`# Ready. ...`), which show what it
 * prints, appear in `output` in that order.
 */
export function assertPrintedAsShown(text: string, output: string): void {
  let rest = output;
  for (const [, picture] of text.matchAll(/^# (.+)$/gm)) {
    const match = shownPattern(picture).exec(rest);
    assert.ok(match, `'${picture}' is not printed (in order) by the block; it printed:\n${output}`);
    rest = rest.slice(match.index! + match[0].length);
  }
}

/** A Paystead API and the key to call it with. */
export interface ApiTarget {
  api: string;
  key: string;
}

/** Calls the API with the target's key; the status and the JSON answer. */
export async function apiCall(target: ApiTarget, path: string, init: RequestInit = {}) {
  const response = await fetch(`${target.api}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${target.key}`, ...init.headers },
  });
  return { status: response.status, body: await response.json() };
}

/** What `deno task cli` needs to run from a copy of the repository. */
const SOURCES = [
  "lib",
  "db",
  "fakes",
  "routes",
  "components",
  "islands",
  "static",
  "bin",
  "main.ts",
  "server.ts",
  "listener.ts",
  "deno.json",
  "deno.lock",
];

async function copyTree(from: string, to: string): Promise<void> {
  const info = await Deno.stat(from);
  if (!info.isDirectory) return await Deno.copyFile(from, to);
  await Deno.mkdir(to);
  for await (const entry of Deno.readDir(from)) {
    await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

/**
 * A copy of the repository in a new temporary folder, so commands that use the defaults
 * (`./data`) run as a reader's would without touching this checkout's data.
 */
export async function copyRepository(prefix: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix });
  for (const source of SOURCES) await copyTree(`${root}${source}`, `${dir}/${source}`);
  return dir;
}

/** Whether nothing listens on `port` of 127.0.0.1 (and 0.0.0.0) now. */
export function portIsFree(port: number): boolean {
  try {
    Deno.listen({ hostname: "0.0.0.0", port }).close();
    return true;
  } catch {
    return false;
  }
}
