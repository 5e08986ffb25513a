import { REFUNDS_JOB } from "../jobs.ts";
import type { Kysely } from "kysely";
import { findPayment } from "../../db/payments.ts";
import {
  type ClaimedRefund,
  findRefund,
  insertRefund,
  listRefundsOfPayment,
  type RefundRecord,
  releasePaymentRefund,
  reservePaymentRefund,
  setPendingRefundReference,
  transitionRefund,
} from "../../db/refunds.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import { afterCommit } from "../after_commit.ts";
import { toIso } from "../clock.ts";
import type { OrgContext, Services } from "../context.ts";
import { ApiError, notFound } from "../errors.ts";
import { queueRefundNotice } from "../emails/outbox.ts";
import { recordEvent } from "../events.ts";
import { newId } from "../ids.ts";
import { pageAfter } from "../pagination.ts";
import type { PaymentRecord } from "../payments/mod.ts";
import type { RefundAnswer, RefundFailureCode, RefundOutcome } from "../providers/mod.ts";
import type { ListQuery, Page } from "../schemas.ts";
import type { CreateRefundRequest, Refund } from "./schemas.ts";
import { canTransition, MILESTONE_COLUMN, type RefundStatus, TRANSITION_EVENT } from "./status.ts";

export type { RefundRecord };

/** The API form of a refund. */
export function toRefund(row: RefundRecord): Refund {
  return {
    refundId: row.public_id,
    paymentId: row.payment_public_id,
    amount: row.amount,
    currency: row.currency,
    status: row.status as RefundStatus,
    reason: row.reason,
    failureCode: row.failure_code as RefundFailureCode | null,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    version: row.version,
  };
}

function exceedsPayment(payment: PaymentRecord, amount: number, explicit: boolean): ApiError {
  const left = payment.amount - payment.amount_refunded;
  if (left === 0) {
    return new ApiError(
      "refund_exceeds_payment",
      `The payment '${payment.public_id}' is already refunded in full (pending refunds count).`,
      explicit ? { param: "amount" } : {},
    );
  }
  return new ApiError(
    "refund_exceeds_payment",
    `Refunding ${amount} would exceed the payment '${payment.public_id}': ${left} of its ` +
      `${payment.amount} ${payment.currency} is left to refund (pending refunds count).`,
    { param: "amount" },
  );
}

/**
 * How much a refund of `payment` takes: `requested`, or else all that is left to refund; the
 * 409 or 400 a refund would get when the payment can't give that back.
 */
export function refundAmountOf(payment: PaymentRecord, requested: number | undefined): number {
  if (payment.status !== "SUCCEEDED") {
    throw new ApiError(
      "payment_not_succeeded",
      `The payment '${payment.public_id}' is ${payment.status}; only a SUCCEEDED payment can be refunded.`,
    );
  }
  const left = payment.amount - payment.amount_refunded;
  const amount = requested ?? left;
  if (amount === 0 || amount > left) throw exceedsPayment(payment, amount, requested !== undefined);
  return amount;
}

/**
 * Creates a PENDING refund of a succeeded payment and reserves its amount in the payment's
 * `amountRefunded`, in one transaction; writes `refund.created`. The provider is asked after
 * the commit, by the refunds job.
 */
export async function createRefund(
  ctx: OrgContext,
  paymentId: string,
  input: CreateRefundRequest,
): Promise<RefundRecord> {
  const now = ctx.now();
  const { services } = ctx;
  return await ctx.write(async (trx) => {
    const payment = await findPayment(trx, ctx.orgId, paymentId);
    if (!payment) throw notFound("payment", paymentId, "paymentId");
    const amount = refundAmountOf(payment, input.amount);
    // NOTE: the reservation is a conditional update inside the write transaction, so refunds
    // racing on one payment are decided one after another and never add up beyond its amount;
    // the table's CHECK constraint backs it up.
    if (!await reservePaymentRefund(trx, payment.id, amount, now)) {
      throw exceedsPayment(payment, amount, input.amount !== undefined);
    }
    const row = await insertRefund(trx, {
      public_id: newId("refund"),
      org_id: ctx.orgId,
      payment_id: payment.id,
      amount,
      currency: payment.currency,
      status: "PENDING",
      reason: input.reason ?? null,
      failure_code: null,
      provider_ref: null,
      attempt_id: null,
      locked_until: services.clock.now(),
      created_at: now,
      updated_at: now,
    });
    const refund: RefundRecord = { ...row, payment_public_id: payment.public_id };
    await recordEvent(trx, {
      orgId: ctx.orgId,
      type: "refund.created",
      environment: services.environment,
      createdAt: now,
      data: toRefund(refund),
    });
    afterCommit(trx, () => services.scheduler.wake(REFUNDS_JOB, services.clock.now()));
    return refund;
  });
}

/** Why money an attempt took is given back at once, without anyone asking (`refundAttempt`). */
export const AUTOMATIC_REFUND_REASONS = {
  /** The payment was paid already, through another attempt. */
  duplicate: "duplicate_payment",
  /** The payment had ended unpaid (failed, expired or canceled) when the money came. */
  late: "late_payment",
} as const;

/**
 * Gives back in full, at once, what an attempt took for a payment that cannot keep it: paid
 * already through another attempt (`duplicate_payment`), or ended unpaid (`late_payment`). The
 * refund names the attempt, so the provider returns that attempt's money; it is not part of the
 * payment's `amountRefunded`, which counts what the merchant gave back of the sale. Writes
 * `refund.created` in `trx`; the refunds job sends it. `now` is the organisation's time.
 */
export async function refundAttempt(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  payment: PaymentRecord,
  attempt: { id: number; public_id: string },
  now: number,
): Promise<void> {
  const reason = payment.status === "SUCCEEDED"
    ? AUTOMATIC_REFUND_REASONS.duplicate
    : AUTOMATIC_REFUND_REASONS.late;
  services.log.warn("an attempt took money the payment cannot keep; refunding it in full", {
    paymentId: payment.public_id,
    attemptId: attempt.public_id,
    status: payment.status,
    reason,
  });
  const row = await insertRefund(trx, {
    public_id: newId("refund"),
    org_id: payment.org_id,
    payment_id: payment.id,
    attempt_id: attempt.id,
    amount: payment.amount,
    currency: payment.currency,
    status: "PENDING",
    reason,
    failure_code: null,
    provider_ref: null,
    locked_until: services.clock.now(),
    created_at: now,
    updated_at: now,
  });
  await recordEvent(trx, {
    orgId: payment.org_id,
    type: "refund.created",
    environment: services.environment,
    createdAt: now,
    data: toRefund({ ...row, payment_public_id: payment.public_id }),
  });
  afterCommit(trx, () => services.scheduler.wake(REFUNDS_JOB, services.clock.now()));
}

/** Gets one of the organisation's refunds or throws 404. */
export async function getRefund(ctx: OrgContext, refundId: string): Promise<RefundRecord> {
  const row = await findRefund(ctx.db, ctx.orgId, refundId);
  if (!row) throw notFound("refund", refundId, "refundId");
  return row;
}

/** Lists a payment's refunds newest first; 404 for a payment of another organisation. */
export async function listRefunds(
  ctx: OrgContext,
  paymentId: string,
  query: ListQuery,
): Promise<Page<RefundRecord>> {
  const payment = await findPayment(ctx.db, ctx.orgId, paymentId);
  if (!payment) throw notFound("payment", paymentId, "paymentId");
  return pageAfter(
    query,
    async (refundId) => {
      const refund = await findRefund(ctx.db, ctx.orgId, refundId);
      return refund?.payment_id === payment.id ? refund : undefined;
    },
    (beforeId, limit) => listRefundsOfPayment(ctx.db, payment.id, { beforeId, limit }),
  );
}

/** The provider's final word on a refund. */
type RefundResult = Exclude<RefundOutcome, { status: "PENDING" }>;

/** How often a refund the provider is still working on is asked about, without a notification. */
const REFUND_POLL_MS = 60_000;

/**
 * Applies the provider's word on a refund in `trx`, whichever way it came (the answer to the
 * call, a verified notification, a status query): PENDING records the provider's id and asks
 * again later; a final status ends the refund once (compare-and-set). `now` is system time.
 */
export async function applyRefundAnswer(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  refund: ClaimedRefund,
  answer: RefundAnswer,
  now: number,
): Promise<void> {
  const reference = answer.reference ?? refund.provider_ref;
  if (answer.outcome.status === "PENDING") {
    await setPendingRefundReference(trx, refund.id, reference, now + REFUND_POLL_MS);
    afterCommit(trx, () => services.scheduler.wake(REFUNDS_JOB, now + REFUND_POLL_MS));
    return;
  }
  if (reference !== refund.provider_ref) {
    await setPendingRefundReference(trx, refund.id, reference, refund.locked_until);
  }
  await recordRefundResult(trx, services, refund, answer.outcome);
}

/**
 * Records the provider's answer to a claimed refund, with its event; a FAILED refund gives its
 * amount back to the payment. Does nothing if another process recorded an answer first.
 */
async function recordRefundResult(
  trx: Kysely<EnvironmentSchema>,
  services: Services,
  refund: ClaimedRefund,
  result: RefundResult,
): Promise<void> {
  const from = refund.status as RefundStatus;
  const to = result.status;
  if (!canTransition(from, to)) return;
  const now = services.clock.now() + refund.clock_offset;
  const updated = await transitionRefund(trx, refund.id, from, to, {
    failure_code: result.status === "FAILED" ? result.failureCode : null,
    [MILESTONE_COLUMN[to]]: now,
    updated_at: now,
  });
  if (!updated) return;
  // NOTE: released only by the compare-and-set winner, so a failure is given back exactly once.
  if (to === "FAILED" && refund.attempt_id === null) {
    await releasePaymentRefund(trx, refund.payment_id, refund.amount, now);
  }
  await recordEvent(trx, {
    orgId: refund.org_id,
    type: TRANSITION_EVENT[to],
    environment: services.environment,
    createdAt: now,
    data: toRefund({ ...updated, payment_public_id: refund.payment_public_id }),
  });
  if (to === "SUCCEEDED") await queueRefundNotice(trx, services, refund, now);
}
