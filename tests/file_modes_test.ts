import assert from "node:assert/strict";
import { runCli, startPaystead } from "./support/processes.ts";

async function mode(path: string): Promise<string> {
  return ((await Deno.stat(path)).mode! & 0o777).toString(8);
}

Deno.test("[file modes] data files are 0600 in a 0700 folder after start and after a backup", async () => {
  const root = await Deno.makeTempDir({ prefix: "paystead-modes-" });
  const dataDir = `${root}/data`;
  // As an older version left them: a readable folder and database.
  await Deno.mkdir(dataDir, { mode: 0o755 });
  await Deno.chmod(dataDir, 0o755);
  await Deno.writeFile(`${dataDir}/accounts.db`, new Uint8Array(), { mode: 0o644 });
  await Deno.chmod(`${dataDir}/accounts.db`, 0o644);
  const server = await startPaystead(dataDir);
  try {
    assert.equal(await mode(dataDir), "700");
    for (const file of ["accounts.db", "sandbox.db"]) {
      for (const suffix of ["", "-wal", "-shm"]) {
        assert.equal(await mode(`${dataDir}/${file}${suffix}`), "600", `${file}${suffix}`);
      }
    }
    await Deno.mkdir(`${root}/backups`);
    for (const database of ["environment", "accounts"]) {
      const out = `${root}/backups/${database}.db`;
      const backup = await runCli(["backup", "--out", out, "--database", database], {
        DATA_DIR: dataDir,
      });
      assert.equal(backup.code, 0, backup.stderr);
      assert.equal(await mode(out), "600", out);
    }
  } finally {
    await server.stop();
    await server.exited();
    await Deno.remove(root, { recursive: true });
  }
});
