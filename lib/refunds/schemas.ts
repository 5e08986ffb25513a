import { z } from "zod";
import { REFUND_FAILURE_CODES } from "../providers/mod.ts";
import { Amount, NOT_BLANK, Timestamp, Version } from "../schemas.ts";
import { REFUND_STATUSES } from "./status.ts";

export const CreateRefundRequest = z.strictObject({
  amount: Amount.optional().meta({
    description: "How much to refund, in minor units; by default everything not yet refunded.",
  }),
  reason: z.string().trim().min(1).max(500).optional().meta({
    ...NOT_BLANK,
    description: "Why the money goes back, for your records and the payment method.",
    example: "Customer returned the item",
  }),
}).meta({ id: "CreateRefundRequest" });
export type CreateRefundRequest = z.infer<typeof CreateRefundRequest>;

export const Refund = z.strictObject({
  refundId: z.string().meta({ example: "re_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1" }),
  paymentId: z.string(),
  amount: z.int(),
  currency: z.string(),
  status: z.enum(REFUND_STATUSES).meta({
    description: "PENDING until the payment method answers, then SUCCEEDED or FAILED.",
  }),
  reason: z.string().nullable(),
  failureCode: z.enum(REFUND_FAILURE_CODES).nullable().meta({
    description: "Why the payment method refused the refund; null unless FAILED.",
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version,
}).meta({
  id: "Refund",
  description: "Money given back from a succeeded payment. While PENDING or SUCCEEDED its " +
    "amount counts in the payment's amountRefunded; a FAILED refund gives it back.",
});
export type Refund = z.infer<typeof Refund>;
