import assert from "node:assert/strict";
import { demoApiKey, runBinary, runCli, startPaystead } from "./support/processes.ts";

const repo = new URL("../", import.meta.url).pathname;

/**
 * The drill's `paystead-sandbox` commands in docs/operations.md, in order, with `backups` for
 * its backup folder: step 1's three, then step 4's two.
 */
async function drillCommands(backups: string): Promise<string[][]> {
  const docs = await Deno.readTextFile(`${repo}docs/operations.md`);
  const drill = docs.slice(docs.indexOf("### Restore drill"), docs.indexOf("## Retention"));
  return [...drill.matchAll(/^ *paystead-sandbox (.+)$/gm)].map((match) =>
    match[1].replaceAll("/var/backups/paystead", backups).trim().split(/\s+/)
  );
}

/** Every id a list endpoint returns, following pages. */
async function allIds(url: string, key: string, idField: string): Promise<string[]> {
  const ids: string[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await fetch(`${url}?limit=100${after ? `&startingAfter=${after}` : ""}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(page.status, 200);
    const body = await page.json() as { data: Record<string, string>[]; hasMore: boolean };
    ids.push(...body.data.map((item) => item[idField]));
    if (!body.hasMore) return ids;
    after = ids[ids.length - 1];
  }
}

// The drill of docs/operations.md ("Restore drill"), step by step, through real processes.
Deno.test("[restore] the restore drill: back up a serving sandbox, lose the data folder, restore, find everything", async () => {
  const root = await Deno.makeTempDir({ prefix: "paystead-drill-" });
  const dataDir = `${root}/data`;
  const backups = `${root}/backups`;
  await Deno.mkdir(backups, { mode: 0o700 });
  const env = { DATA_DIR: dataDir };
  const commands = await drillCommands(backups);
  try {
    const server = await startPaystead(dataDir);
    let key: string;
    let payments: string[];
    let events: string[];
    try {
      key = await demoApiKey(server);
      const call = async (path: string, body: unknown) => {
        const response = await fetch(`${server.url}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        assert.equal(response.status, 201, await response.clone().text());
        return await response.json();
      };
      const offer = await call("/api/v1/qr", { name: "Coffee", amount: 1250, currency: "PLN" });
      for (let i = 0; i < 12; i++) await call("/api/v1/payments", { qrId: offer.qrId });
      payments = await allIds(`${server.url}/api/v1/payments`, key, "paymentId");
      events = await allIds(`${server.url}/api/v1/events`, key, "id");
      assert.equal(payments.length, 12);
      assert.equal(events.length, 12);

      // 1. Back up both databases while the server runs, and check the copy, as the docs say,
      // with the compiled sandbox binary's permissions.
      assert.equal(commands.length, 5);
      for (const command of commands.slice(0, 3)) {
        const result = await runBinary("sandbox", command, env);
        assert.equal(result.code, 0, `${command.join(" ")}: ${result.stderr}`);
        if (command.includes("--verify")) assert.match(result.stdout, /\n {2}payments: 12\n/);
      }
    } finally {
      // 3. Stop the server.
      assert.equal((await server.stop()).code, 0);
    }

    // 4. The disaster: the data folder is gone.
    await Deno.remove(dataDir, { recursive: true });

    // 5. Restore the accounts database and the environment's, from the same backup run.
    for (const command of commands.slice(3)) {
      const result = await runBinary("sandbox", command, env);
      assert.equal(result.code, 0, `${command.join(" ")}: ${result.stderr}`);
      assert.match(result.stdout, /^Restored /);
      if (!command.includes("accounts")) assert.match(result.stdout, /\n {2}payments: 12\n/);
    }
    assert.equal((await Deno.stat(dataDir)).mode! & 0o777, 0o700);

    // 6. Start again: the same key works and every payment and event is there.
    const restarted = await startPaystead(dataDir);
    try {
      assert.doesNotMatch(restarted.output(), /First start/);
      assert.deepEqual(
        await allIds(`${restarted.url}/api/v1/payments`, key, "paymentId"),
        payments,
      );
      assert.deepEqual(await allIds(`${restarted.url}/api/v1/events`, key, "id"), events);
      const ready = await runCli(["healthcheck", "--url", restarted.url]);
      assert.equal(ready.code, 0);
    } finally {
      await restarted.stop();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
