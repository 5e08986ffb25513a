/**
 * A second Paystead process for tests: opens the databases named by the environment (as
 * `makeTestApp` configured them), waits for "run" on stdin, runs every scheduled job once at
 * the clock time given as the first argument, and prints what its provider was asked as JSON.
 * Usage: second_process.ts <epoch ms> <provider delay ms>
 */
import { openStore } from "../../db/client.ts";
import type { AccountsSchema, EnvironmentSchema } from "../../db/schema.ts";
import { ManualClock } from "../../lib/clock.ts";
import { loadConfig } from "../../lib/config.ts";
import { createLogger } from "../../lib/log.ts";
import { createApp } from "../../routes/app.ts";
import { RecordingProvider } from "./billing_helpers.ts";

const [at, delay] = Deno.args.map(Number);
const config = loadConfig(Deno.env.toObject());
const store = await openStore<EnvironmentSchema>(config.databaseUrl);
const accounts = await openStore<AccountsSchema>(config.accountsDatabaseUrl);
const provider = new RecordingProvider();
provider.delayMs = delay;
const { services, webhooks } = createApp({
  config,
  store,
  accounts,
  clock: new ManualClock(at),
  provider,
  log: createLogger("warn"),
});
console.log("ready");
let input = "";
for await (const chunk of Deno.stdin.readable.pipeThrough(new TextDecoderStream())) {
  input += chunk;
  if (input.includes("run\n")) break;
}
await services.scheduler.runAll();
await services.scheduler.stop();
await webhooks.stop();
await store.close();
await accounts.close();
console.log(JSON.stringify({ calls: provider.calls, carriedOut: provider.carriedOut }));
