import { findAttemptByPublicId } from "../../db/payment_attempts.ts";
import type { Services } from "../context.ts";
import { translator } from "../i18n/mod.ts";
import { findPublicPayment } from "../payments/mod.ts";
import { SANDBOX_BANKS, SIMULATOR_NAME } from "../providers/sandbox.ts";
import { type Audience, audienceOf, type LanguageRequest } from "./pages.ts";

/**
 * The sandbox's stand-in for a bank's or card's page (`/sandbox/redirect/{attemptId}`): what is
 * paid, to whom, and whether the attempt can still be decided here.
 */
export interface SandboxBankPage extends Audience {
  attemptId: string;
  paymentId: string;
  method: string;
  /** The test bank's name for a transfer; null for a card or wallet. */
  bankName: string | null;
  amountLabel: string;
  /** Pay and decline are offered: the attempt is undecided, or given up (CANCELED) meanwhile. */
  decidable: boolean;
  /** The shop gave the attempt up; paying now is money taken after all. */
  canceled: boolean;
}

/** Loads the page of the simulator's attempt `attemptId`; undefined outside the sandbox. */
export async function loadSandboxBankPage(
  services: Services,
  attemptId: string,
  request: LanguageRequest,
): Promise<SandboxBankPage | undefined> {
  if (services.environment !== "sandbox") return undefined;
  const attempt = await findAttemptByPublicId(services.store.db, attemptId);
  if (!attempt || attempt.provider !== SIMULATOR_NAME || attempt.method === "blik") {
    return undefined;
  }
  const payment = (await findPublicPayment(services, attempt.payment_public_id))!;
  const audience = await audienceOf(services, payment.org_id, payment.locale, request);
  // NOTE: a canceled attempt stays payable here whether or not its cancellation was confirmed,
  // so "paid once" (a duplicate refunded in full) can be tried in the sandbox.
  const canceled = attempt.status === "CANCELED";
  return {
    ...audience,
    attemptId,
    paymentId: payment.public_id,
    method: attempt.method,
    bankName: SANDBOX_BANKS.find((bank) => bank.bank === attempt.bank)?.name ?? null,
    amountLabel: translator(audience.language).money(payment.amount, payment.currency),
    decidable: attempt.status === "OPEN" || canceled,
    canceled,
  };
}
