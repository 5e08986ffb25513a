import assert from "node:assert/strict";

/**
 * Another process that holds the OS lock (flock) on the file at `path`, exclusively or shared, as
 * a writer of a backup or a restore does, until it is killed: `kill()` kills it once however often
 * it is called. Resolves once it holds the lock.
 */
export async function holdLockInChild(path: string, exclusive: boolean) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      `const lock = await Deno.open(${
        JSON.stringify(path)
      }, { read: true, write: true, create: true });` +
      `await lock.lock(${exclusive}); console.log('held'); setInterval(() => {}, 60_000);`,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  assert.equal(new TextDecoder().decode(value).trim(), "held");
  reader.releaseLock();
  let killed: Promise<void> | null = null;
  return {
    kill() {
      killed ??= (async () => {
        child.kill("SIGKILL");
        await child.status;
        await child.stdout.cancel();
      })();
      return killed;
    },
  };
}
