/// <reference lib="deno.worker" />
// A second Paystead process for tests, in a worker thread: its own connections to the same
// database files and its own delivery queue, as a second server would have.
import { openStore, type Store } from "../../db/client.ts";
import type { AccountsSchema, EnvironmentSchema } from "../../db/schema.ts";
import { ManualClock } from "../../lib/clock.ts";
import type { Config } from "../../lib/config.ts";
import { silentLogger } from "../../lib/log.ts";
import { createApp, type PaysteadApp } from "../../routes/app.ts";

/** What the test asks of the second process. */
export type SecondProcessCommand =
  | { command: "start"; config: Config; now: number }
  | { command: "sweep"; now: number }
  | { command: "stop" };

let built: PaysteadApp;
let clock: ManualClock;
let stores: [Store<EnvironmentSchema>, Store<AccountsSchema>];

self.onmessage = async (message: MessageEvent<SecondProcessCommand>) => {
  const request = message.data;
  switch (request.command) {
    case "start": {
      clock = new ManualClock(request.now);
      stores = [
        await openStore<EnvironmentSchema>(request.config.databaseUrl),
        await openStore<AccountsSchema>(request.config.accountsDatabaseUrl),
      ];
      built = createApp({
        config: request.config,
        store: stores[0],
        accounts: stores[1],
        clock,
        log: silentLogger,
      });
      break;
    }
    case "sweep":
      clock.advance(request.now - clock.now());
      await built.services.scheduler.runAll();
      await built.webhooks.idle();
      break;
    case "stop":
      await built.services.scheduler.stop();
      await built.webhooks.stop();
      await stores[0].close();
      await stores[1].close();
      break;
  }
  self.postMessage(request.command);
};
