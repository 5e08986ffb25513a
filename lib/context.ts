import type { Kysely } from "kysely";
import { afterCommit } from "./after_commit.ts";
import type { Store } from "../db/client.ts";
import type { AccountsSchema, EnvironmentSchema } from "../db/schema.ts";
import type { Clock } from "./clock.ts";
import type { Config, Environment } from "./config.ts";
import type { EventBroadcaster } from "./event_stream.ts";
import type { Logger } from "./log.ts";
import type { PasswordHasher } from "./passwords.ts";
import type { BackupStatus } from "./ops/backup_status.ts";
import type { OffsiteCopies } from "./ops/offsite.ts";
import type { OfferCache } from "./offer_cache.ts";
import type { MethodCatalogue } from "./payments/methods.ts";
import type { PaymentProvider } from "./providers/mod.ts";
import type { Scheduler } from "./scheduler.ts";
import type { PaymentTransitionHook } from "./payments/hooks.ts";
import type { HostResolver } from "./webhooks/address_policy.ts";
import type { WorkSlots } from "./work_slots.ts";

/**
 * The write contract of a request (`ctx.write`): runs `work` in a write transaction of the
 * environment database and resolves with its value, possibly BEFORE the commit, and a request
 * calls it at most once. A POST answered under an Idempotency-Key gets a write that commits
 * together with the stored answer and refuses a second call (`answered`, routes/api/answers.ts;
 * docs/architecture.md "A request's write"); otherwise it is the store's own write. Code is
 * written for the first case everywhere: what must follow the commit (waking a job) is registered
 * inside `work` with `afterCommit(trx, ...)`, and a step that must be on disk before something
 * else happens (a provider call) uses `services.store.write`, which resolves after its commit.
 */
export type RequestWrite = <T>(
  work: (trx: Kysely<EnvironmentSchema>) => Promise<T>,
) => Promise<T>;

/** What one environment process runs on; built once by `buildServices` (lib/services.ts). */
export interface Services {
  config: Config;
  environment: Environment;
  store: Store<EnvironmentSchema>;
  accounts: Store<AccountsSchema>;
  clock: Clock;
  provider: PaymentProvider;
  scheduler: Scheduler;
  log: Logger;
  /** Called on every payment status change: `paymentTransitionHooks()` in lib/payments/hooks.ts. */
  paymentHooks: PaymentTransitionHook[];
  /** Offers as payment creates last used them (lib/offer_cache.ts). */
  offers: OfferCache;
  /** The open event streams of this process (`GET /api/v1/events/stream`). */
  eventStreams: EventBroadcaster;
  /** DNS for webhook URLs: production checks where a URL points before registering and sending. */
  resolveHost: HostResolver;
  /** How panel passwords are hashed and checked (tests count the checks). */
  passwords: PasswordHasher;
  /** Scheduled backups' outcomes, for /metrics and the panel's notice. */
  backups: BackupStatus;
  /** Copies scheduled backups to `BACKUP_S3_URL`; null without one. */
  offsite: OffsiteCopies | null;
  /** The payment methods each provider offers, kept at most 5 minutes (lib/payments/methods.ts). */
  methods: MethodCatalogue;
  /** The statements this process may reconcile at once (lib/reconciliations/). */
  reconciliationSlots: WorkSlots;
}

/** The services seen from one organisation: every query a service makes is scoped to `orgId`. */
export interface OrgContext {
  orgId: number;
  services: Services;
  /** Reads of the environment database. */
  db: Kysely<EnvironmentSchema>;
  /** Writes of the environment database; see `RequestWrite` for when it resolves. */
  write: RequestWrite;
  /** The organisation's current time in epoch milliseconds. */
  now(): number;
}

/**
 * Asks job `name` to run when the organisation's clock reads `orgTime`, once the write of `trx`
 * commits; the scheduler runs on the system clock, which a sandbox organisation's clock may be
 * ahead of.
 */
export function wakeAtOrgTime(
  ctx: OrgContext,
  trx: Kysely<EnvironmentSchema>,
  name: string,
  orgTime: number,
): void {
  const at = systemTimeOf(ctx, orgTime);
  afterCommit(trx, () => ctx.services.scheduler.wake(name, at));
}

/** The system time at which the organisation's clock will read `orgTime`. */
export function systemTimeOf(ctx: OrgContext, orgTime: number): number {
  return ctx.services.clock.now() + (orgTime - ctx.now());
}

/**
 * Builds an organisation's context on the environment's services. `clockOffsetMs` is how far
 * the organisation's sandbox clock runs ahead of the system clock (see lib/sandbox_clock.ts).
 */
export function orgContext(services: Services, orgId: number, clockOffsetMs = 0): OrgContext {
  return {
    orgId,
    services,
    db: services.store.db,
    write: (work) => services.store.write(work),
    now: () => services.clock.now() + clockOffsetMs,
  };
}
