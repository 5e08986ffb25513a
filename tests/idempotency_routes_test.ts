import assert from "node:assert/strict";

const API = new URL("../routes/api/", import.meta.url);
/** POSTs that take no Idempotency-Key, and why. */
const WITHOUT_KEYS: Record<string, string> = {
  // A statement is CSV read by its route; storing it twice changes nothing a retry could harm.
  "reconciliations.ts createReconciliation": "mounted before the idempotency middleware",
};

/** Each POST operation of routes/api with the text that answers it. */
async function postOperations(): Promise<{ name: string; handler: string }[]> {
  const operations = [];
  for await (const entry of Deno.readDir(API)) {
    if (!entry.name.endsWith(".ts")) continue;
    const source = await Deno.readTextFile(new URL(entry.name, API));
    const blocks = source.split(/(?=method: ")/).slice(1);
    for (const block of blocks) {
      if (!block.startsWith('method: "post"')) continue;
      const operationId = /operationId: "?(\w+)/.exec(block)?.[1] ?? "(by argument)";
      let handler = block;
      // A handler defined once for two paths (POST /payments and /api/v1/payments).
      for (const [, name] of block.matchAll(/\b(\w+Handler)\b/g)) {
        const definition = new RegExp(`const ${name}[^=]*=([\\s\\S]*?)\\n\\};?\\n`).exec(source);
        if (definition) handler += definition[1];
      }
      operations.push({ name: `${entry.name} ${operationId}`, handler });
    }
  }
  return operations;
}

Deno.test("[idempotency] every POST of the API runs its write under the request's key", async () => {
  const operations = await postOperations();
  assert.ok(operations.length >= 15, `only ${operations.length} POST operations found`);
  const ignoring = operations
    .filter(({ name, handler }) => !WITHOUT_KEYS[name] && !/\b(answered|keyed)\(/.test(handler))
    .map(({ name }) => name);
  assert.deepEqual(ignoring, []);
});
