import assert from "node:assert/strict";
import { openFile } from "../db/inspect.ts";
import { bash, copyRepository, readmeBlock } from "./support/readme.ts";

/** The README's shell block with the backup and restore commands, line by line. */
function readmeBackupLines(): string[] {
  const block = readmeBlock("Command line");
  assert.ok(block.includes("deno task cli backup"), "the README shows the backup commands");
  return block.trim().split("\n");
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
  const dir = await copyRepository("paystead-readme-");
  try {
    for (
      const setup of [
        "deno task cli org create --slug shop --name Shop --plan PRO",
        "deno task cli key create --org shop --name before",
      ]
    ) {
      const result = await bash(setup, { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
    }
    const [backup, verify, restore] = readmeBackupLines();

    const copied = await bash(backup, { cwd: dir });
    assert.equal(copied.code, 0, copied.stderr);
    assert.equal(
      copied.stdout.trim(),
      "Wrote a consistent copy of file:./data/sandbox.db to data/backups/sandbox-copy.db.",
    );
    // Written after the backup: the restore takes it away.
    assert.equal(
      (await bash("deno task cli key create --org shop --name after", { cwd: dir })).code,
      0,
    );
    assert.equal(await apiKeys(`${dir}/data/sandbox.db`), 2);

    const verified = await bash(verify, { cwd: dir });
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stdout, /^Verified: the backup passes PRAGMA integrity_check/);
    assert.match(verified.stdout, /\n {2}api_keys: 1\n/);
    assert.equal(await apiKeys(`${dir}/data/sandbox.db`), 2);

    const restored = await bash(restore, { cwd: dir });
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^Restored \.\/data\/sandbox\.db \(the environment database\)/);
    assert.equal(await apiKeys(`${dir}/data/sandbox.db`), 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
