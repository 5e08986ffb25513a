import type { Kysely } from "kysely";
import {
  type AttemptRecord,
  findAttemptByPublicId,
  updateAttempt,
  updateOpenAttempt,
} from "../../db/payment_attempts.ts";
import { findPaymentByPublicId, type PaymentRecord } from "../../db/payments.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import { afterCommit } from "../after_commit.ts";
import type { Services } from "../context.ts";
import { CHECKOUT_EXPIRY_JOB, PAYMENT_ATTEMPTS_JOB, PAYMENT_DEADLINES_JOB } from "../jobs.ts";
import { flowOf, type PaymentMethod, type ProviderOutcome } from "../providers/mod.ts";
import { refundAttempt } from "../refunds/mod.ts";
import { transition } from "./mod.ts";
import { isFinal, type PaymentStatus } from "./status.ts";

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
 * nothing. PENDING keeps the attempt open (a code's payment moves to PROCESSING; a redirect
 * method's stays PENDING, so the customer may still choose another way) and schedules the next
 * question; SUCCEEDED and FAILED end attempt and payment. `provider_unavailable` (nothing reached
 * the provider) ends the attempt and leaves a PENDING payment payable.
 *
 * NOTE: money taken is never ignored. An attempt given up (CANCELED) may still succeed, as a bank
 * that took the money before the cancellation arrived; money taken for a payment that another
 * attempt already paid, or that ended unpaid, is refunded in full at once (`refundAttempt`).
 * `now` is system time.
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
  const { outcome } = answer;
  const reference = answer.reference ?? attempt.provider_ref;
  if (attempt.status === "CANCELED") {
    await applyToCanceled(trx, services, attempt, payment, answer, now);
    return (await findPaymentByPublicId(trx, attempt.payment_public_id))!;
  }
  if (attempt.status !== "OPEN") return payment;
  const orgNow = now + attempt.clock_offset;
  if (outcome.status === "PENDING") {
    const checkAt = nextCheck(attempt, now);
    await updateOpenAttempt(trx, attempt.id, {
      provider_ref: reference,
      check_at: checkAt,
      updated_at: now,
    });
    afterCommit(trx, () => services.scheduler.wake(PAYMENT_ATTEMPTS_JOB, checkAt));
    if (flowOf(attempt.method as PaymentMethod) === "redirect") return payment;
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
      wakeDeadlines(trx, services, now);
      return payment;
    }
  }
  return await settlePayment(
    trx,
    services,
    { ...attempt, provider_ref: reference },
    payment,
    outcome,
    orgNow,
  );
}

/** The payment may have passed its expiry while an attempt held it: the jobs look again. */
function wakeDeadlines(trx: Kysely<EnvironmentSchema>, services: Services, now: number): void {
  afterCommit(trx, () => {
    services.scheduler.wake(PAYMENT_DEADLINES_JOB, now);
    services.scheduler.wake(CHECKOUT_EXPIRY_JOB, now);
  });
}

/**
 * The provider's word on an attempt Paystead gave up: money taken is recorded and given back or
 * kept (see settlePayment); a refusal or cancellation confirmed ends the watch.
 */
async function applyToCanceled(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  attempt: AttemptRecord,
  payment: PaymentRecord,
  answer: AttemptAnswer,
  now: number,
): Promise<void> {
  const { outcome } = answer;
  if (outcome.status === "PENDING") return;
  const reference = answer.reference ?? attempt.provider_ref;
  if (outcome.status === "FAILED") {
    await updateAttempt(trx, attempt.id, "CANCELED", { watch_until: null, updated_at: now });
    return;
  }
  const taken = await updateAttempt(trx, attempt.id, "CANCELED", {
    status: "SUCCEEDED",
    provider_ref: reference,
    watch_until: null,
    finished_at: now,
    updated_at: now,
  });
  if (!taken) return;
  await settlePayment(
    trx,
    services,
    { ...attempt, provider_ref: reference },
    payment,
    outcome,
    now + attempt.clock_offset,
  );
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
  if (isFinal(current.status as PaymentStatus)) {
    if (outcome.status === "SUCCEEDED") {
      await refundAttempt(trx, services, current, attempt, orgNow);
    }
    return current;
  }
  if (current.status === "PENDING") {
    current = await transition(trx, services, current, "PROCESSING", orgNow) ?? current;
  }
  const final = await transition(trx, services, current, outcome.status, orgNow, {
    failure_code: outcome.status === "FAILED" ? outcome.failureCode : null,
    processing_deadline_at: null,
    attempt_id: attempt.id,
    payment_method: attempt.method,
    bank: attempt.bank,
    provider: attempt.provider,
  });
  return final ?? current;
}
