import type { Kysely } from "kysely";
import {
  type AttemptRecord,
  findAttemptByPublicId,
  updateOpenAttempt,
} from "../../db/payment_attempts.ts";
import { findPaymentByPublicId, type PaymentRecord } from "../../db/payments.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import { afterCommit } from "../after_commit.ts";
import { CHECKOUT_EXPIRY_JOB } from "../checkout/mod.ts";
import type { Services } from "../context.ts";
import type { ProviderOutcome } from "../providers/mod.ts";
import { PAYMENT_DEADLINES_JOB, transition } from "./mod.ts";
import { isFinal, type PaymentStatus } from "./status.ts";

/** The scheduled job that asks the provider about open attempts (see reconcile.ts). */
export const PAYMENT_ATTEMPTS_JOB = "payment-attempts";
/** How often an undecided attempt is asked about when no notification comes. */
export const POLL_INTERVAL_MS = 60_000;

/** What the provider said about an attempt: its reference (once known) and its outcome. */
export interface AttemptAnswer {
  reference: string | null;
  outcome: ProviderOutcome;
}

/**
 * Applies the provider's word on an attempt in `trx`, whichever way it came (the answer to the
 * call, a verified notification, a status query). Idempotent: an attempt already decided, or a
 * payment already final, is left as it is, so duplicates and late, out-of-order answers change
 * nothing. PENDING moves the payment to PROCESSING and schedules the next question; SUCCEEDED and
 * FAILED end attempt and payment. `provider_unavailable` (nothing reached the provider) ends the
 * attempt and leaves a PENDING payment payable. `now` is system time.
 */
export async function applyAttemptOutcome(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  attemptId: string,
  answer: AttemptAnswer,
  now: number,
): Promise<PaymentRecord | undefined> {
  const attempt = await findAttemptByPublicId(trx, attemptId);
  if (!attempt) return undefined;
  const payment = (await findPaymentByPublicId(trx, attempt.payment_public_id))!;
  if (attempt.status !== "OPEN") return payment;
  const orgNow = now + attempt.clock_offset;
  const reference = answer.reference ?? attempt.provider_ref;
  const { outcome } = answer;
  if (outcome.status === "PENDING") {
    const checkAt = nextCheck(attempt, now);
    await updateOpenAttempt(trx, attempt.id, {
      provider_ref: reference,
      check_at: checkAt,
      updated_at: now,
    });
    afterCommit(services.store, () => services.scheduler.wake(PAYMENT_ATTEMPTS_JOB, checkAt));
    return await transition(trx, services, payment, "PROCESSING", orgNow) ?? payment;
  }
  const closed = await updateOpenAttempt(trx, attempt.id, {
    provider_ref: reference,
    status: outcome.status,
    failure_code: outcome.status === "FAILED" ? outcome.failureCode : null,
    finished_at: now,
    updated_at: now,
  });
  if (!closed) return payment;
  if (outcome.status === "FAILED" && outcome.failureCode === "provider_unavailable") {
    if (payment.status === "PENDING") {
      // The payment may have passed its expiry while the attempt held it.
      afterCommit(services.store, () => {
        services.scheduler.wake(PAYMENT_DEADLINES_JOB, now);
        services.scheduler.wake(CHECKOUT_EXPIRY_JOB, now);
      });
      return payment;
    }
  }
  return await settlePayment(trx, services, attempt, payment, outcome, orgNow);
}

/** When to ask about a pending attempt next: a poll, but never later than its deadline. */
function nextCheck(attempt: AttemptRecord, now: number): number {
  const poll = now + POLL_INTERVAL_MS;
  return attempt.deadline_at === null ? poll : Math.min(poll, Math.max(attempt.deadline_at, now));
}

async function settlePayment(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  attempt: AttemptRecord,
  payment: PaymentRecord,
  outcome: Exclude<ProviderOutcome, { status: "PENDING" }>,
  orgNow: number,
): Promise<PaymentRecord> {
  let current = payment;
  if (current.status === "PENDING") {
    current = await transition(trx, services, current, "PROCESSING", orgNow) ?? current;
  }
  if (isFinal(current.status as PaymentStatus)) {
    if (outcome.status === "SUCCEEDED") {
      // NOTE: money was taken for a payment that had already ended; only a person can give it
      // back, so it is logged loudly rather than changing a final payment.
      services.log.error("the provider took a payment that is already final", {
        paymentId: current.public_id,
        attemptId: attempt.public_id,
        status: current.status,
      });
    }
    return current;
  }
  const final = await transition(trx, services, current, outcome.status, orgNow, {
    failure_code: outcome.status === "FAILED" ? outcome.failureCode : null,
    processing_deadline_at: null,
  });
  return final ?? current;
}
