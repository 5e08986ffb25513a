import { CHECKOUT_EXPIRY_JOB } from "../jobs.ts";
import { deleteCodeGuardsBefore, hasCodeGuardsBefore } from "../../db/checkout_code_guards.ts";
import { findDueCheckoutSessions, nextCheckoutSessionExpiry } from "../../db/checkout_sessions.ts";
import type { Services } from "../context.ts";
import type { ScheduledJob } from "../scheduler.ts";
import { transitionSession } from "./mod.ts";

const BATCH_SIZE = 200;
/** Wrong-code counters outlive every payment and session they guard (at most 24 h) by this. */
const GUARD_RETENTION_MS = 25 * 3_600_000;

/**
 * Expires open sessions at their `expiresAt` (compare-and-set, so a session completed at the
 * last moment is left alone) and forgets old wrong-code counters. A session whose attempt is
 * still processing waits for that attempt; the payment hook expires it if the attempt fails.
 */
export function checkoutExpiryJob(services: Services): ScheduledJob {
  const db = services.store.db;
  return {
    name: CHECKOUT_EXPIRY_JOB,
    async run(now) {
      for (;;) {
        const due = await findDueCheckoutSessions(db, now, BATCH_SIZE);
        if (due.length > 0) {
          await services.store.write(async (trx) => {
            for (const session of due) {
              await transitionSession(
                trx,
                services,
                session,
                "EXPIRED",
                now + session.clock_offset,
              );
            }
          });
        }
        if (due.length < BATCH_SIZE) break;
      }
      while (await hasCodeGuardsBefore(db, now - GUARD_RETENTION_MS)) {
        await services.store.write((trx) =>
          deleteCodeGuardsBefore(trx, now - GUARD_RETENTION_MS, 500)
        );
      }
      return await nextCheckoutSessionExpiry(db);
    },
  };
}
