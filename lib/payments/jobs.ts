import { PAYMENT_DEADLINES_JOB } from "../jobs.ts";
import {
  type DuePayment,
  findExpiredPendingPayments,
  findTimedOutPayments,
  nextPaymentDeadline,
} from "../../db/payments.ts";
import type { Services } from "../context.ts";
import type { ScheduledJob } from "../scheduler.ts";
import { transition } from "./mod.ts";

const BATCH_SIZE = 200;

/** Applies `apply` to every due payment `findDue` returns, a batch per transaction. */
async function sweep(
  findDue: () => Promise<DuePayment[]>,
  apply: (payments: DuePayment[]) => Promise<void>,
): Promise<void> {
  for (;;) {
    const due = await findDue();
    if (due.length > 0) await apply(due);
    if (due.length < BATCH_SIZE) return;
  }
}

/**
 * Expires pending payments at their `expiresAt` (never one with an attempt still open) and fails
 * with `timeout` payments a version before attempts (migration 0006) left processing with a
 * deadline; attempts now end through reconciliation (reconcile.ts). Each in its organisation's
 * time, each change compare-and-set, so a payment paid at the last moment is left alone.
 */
export function paymentDeadlinesJob(services: Services): ScheduledJob {
  const db = services.store.db;
  return {
    name: PAYMENT_DEADLINES_JOB,
    async run(now) {
      await sweep(
        () => findExpiredPendingPayments(db, now, BATCH_SIZE),
        (due) =>
          services.store.write(async (trx) => {
            for (const payment of due) {
              await transition(trx, services, payment, "EXPIRED", now + payment.clock_offset);
            }
          }),
      );
      await sweep(
        () => findTimedOutPayments(db, now, BATCH_SIZE),
        (due) =>
          services.store.write(async (trx) => {
            for (const payment of due) {
              await transition(trx, services, payment, "FAILED", now + payment.clock_offset, {
                failure_code: "timeout",
                processing_deadline_at: null,
              });
            }
          }),
      );
      return await nextPaymentDeadline(db);
    },
  };
}
