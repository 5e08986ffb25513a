import assert from "node:assert/strict";

const root = new URL("../", import.meta.url).href;

Deno.test("[fakes] the fakes import nothing of Paystead: each local module they reach is under fakes/", async () => {
  // Written from the acquirers' documentation, not from the adapters: an adapter's misreading
  // shared through a type or a signature function would pass both sides' tests.
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "fakes/cli.ts"],
    cwd: new URL(root).pathname,
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(info.success);
  const graph = JSON.parse(new TextDecoder().decode(info.stdout)) as {
    modules: { specifier: string }[];
  };
  const local = graph.modules.map((module) => module.specifier)
    .filter((specifier) => specifier.startsWith(root));
  assert.ok(local.length > 20, `${local.length} modules`);
  assert.deepEqual(local.filter((specifier) => !specifier.startsWith(`${root}fakes/`)), []);
});
