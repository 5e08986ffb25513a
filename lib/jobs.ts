/**
 * The names of the scheduled jobs (lib/scheduler.ts), in one leaf module: a domain module wakes
 * another's job by name without importing that module.
 */

/** Asks the provider about attempts without a final answer (lib/payments/reconcile.ts). */
export const PAYMENT_ATTEMPTS_JOB = "payment-attempts";
/** Expires payments and fails timed-out ones (lib/payments/jobs.ts). */
export const PAYMENT_DEADLINES_JOB = "payment-deadlines";
/** Expires checkout sessions (lib/checkout/jobs.ts). */
export const CHECKOUT_EXPIRY_JOB = "checkout-session-expiry";
/** Sends pending refunds to the provider (lib/refunds/jobs.ts). */
export const REFUNDS_JOB = "refunds";
/** Sends queued customer e-mails (lib/emails/sender.ts). */
export const CUSTOMER_EMAILS_JOB = "customer-emails";
/** Renews subscriptions (lib/subscriptions/renewals.ts). */
export const SUBSCRIPTION_RENEWALS_JOB = "subscription-renewals";
/** Copies scheduled backups off the machine (lib/ops/offsite.ts). */
export const OFFSITE_JOB = "offsite-backup";
/** Delivers webhooks (lib/webhooks/delivery/dispatcher.ts). */
export const WEBHOOK_DELIVERY_JOB = "webhook-delivery";
/** Removes old webhook deliveries and attempts (lib/ops/retention.ts). */
export const WEBHOOK_LOG_RETENTION_JOB = "webhook-log-retention";
/** Writes scheduled backups (lib/ops/backups.ts). */
export const SCHEDULED_BACKUP_JOB = "scheduled-backup";
/** Removes expired Idempotency-Keys (lib/idempotency.ts). */
export const IDEMPOTENCY_CLEANUP_JOB = "idempotency-cleanup";
/** Removes ended panel sessions and invitations (lib/accounts/sessions.ts). */
export const PANEL_CLEANUP_JOB = "panel-cleanup";
