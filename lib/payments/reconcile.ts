import { PAYMENT_ATTEMPTS_JOB } from "../jobs.ts";
import {
  type AttemptRecord,
  claimDueAttempts,
  makeOpenAttemptsDue,
  nextAttemptCheckAt,
  updateAttempt,
} from "../../db/payment_attempts.ts";
import { afterCommit } from "../after_commit.ts";
import type { Services } from "../context.ts";
import { withDeadline } from "../deadline.ts";
import { errorFields } from "../log.ts";
import { flowOf, type PaymentMethod } from "../providers/mod.ts";
import type { ScheduledJob } from "../scheduler.ts";
import { giveUpAttempt } from "./attempts.ts";
import { applyAttemptOutcome, type AttemptAnswer, POLL_INTERVAL_MS } from "./outcome.ts";

/** How long a claim keeps other processes off an attempt; longer than the calls may take. */
const LEASE_MS = 60_000;
/** How long each question to the provider may take before the attempt is asked again later. */
const PROVIDER_TIMEOUT_MS = 20_000;
/** Attempts claimed, and asked about concurrently, at a time. */
const BATCH_SIZE = 25;
/** Batches per run before the job yields to the others (it is run again at once). */
const MAX_ROUNDS = 20;

/**
 * What the provider says now about an attempt. An order it does not know after a minute was
 * never created (the call failed before reaching it): the attempt fails `provider_unavailable`.
 * A code's order still undecided past its validity is cancelled and the payment fails `timeout`;
 * if cancelling fails (the order completed meanwhile, say) the next question decides. A redirect
 * method's order undecided at its deadline (the payment's expiry) is given up instead
 * (`giveUpAttempt`): the customer never paid, and the payment expires. An attempt given up whose
 * cancellation the provider never confirmed is asked about until its watch ends.
 */
async function askProvider(
  services: Services,
  attempt: AttemptRecord,
  now: number,
): Promise<AttemptAnswer | null> {
  const { provider } = services;
  const ref = { attemptId: attempt.public_id, reference: attempt.provider_ref };
  const found = await provider.lookup(ref);
  if (attempt.status === "CANCELED") {
    if (found && found.outcome.status !== "PENDING") return found;
    if (attempt.watch_until !== null && now >= attempt.watch_until) {
      await giveUpWatch(services, attempt, found !== null);
    }
    return null;
  }
  if (found === null) {
    // NOTE: only after the call's own timeout has long passed, so a create still in flight in
    // another process can never be declared absent and then charge.
    if (now - attempt.created_at < POLL_INTERVAL_MS) return null;
    return { reference: null, outcome: { status: "FAILED", failureCode: "provider_unavailable" } };
  }
  if (found.outcome.status !== "PENDING") return found;
  if (attempt.deadline_at !== null && now >= attempt.deadline_at) {
    if (flowOf(attempt.method as PaymentMethod) === "redirect") {
      await giveUpAttempt(services, { ...attempt, provider_ref: found.reference });
      return null;
    }
    await provider.cancel({ attemptId: attempt.public_id, reference: found.reference });
    return { reference: found.reference, outcome: { status: "FAILED", failureCode: "timeout" } };
  }
  return found;
}

/**
 * Ends the watch of an attempt given up: cancelled at its provider once more where it has an
 * order; whatever it answers, it is no longer asked about (a late success still comes as a
 * notification, and a cancellation that never went through is logged for a person).
 */
async function giveUpWatch(
  services: Services,
  attempt: AttemptRecord,
  hasOrder: boolean,
): Promise<void> {
  if (hasOrder) {
    try {
      await services.provider.cancel({
        attemptId: attempt.public_id,
        reference: attempt.provider_ref,
      });
    } catch (error) {
      services.log.error("an attempt given up could not be cancelled at its provider", {
        attemptId: attempt.public_id,
        ...errorFields(error),
      });
    }
  }
  await services.store.write((trx) =>
    updateAttempt(trx, attempt.id, "CANCELED", { watch_until: null })
  );
}

async function reconcile(services: Services, attempt: AttemptRecord, now: number): Promise<void> {
  let answer: AttemptAnswer | null;
  try {
    answer = await withDeadline(
      askProvider(services, attempt, now),
      PROVIDER_TIMEOUT_MS,
      `The provider's status of ${attempt.public_id}`,
    );
  } catch (error) {
    services.log.warn("attempt status unknown; asking again after the lease", {
      attemptId: attempt.public_id,
      ...errorFields(error),
    });
    return;
  }
  if (answer === null) return;
  const settled = answer;
  await services.store.write((trx) =>
    applyAttemptOutcome(trx, services, attempt.public_id, settled, services.clock.now())
  );
}

/**
 * Asks the provider about attempts that have no final answer: a minute after they were sent,
 * then every minute, and at their deadline (at start too, for attempts a crash left behind).
 * Each answer goes through the same `applyAttemptOutcome` as notifications. Attempts are claimed
 * with a lease in the database, so two processes never ask about the same one at once.
 */
export function paymentAttemptsJob(services: Services): ScheduledJob {
  return {
    name: PAYMENT_ATTEMPTS_JOB,
    async run(now) {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        // A read first, so an idle run costs no write transaction.
        const next = await nextAttemptCheckAt(services.store.db);
        if (next === null || next > now) return next;
        const claimed = await services.store.write((trx) =>
          claimDueAttempts(trx, now, now + LEASE_MS, BATCH_SIZE)
        );
        const asked = await Promise.allSettled(
          claimed.map((attempt) => reconcile(services, attempt, now)),
        );
        const failure = asked.find((outcome) => outcome.status === "rejected");
        if (failure) throw failure.reason;
      }
      return now;
    },
  };
}

/**
 * At a process's start, asks at once about every attempt still open: a crash may have left one
 * between sending the code and writing the answer, with the customer waiting.
 */
export async function reconcileAtStart(services: Services): Promise<void> {
  const now = services.clock.now();
  // NOTE: this may ask about an attempt another live process is asking about too; answers
  // are applied with compare-and-set, so asking twice changes nothing.
  await services.store.write(async (trx) => {
    await makeOpenAttemptsDue(trx, now);
    afterCommit(trx, () => services.scheduler.wake(PAYMENT_ATTEMPTS_JOB, now));
  });
}
