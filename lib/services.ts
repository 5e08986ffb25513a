import type { Store } from "../db/client.ts";
import type { AccountsSchema, EnvironmentSchema } from "../db/schema.ts";
import { panelCleanupJob } from "./accounts/sessions.ts";
import { ApiKeyAuthenticator } from "./api_keys.ts";
import { checkoutExpiryJob } from "./checkout/jobs.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { Services } from "./context.ts";
import { CustomerEmailSender, type EmailSenderOptions } from "./emails/sender.ts";
import { EventBroadcaster, type EventStreamOptions } from "./event_stream.ts";
import { idempotencyCleanupJob } from "./idempotency.ts";
import { OfferCache } from "./offer_cache.ts";
import { createLogger, type Logger } from "./log.ts";
import { BackupStatus } from "./ops/backup_status.ts";
import { scheduledBackupJob } from "./ops/backups.ts";
import { offsiteCopies } from "./ops/offsite.ts";
import { webhookLogRetentionJob } from "./ops/retention.ts";
import { type PasswordHasher, scryptPasswords } from "./passwords.ts";
import { paymentTransitionHooks } from "./payments/hooks.ts";
import { paymentDeadlinesJob } from "./payments/jobs.ts";
import { MethodCatalogue } from "./payments/methods.ts";
import { paymentAttemptsJob } from "./payments/reconcile.ts";
import type { ProviderOptions } from "./providers/definition.ts";
import { assertProviderAllowed, providerFromConfig } from "./providers/from_config.ts";
import type { PaymentProvider } from "./providers/mod.ts";
import { refundsJob } from "./refunds/jobs.ts";
import { RECONCILIATION_SLOTS } from "./reconciliations/mod.ts";
import { Scheduler } from "./scheduler.ts";
import { logStorageChanges } from "./storage.ts";
import { subscriptionRenewalsJob } from "./subscriptions/renewals.ts";
import { type HostResolver, resolveHostAddresses } from "./webhooks/address_policy.ts";
import {
  webhookDeliveryJob,
  type WebhookDeliveryOptions,
  WebhookDispatcher,
} from "./webhooks/delivery/dispatcher.ts";
import { WorkSlots } from "./work_slots.ts";

/** What the services run on. Tests pass temporary databases, a manual clock and no timers. */
export interface ServiceDeps {
  config: Config;
  store: Store<EnvironmentSchema>;
  accounts: Store<AccountsSchema>;
  clock?: Clock;
  /** The payment provider; by default built from `config` (production: never the simulator). */
  provider?: PaymentProvider;
  /** How a provider built from `config` reaches its API (tests pass a fake's). */
  providerOptions?: Omit<ProviderOptions, "clock">;
  log?: Logger;
  /** Whether the scheduler sets its own timers (the server) or waits to be called (tests). */
  timers?: boolean;
  /** DNS for webhook URLs; tests pass a fake to exercise production's address checks. */
  resolveHost?: HostResolver;
  /** Tuning of the event streams (tests shrink their buffers). */
  eventStreams?: EventStreamOptions;
  /** Tuning of webhook delivery (tests shorten the attempt timeout). */
  webhooks?: WebhookDeliveryOptions;
  /** Panel password hashing; tests wrap scrypt to count the checks. */
  passwords?: PasswordHasher;
  /** Tuning of the customer e-mail sender (tests shorten the lease). */
  emails?: EmailSenderOptions;
}

/** The running domain of one environment process: its services and what works in the background. */
interface BuiltServices {
  services: Services;
  authenticator: ApiKeyAuthenticator;
  /** The webhook delivery queue, not yet started: a server starts it, a CLI command never does. */
  webhooks: WebhookDispatcher;
  /** The customer e-mail sender, run by its scheduled job; stop it before closing the database. */
  emails: CustomerEmailSender;
}

/**
 * Builds the services of one environment process: the provider, the scheduler with every job
 * registered, the payment hooks, the event broadcaster and the webhook dispatcher.
 */
export function buildServices(deps: ServiceDeps): BuiltServices {
  const clock = deps.clock ?? systemClock;
  const log = deps.log ?? createLogger(deps.config.logLevel);
  const scheduler = new Scheduler({ clock, log, timers: deps.timers ?? false });
  const provider = deps.provider ??
    providerFromConfig(deps.config, { clock, ...deps.providerOptions });
  assertProviderAllowed(deps.config.environment, provider);
  const services: Services = {
    config: deps.config,
    environment: deps.config.environment,
    store: deps.store,
    accounts: deps.accounts,
    clock,
    provider,
    scheduler,
    log,
    paymentHooks: paymentTransitionHooks(),
    resolveHost: deps.resolveHost ?? resolveHostAddresses,
    passwords: deps.passwords ?? scryptPasswords,
    backups: new BackupStatus(),
    offsite: null,
    offers: new OfferCache(),
    reconciliationSlots: new WorkSlots(RECONCILIATION_SLOTS),
    methods: new MethodCatalogue(() => clock.now()),
    eventStreams: new EventBroadcaster(deps.store, log, deps.eventStreams),
  };
  logStorageChanges(services);
  scheduler.register(paymentDeadlinesJob(services));
  scheduler.register(idempotencyCleanupJob(deps.store, clock));
  scheduler.register(paymentAttemptsJob(services));
  scheduler.register(refundsJob(services));
  scheduler.register(subscriptionRenewalsJob(services));
  scheduler.register(checkoutExpiryJob(services));
  scheduler.register(panelCleanupJob(deps.accounts, clock));
  scheduler.register(
    webhookLogRetentionJob(deps.store, clock, deps.config.webhookLogRetentionDays),
  );
  if (deps.config.backupIntervalMs !== null) {
    services.offsite = offsiteCopies(services);
    scheduler.register(
      scheduledBackupJob({
        config: deps.config,
        clock,
        log,
        status: services.backups,
        offsite: services.offsite,
      }),
    );
    if (services.offsite) scheduler.register(services.offsite.job());
  }
  const webhooks = new WebhookDispatcher(services, deps.webhooks);
  scheduler.register(webhookDeliveryJob(webhooks));
  const emails = new CustomerEmailSender(services, deps.emails);
  scheduler.register(emails.job());
  return { services, authenticator: new ApiKeyAuthenticator(services), webhooks, emails };
}
