import {
  findExpiredPendingPayments,
  findTimedOutPayments,
  nextPaymentDeadline,
  type PaymentRecord,
} from "../../db/payments.ts";
import type { Services } from "../context.ts";
import type { ScheduledJob } from "../scheduler.ts";
import { PAYMENT_DEADLINES_JOB, transition } from "./mod.ts";

const BATCH_SIZE = 200;

/** Applies `apply` to every due payment `findDue` returns, a batch per transaction. */
async function sweep(
  findDue: () => Promise<PaymentRecord[]>,
  apply: (payments: PaymentRecord[]) => Promise<void>,
): Promise<void> {
  for (;;) {
    const due = await findDue();
    if (due.length > 0) await apply(due);
    if (due.length < BATCH_SIZE) return;
  }
}

/**
 * Expires pending payments at their `expiresAt` and fails processing payments whose provider
 * never answered (`timeout`). Each change is compare-and-set, so a payment paid at the last
 * moment is left alone.
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
            for (const payment of due) await transition(trx, services, payment, "EXPIRED", now);
          }),
      );
      await sweep(
        () => findTimedOutPayments(db, now, BATCH_SIZE),
        (due) =>
          services.store.write(async (trx) => {
            for (const payment of due) {
              await transition(trx, services, payment, "FAILED", now, {
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
