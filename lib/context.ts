import type { Kysely } from "kysely";
import type { Store } from "../db/client.ts";
import type { AccountsSchema, EnvironmentSchema } from "../db/schema.ts";
import type { Clock } from "./clock.ts";
import type { Config, Environment } from "./config.ts";
import type { Logger } from "./log.ts";
import type { PaymentProvider } from "./providers/mod.ts";
import type { Scheduler } from "./scheduler.ts";

/** Runs `work` in a write transaction of the environment database; resolves after commit. */
export type EnvironmentWrite = <T>(
  work: (trx: Kysely<EnvironmentSchema>) => Promise<T>,
) => Promise<T>;

/** What one environment process runs on; built once by the app factory. */
export interface Services {
  config: Config;
  environment: Environment;
  store: Store<EnvironmentSchema>;
  accounts: Store<AccountsSchema>;
  clock: Clock;
  provider: PaymentProvider;
  scheduler: Scheduler;
  log: Logger;
}

/** The services seen from one organisation: every query a service makes is scoped to `orgId`. */
export interface OrgContext {
  orgId: number;
  services: Services;
  /** Reads of the environment database. */
  db: Kysely<EnvironmentSchema>;
  /** Writes of the environment database (the request's idempotency layer may wrap it). */
  write: EnvironmentWrite;
  /** The organisation's current time in epoch milliseconds. */
  now(): number;
}

/** Builds an organisation's context on the environment's services. */
export function orgContext(services: Services, orgId: number): OrgContext {
  return {
    orgId,
    services,
    db: services.store.db,
    write: (work) => services.store.write(work),
    now: () => services.clock.now(),
  };
}
