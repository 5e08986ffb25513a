import { findAttemptByPublicId, findOpenAttempt } from "../../db/payment_attempts.ts";
import { findPayment } from "../../db/payments.ts";
import type { OrgContext } from "../context.ts";
import { ApiError, notFound } from "../errors.ts";
import { flowOf, type MethodChoice, type PaymentMethod } from "../providers/mod.ts";
import { SANDBOX_BANKS } from "../providers/sandbox.ts";
import { giveUpAttempt, type Payer, startAttempt } from "./attempts.ts";
import {
  assertPayable,
  getPayment,
  type PaymentRecord,
  requireSandbox,
  transition,
} from "./mod.ts";
import { settleSandboxRedirect } from "./sandbox_redirect.ts";
import type { CompletePaymentRequest } from "./schemas.ts";

/** The sandbox's operations have no customer at a browser; they pay from the loopback address. */
export const SANDBOX_PAYER: Payer = { ip: "127.0.0.1", language: null };

/**
 * The sandbox "complete" operation's attempt: a test code, or a redirect method paid (or
 * declined) at once, as the customer would on the sandbox's page. A transfer goes through the
 * first test bank unless one is named.
 */
export function completionChoice(request: CompletePaymentRequest): MethodChoice {
  if ("code" in request) return { method: "blik", code: request.code };
  if (request.method === "transfer") {
    return { method: "transfer", bank: request.bank ?? SANDBOX_BANKS[0].bank };
  }
  return { method: request.method };
}

/**
 * Runs the complete operation's attempt on `payment` (or a session's): a code is decided by the
 * simulator, a redirect method by the result the merchant asked for. Returns the payment after.
 */
export async function completeAttempt(
  ctx: OrgContext,
  payment: PaymentRecord,
  request: CompletePaymentRequest,
): Promise<PaymentRecord> {
  requireSandbox(ctx.services);
  const start = await startAttempt(ctx, payment, completionChoice(request), SANDBOX_PAYER);
  if (start.redirectUrl === null || "code" in request) return start.payment;
  const open = await findOpenAttempt(ctx.db, payment.id);
  const settled = open &&
    await settleSandboxRedirect(ctx.services, open.public_id, request.result);
  return settled ?? start.payment;
}

/** The sandbox "complete" operation: pays one of the organisation's payments. */
export async function completePayment(
  ctx: OrgContext,
  paymentId: string,
  request: CompletePaymentRequest,
): Promise<PaymentRecord> {
  requireSandbox(ctx.services);
  return await completeAttempt(ctx, await getPayment(ctx, paymentId), request);
}

/**
 * Cancels a pending payment; writes `payment.canceled`. An undecided redirect attempt (the
 * customer on the bank's page) is given up at its provider first; a code being confirmed is 409.
 */
export async function cancelPayment(ctx: OrgContext, paymentId: string): Promise<PaymentRecord> {
  const payment = await getPayment(ctx, paymentId);
  assertPayable(payment, ctx.now());
  const open = await findOpenAttempt(ctx.db, payment.id);
  if (open && flowOf(open.method as PaymentMethod) === "redirect") {
    await giveUpAttempt(ctx.services, (await findAttemptByPublicId(ctx.db, open.public_id))!);
  }
  return await ctx.write(async (trx) => {
    const current = await findPayment(trx, ctx.orgId, paymentId);
    if (!current) throw notFound("payment", paymentId, "paymentId");
    const now = ctx.now();
    assertPayable(current, now);
    if (await findOpenAttempt(trx, current.id)) {
      throw new ApiError(
        "payment_processing",
        `The payment '${paymentId}' is waiting for the customer's confirmation; it cannot be canceled now.`,
      );
    }
    const canceled = await transition(trx, ctx.services, current, "CANCELED", now);
    if (!canceled) throw new Error("A pending payment read in this transaction changed status.");
    return canceled;
  });
}
