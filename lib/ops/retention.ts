import { WEBHOOK_LOG_RETENTION_JOB } from "../jobs.ts";
import type { Store } from "../../db/client.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import { deleteFinishedDeliveries } from "../../db/webhook_retention.ts";
import type { Clock } from "../clock.ts";
import type { ScheduledJob } from "../scheduler.ts";

const DAY_MS = 86_400_000;
/** Deliveries per transaction: each holds the write lock for a few milliseconds at most. */
const RETENTION_BATCH = 500;
/** How often the log is trimmed; the sweep also runs it at every start. */
const RETENTION_EVERY_MS = 3_600_000;

/**
 * Deletes webhook deliveries (with their attempts) finished more than `retentionDays` ago, in
 * small transactions so API writes interleave. Pending deliveries, events, payments and refunds
 * are never touched: an event can always be resent.
 */
export function webhookLogRetentionJob(
  store: Store<EnvironmentSchema>,
  clock: Clock,
  retentionDays: number,
): ScheduledJob {
  return {
    name: WEBHOOK_LOG_RETENTION_JOB,
    async run(now) {
      const cutoff = now - retentionDays * DAY_MS;
      while (
        await store.write((trx) => deleteFinishedDeliveries(trx, cutoff, RETENTION_BATCH)) ===
          RETENTION_BATCH
      ) {
        // NOTE: one batch per transaction, never one long delete: the write lock is shared
        // with every API request.
      }
      return clock.now() + RETENTION_EVERY_MS;
    },
  };
}
