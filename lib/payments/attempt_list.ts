import { listAttemptsOfPayment, type PaymentAttemptRow } from "../../db/payment_attempts.ts";
import { toIso } from "../clock.ts";
import type { OrgContext } from "../context.ts";
import type { FailureCode, PaymentMethod } from "../providers/mod.ts";
import { getPayment } from "./mod.ts";
import type { PaymentAttempt } from "./schemas.ts";

/** The API form of an attempt: an open one is PENDING. */
export function toPaymentAttempt(row: PaymentAttemptRow): PaymentAttempt {
  return {
    attemptId: row.public_id,
    method: row.method as PaymentMethod,
    bank: row.bank,
    provider: row.provider,
    status: row.status === "OPEN" ? "PENDING" : row.status as PaymentAttempt["status"],
    failureCode: row.failure_code as FailureCode | null,
    createdAt: toIso(row.created_at),
  };
}

/** One of the organisation's payments' attempts, oldest first; 404 for an unknown payment. */
export async function listPaymentAttempts(
  ctx: OrgContext,
  paymentId: string,
): Promise<PaymentAttemptRow[]> {
  const payment = await getPayment(ctx, paymentId);
  return await listAttemptsOfPayment(ctx.db, payment.id);
}
