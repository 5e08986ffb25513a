import assert from "node:assert/strict";
import { openFile } from "../db/inspect.ts";

const root = new URL("../", import.meta.url).pathname;
/** What `deno task cli` needs to run from a copy of the repository. */
const SOURCES = [
  "lib",
  "db",
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

/** The README's shell block with the backup and restore commands, line by line. */
async function readmeBackupLines(): Promise<string[]> {
  const readme = await Deno.readTextFile(`${root}README.md`);
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1])
    .find((text) => text.includes("deno task cli backup"));
  assert.ok(block, "the README shows the backup commands");
  return block.trim().split("\n");
}

async function bash(dir: string, line: string) {
  const output = await new Deno.Command("bash", {
    args: ["-c", line],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes).trim();
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

async function apiKeys(path: string): Promise<number> {
  const connection = openFile(path);
  try {
    const { rows } = await connection.execute({
      sql: "SELECT count(*) AS n FROM api_keys",
      args: [],
    });
    return Number(rows[0].n);
  } finally {
    connection.close();
  }
}

// A local sandbox in a copy of the repository, with the defaults (DATA_DIR ./data).
Deno.test("[readme] the README's backup and restore commands, run as written, back up and restore", async () => {
  const dir = await Deno.makeTempDir({ prefix: "paystead-readme-" });
  try {
    for (const source of SOURCES) await copyTree(`${root}${source}`, `${dir}/${source}`);
    for (
      const setup of [
        "deno task cli org create --slug shop --name Shop --plan PRO",
        "deno task cli key create --org shop --name before",
      ]
    ) {
      const result = await bash(dir, setup);
      assert.equal(result.code, 0, result.stderr);
    }
    const [backup, verify, restore] = await readmeBackupLines();

    const copied = await bash(dir, backup);
    assert.equal(copied.code, 0, copied.stderr);
    assert.equal(
      copied.stdout,
      "Wrote a consistent copy of file:./data/sandbox.db to data/backups/sandbox-copy.db.",
    );
    // Written after the backup: the restore takes it away.
    assert.equal((await bash(dir, "deno task cli key create --org shop --name after")).code, 0);
    assert.equal(await apiKeys(`${dir}/data/sandbox.db`), 2);

    const verified = await bash(dir, verify);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /^Verified: the backup passes PRAGMA integrity_check/);
    assert.match(verified.stdout, /\n {2}api_keys: 1\n/);
    assert.equal(await apiKeys(`${dir}/data/sandbox.db`), 2);

    const restored = await bash(dir, restore);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^Restored \.\/data\/sandbox\.db \(the environment database\)/);
    assert.equal(await apiKeys(`${dir}/data/sandbox.db`), 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
