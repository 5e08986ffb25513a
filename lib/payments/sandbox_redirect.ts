import { findAttemptByPublicId } from "../../db/payment_attempts.ts";
import { findPaymentByPublicId, type PaymentRecord } from "../../db/payments.ts";
import type { Services } from "../context.ts";
import type { ProviderOutcome } from "../providers/mod.ts";
import { SIMULATOR_NAME } from "../providers/sandbox.ts";
import { applyAttemptOutcome } from "./outcome.ts";

/** What the customer does on the sandbox's redirect page, besides leaving without paying. */
export type SandboxBankResult = "succeeded" | "declined";

/**
 * The sandbox's "bank" decides a redirect attempt of its simulator, as a real provider's
 * notification would: paid, or declined. An attempt given up meanwhile may still be paid, as a
 * bank that took the money before the cancellation arrived (see applyAttemptOutcome). Undefined
 * for an attempt that is not the simulator's, or is unknown.
 */
export async function settleSandboxRedirect(
  services: Services,
  attemptId: string,
  result: SandboxBankResult,
): Promise<PaymentRecord | undefined> {
  const attempt = await findAttemptByPublicId(services.store.db, attemptId);
  if (!attempt || attempt.provider !== SIMULATOR_NAME || services.environment !== "sandbox") {
    return undefined;
  }
  const outcome: ProviderOutcome = result === "succeeded"
    ? { status: "SUCCEEDED" }
    : { status: "FAILED", failureCode: "declined" };
  await services.store.write((trx) =>
    applyAttemptOutcome(
      trx,
      services,
      attemptId,
      { reference: null, outcome },
      services.clock.now(),
    )
  );
  return await findPaymentByPublicId(services.store.db, attempt.payment_public_id);
}
