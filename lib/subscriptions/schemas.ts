import { z } from "zod";
import { RECURRING_INTERVALS } from "../offers.ts";
import { ListQuery, Timestamp, Version } from "../schemas.ts";
import { CANCELLATION_REASONS, SUBSCRIPTION_STATUSES } from "./status.ts";

export const CancelSubscriptionRequest = z.strictObject({
  atPeriodEnd: z.boolean().default(false).meta({
    description: "true: keep it until the paid period ends, then cancel instead of renewing. " +
      "false (default): cancel now.",
  }),
}).meta({ id: "CancelSubscriptionRequest" });
export type CancelSubscriptionRequest = z.infer<typeof CancelSubscriptionRequest>;

export const ListSubscriptionsQuery = ListQuery.extend({
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  qrId: z.string().max(100).optional().meta({ description: "Only subscriptions to this offer." }),
});
export type ListSubscriptionsQuery = z.infer<typeof ListSubscriptionsQuery>;

export const Subscription = z.strictObject({
  subscriptionId: z.string().meta({ example: "sub_4f9TqYcW2mJx8bN3kL6pR1sV" }),
  qrId: z.string(),
  paymentId: z.string().meta({ description: "The customer's payment that started it." }),
  latestPaymentId: z.string().meta({
    description: "The most recent payment: the first one, or the latest renewal charge.",
  }),
  status: z.enum(SUBSCRIPTION_STATUSES),
  amount: z.int().meta({ description: "What each renewal charges, in minor units." }),
  currency: z.string(),
  quantity: z.int(),
  recurring: z.strictObject({ interval: z.enum(RECURRING_INTERVALS), intervalCount: z.int() }),
  currentPeriodStart: Timestamp,
  currentPeriodEnd: Timestamp,
  cancelAtPeriodEnd: z.boolean(),
  nextChargeAt: Timestamp.nullable().meta({
    description: "When the next renewal (or retry) is charged; renewing by pay link, when the " +
      "next renewal step happens (the link's notice, a reminder, the cancellation); null if none.",
  }),
  renewalPaymentId: z.string().nullable().meta({
    description: "Renewing by pay link: the renewal payment the customer was sent and has not " +
      "paid yet (its hosted page is the link); null otherwise.",
  }),
  canceledAt: Timestamp.nullable(),
  cancellationReason: z.enum(CANCELLATION_REASONS).nullable(),
  customer: z.strictObject({ email: z.string().nullable(), name: z.string().nullable() }),
  metadata: z.record(z.string(), z.string()).meta({
    description: "The first payment's metadata; each renewal payment carries it too.",
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version,
}).meta({
  id: "Subscription",
  description: "Started by a successful payment for a recurring offer; renewed by a charge at " +
    "the end of each period, or, where the provider cannot charge a stored method, by a pay " +
    "link the customer is e-mailed before it ends. Periods are anchored on the start, in UTC " +
    "calendar steps.",
});
export type Subscription = z.infer<typeof Subscription>;
