import { REFUNDS_JOB } from "../jobs.ts";
import { type ClaimedRefund, claimPendingRefunds, nextPendingRefundAt } from "../../db/refunds.ts";
import type { Services } from "../context.ts";
import { withDeadline } from "../deadline.ts";
import { errorFields } from "../log.ts";
import type { RefundAnswer } from "../providers/mod.ts";
import type { ScheduledJob } from "../scheduler.ts";
import { applyRefundAnswer } from "./mod.ts";

/** How long a claim keeps other processes off a refund; longer than a provider call may take. */
const LEASE_MS = 60_000;
/** How long the provider may take to answer before the outcome counts as unknown. */
const PROVIDER_TIMEOUT_MS = 20_000;
/** Refunds claimed, and sent to the provider concurrently, at a time. */
const BATCH_SIZE = 25;
/** Batches per run before the job yields to the others (it is run again at once). */
const MAX_ROUNDS = 50;

async function sendRefund(services: Services, refund: ClaimedRefund): Promise<void> {
  const request = {
    idempotencyKey: refund.public_id,
    paymentId: refund.payment_public_id,
    attemptId: refund.attempt_public_id ?? refund.payment_public_id,
    paymentReference: refund.attempt_provider_ref,
    amount: refund.amount,
    currency: refund.currency,
    reason: refund.reason,
  };
  let answer: RefundAnswer | null;
  try {
    // A refund the provider acknowledged is asked about; one it never acknowledged is sent
    // (again): the refund id is the provider's external id, so a repeat refunds nothing twice.
    answer = await withDeadline(
      refund.provider_ref === null
        ? services.provider.refund(request)
        : services.provider.lookupRefund({ ...request, reference: refund.provider_ref }),
      PROVIDER_TIMEOUT_MS,
      `The provider's refund ${refund.public_id}`,
    );
  } catch (error) {
    // NOTE: an unknown outcome is never turned into FAILED: the provider may have paid out, and
    // releasing the reservation would let the money be refunded twice. The refund stays PENDING
    // and is sent again, under the same idempotency key, when its lease runs out.
    services.log.warn("refund outcome unknown; retrying after the lease", {
      refundId: refund.public_id,
      ...errorFields(error),
    });
    return;
  }
  if (answer === null) {
    services.log.error("the provider no longer knows a refund it acknowledged", {
      refundId: refund.public_id,
      reference: refund.provider_ref,
    });
    return;
  }
  const settled = answer;
  await services.store.write((trx) =>
    applyRefundAnswer(trx, services, refund, settled, services.clock.now())
  );
}

/**
 * Sends pending refunds to the provider and asks about those it is still working on: claims a
 * batch with a lease (one write), calls the provider outside any transaction with the refund id
 * as idempotency key, and applies each answer with compare-and-set. A process that dies mid-way leaves a lease that runs out; the
 * refund is then sent again and the provider answers the same without refunding twice.
 */
export function refundsJob(services: Services): ScheduledJob {
  return {
    name: REFUNDS_JOB,
    async run(now) {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        // A read first, so an idle run costs no write transaction.
        const next = await nextPendingRefundAt(services.store.db);
        if (next === null || next > now) return next;
        const claimed = await services.store.write((trx) =>
          claimPendingRefunds(trx, now, now + LEASE_MS, BATCH_SIZE)
        );
        const sent = await Promise.allSettled(
          claimed.map((refund) => sendRefund(services, refund)),
        );
        const failure = sent.find((outcome) => outcome.status === "rejected");
        if (failure) throw failure.reason;
      }
      return now;
    },
  };
}
