import type { Kysely } from "kysely";
import { findAttemptByPublicId } from "../../db/payment_attempts.ts";
import { findPaymentByPublicId } from "../../db/payments.ts";
import { findRefundForProvider } from "../../db/refunds.ts";
import type { EnvironmentSchema } from "../../db/schema.ts";
import type { Services } from "../context.ts";
import type { CallbackTranslation, ProviderCallback } from "../providers/mod.ts";
import { applyRefundAnswer } from "../refunds/mod.ts";
import { applyAttemptOutcome } from "./outcome.ts";

type AttemptCallback = Extract<CallbackTranslation, { kind: "attempt" }>;
type RefundCallback = Extract<CallbackTranslation, { kind: "refund" }>;

/**
 * Takes a callback the provider posted: false when its signature does not hold (nothing
 * changes). The provider only translates it; this applies it through the same paths as polling,
 * so repeats and late, out-of-order ones change nothing. One about an attempt or refund we do
 * not know, or whose order id, amount or currency differs from the attempt's, is logged and
 * accepted (a provider repeats anything it does not see accepted) and changes nothing.
 */
export async function receiveProviderCallback(
  services: Services,
  callback: ProviderCallback,
): Promise<boolean> {
  const { provider } = services;
  const translation = await provider.notifications!.translate(callback, services.clock.now());
  switch (translation.kind) {
    case "forged":
      return false;
    case "ignored":
      services.log.warn("provider notification not applied", { provider: provider.name });
      return true;
    case "rejected":
      reject(services, translation, translation.field);
      return true;
    case "attempt":
      await applyAttemptCallback(services, translation);
      return true;
    case "refund":
      await applyRefundCallback(services, translation);
      return true;
  }
}

/** The first field in which a notified attempt differs from the one sent; undefined if none. */
async function mismatchOf(
  db: Kysely<EnvironmentSchema>,
  notified: AttemptCallback,
): Promise<string | null | undefined> {
  const attempt = await findAttemptByPublicId(db, notified.attemptId);
  if (!attempt) return undefined;
  if (attempt.provider_ref !== null && attempt.provider_ref !== notified.reference) {
    return "reference";
  }
  const payment = (await findPaymentByPublicId(db, attempt.payment_public_id))!;
  if (payment.amount !== notified.amount) return "amount";
  if (payment.currency !== notified.currency) return "currency";
  return null;
}

/**
 * Logs and counts a signed notification that does not match the attempt. NOTE: it changes
 * nothing, not even the stored reference (a refund would go to that order): a leaked key must
 * not decide a payment; the attempt's polling asks the provider for the truth.
 */
function reject(
  services: Services,
  notified: { attemptId: string; reference: string },
  field: string,
): void {
  services.provider.health.recordRejectedNotification(field);
  services.log.error("security: a signed notification does not match the order sent; ignored", {
    provider: services.provider.name,
    field,
    reference: notified.reference,
    attemptId: notified.attemptId,
  });
}

async function applyAttemptCallback(services: Services, notified: AttemptCallback): Promise<void> {
  const before = await mismatchOf(services.store.db, notified);
  if (before === undefined) {
    services.log.warn("notification about an unknown attempt", {
      provider: services.provider.name,
      reference: notified.reference,
      attemptId: notified.attemptId,
    });
    return;
  }
  if (before !== null) return reject(services, notified, before);
  const outcome = await notified.outcome();
  const mismatch = await services.store.write(async (trx) => {
    // The answer to the create call may have stored the reference since the check above.
    const field = await mismatchOf(trx, notified);
    if (field !== null) return field ?? "attemptId";
    await applyAttemptOutcome(
      trx,
      services,
      notified.attemptId,
      { reference: notified.reference, outcome },
      services.clock.now(),
    );
    return null;
  });
  if (mismatch !== null) reject(services, notified, mismatch);
}

async function applyRefundCallback(services: Services, notified: RefundCallback): Promise<void> {
  await services.store.write(async (trx) => {
    const found = (notified.refundId &&
      await findRefundForProvider(trx, { publicId: notified.refundId })) ||
      await findRefundForProvider(trx, { reference: notified.reference });
    if (!found) {
      services.log.warn("notification about an unknown refund", {
        provider: services.provider.name,
        reference: notified.reference,
      });
      return;
    }
    await applyRefundAnswer(
      trx,
      services,
      found,
      { reference: notified.reference, outcome: notified.outcome },
      services.clock.now(),
    );
  });
}
