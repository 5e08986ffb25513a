import assert from "node:assert/strict";
import { unknownOrdersStatement } from "./support/payu_statement.ts";
import { demoApiKey, startPaystead } from "./support/processes.ts";

const MIB = 1024 * 1024;

/** Asks /healthz every 100 ms until `done` settles; returns the slowest answer's time in ms. */
async function slowestHealthz(url: string, done: Promise<unknown>): Promise<number> {
  let finished = false;
  done.finally(() => finished = true).catch(() => {});
  let slowest = 0;
  while (!finished) {
    const started = performance.now();
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) });
    await response.body?.cancel();
    assert.equal(response.status, 200);
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return slowest;
}

Deno.test("[reconciliations] a 10 MiB statement of unknown orders: the server stays up, answers /healthz within 1 s and keeps a bounded result", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "paystead-rec-process-" });
  const server = await startPaystead(dataDir);
  try {
    const key = await demoApiKey(server);
    // The first statement loads csv-parse, once per process, whatever its size: the bound under
    // test is the one that grows with the statement.
    const first = await fetch(`${server.url}/api/v1/reconciliations`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "text/csv" },
      body: unknownOrdersStatement(1024).body,
    });
    assert.equal(first.status, 201);
    await first.body?.cancel();
    const { body, lines } = unknownOrdersStatement(10 * MIB);
    assert.ok(body.byteLength > 9.9 * MIB && body.byteLength <= 10 * MIB);
    const upload = fetch(`${server.url}/api/v1/reconciliations`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "text/csv" },
      body,
    });
    const slowest = await slowestHealthz(server.url, upload);
    assert.ok(slowest < 1000, `/healthz took ${slowest.toFixed(0)} ms during the upload`);
    const response = await upload;
    assert.equal(response.status, 201);
    const text = await response.text();
    assert.ok(text.length < 100_000, `the answer is ${text.length} bytes`);
    const result = JSON.parse(text);
    assert.equal(result.operations, lines);
    assert.deepEqual(result.problemCounts, {
      unknown_order: lines,
      amount_mismatch: 0,
      not_in_statement: 0,
    });
    assert.equal(result.problems.length, 100);
    assert.equal(result.problemsTruncated, true);
    // Listing such results, twice at once, is answered and leaves the server up.
    const lists = await Promise.all([1, 2].map(() =>
      fetch(`${server.url}/api/v1/reconciliations`, {
        headers: { authorization: `Bearer ${key}` },
      })
    ));
    for (const list of lists) {
      assert.equal(list.status, 200);
      const listed = (await list.json()).data;
      assert.deepEqual(
        listed.map((item: { reconciliationId: string }) => item.reconciliationId)[0],
        result.reconciliationId,
      );
    }
    const health = await fetch(`${server.url}/healthz`);
    await health.body?.cancel();
    assert.equal(health.status, 200);
  } finally {
    await server.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});
