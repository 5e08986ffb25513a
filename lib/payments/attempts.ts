import { findOffer } from "../../db/offers.ts";
import {
  findOpenAttempt,
  insertAttempt,
  type PaymentAttemptRow,
} from "../../db/payment_attempts.ts";
import { findPayment, type PaymentRecord } from "../../db/payments.ts";
import type { Kysely } from "kysely";
import type { EnvironmentSchema } from "../../db/schema.ts";
import type { OrgContext, Services } from "../context.ts";
import { ApiError } from "../errors.ts";
import { newId } from "../ids.ts";
import { errorFields } from "../log.ts";
import { ProviderUnavailableError } from "../providers/mod.ts";
import { assertSubscriptionPayable } from "../subscriptions/link_rules.ts";
import { assertPayable } from "./mod.ts";
import { applyAttemptOutcome, type AttemptAnswer, POLL_INTERVAL_MS } from "./outcome.ts";

/** Who typed the code: the customer's address as it reached us through trusted proxies. */
export interface Payer {
  ip: string;
}

/**
 * Opens an attempt for a pending payment in `trx` (system time `now`), before the provider hears
 * of it. Throws 409 while another attempt of the payment waits for the provider, or when the
 * payment can no longer be paid; a subscription's rules apply too (links.ts).
 */
export async function openAttempt(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  payment: PaymentRecord,
  orgNow: number,
  now: number,
): Promise<PaymentAttemptRow> {
  const current = (await findPayment(trx, payment.org_id, payment.public_id))!;
  assertPayable(current, orgNow);
  await assertSubscriptionPayable(trx, services, current);
  // NOTE: with the unique index on open attempts, this makes a second code on the same payment
  // a 409 while the first is with the provider, so one payment is never charged twice.
  if (await findOpenAttempt(trx, current.id)) {
    throw new ApiError(
      "payment_processing",
      `The payment '${payment.public_id}' is waiting for the customer's confirmation; wait for its result.`,
    );
  }
  return await insertAttempt(trx, {
    public_id: newId("paymentAttempt"),
    org_id: current.org_id,
    payment_id: current.id,
    provider: services.provider.name,
    provider_ref: null,
    status: "OPEN",
    failure_code: null,
    deadline_at: now + services.provider.orderValidityMs,
    // Asked about after a minute unless an answer comes first: the answer's write wakes the job,
    // and the minute's sweep (or the next start) finds an attempt a crash left behind.
    check_at: now + POLL_INTERVAL_MS,
    created_at: now,
    updated_at: now,
    finished_at: null,
  });
}

/**
 * Sends an open attempt's code to the provider and applies its answer (see `authorizeAttempt`).
 */
export async function sendAttempt(
  ctx: OrgContext,
  payment: PaymentRecord,
  attempt: PaymentAttemptRow,
  code: string,
  payer: Payer,
): Promise<PaymentRecord> {
  const { services } = ctx;
  const answer = await authorizeAttempt(services, payment, attempt, code, payer);
  const updated = await ctx.write((trx) =>
    applyAttemptOutcome(trx, services, attempt.public_id, answer, services.clock.now())
  );
  return updated!;
}

/**
 * Sends an open attempt's code to the provider; returns its answer for `applyAttemptOutcome`.
 * A refused connection fails the attempt with `provider_unavailable`; a timeout or lost answer
 * is PENDING (the order may exist) and reconciliation decides.
 */
export async function authorizeAttempt(
  services: Services,
  payment: PaymentRecord,
  attempt: PaymentAttemptRow,
  code: string,
  payer: Payer,
): Promise<AttemptAnswer> {
  const offer = (await findOffer(services.store.db, payment.org_id, payment.qr_id))!;
  try {
    return await services.provider.authorize({
      attemptId: attempt.public_id,
      paymentId: payment.public_id,
      amount: payment.amount,
      currency: payment.currency,
      code,
      description: offer.name,
      customerIp: payer.ip,
      buyerEmail: payment.customer_email,
      products: [{
        name: offer.name,
        unitPrice: Math.floor(payment.amount / payment.quantity),
        quantity: payment.quantity,
      }],
    });
  } catch (error) {
    const unreachable = error instanceof ProviderUnavailableError;
    services.log.warn(
      unreachable ? "provider unreachable; attempt failed" : "provider answer unknown; polling",
      { attemptId: attempt.public_id, ...errorFields(error) },
    );
    return {
      reference: null,
      outcome: unreachable
        ? { status: "FAILED", failureCode: "provider_unavailable" }
        : { status: "PENDING" },
    };
  }
}
