import { z } from "zod";
import { CheckoutSession } from "./checkout/schemas.ts";
import { ENVIRONMENTS } from "./config.ts";
import { EVENT_TYPES, type EventType } from "./events.ts";
import { Payment } from "./payments/schemas.ts";
import { Refund } from "./refunds/schemas.ts";
import { Timestamp } from "./schemas.ts";
import { Subscription } from "./subscriptions/schemas.ts";
import { WebhookEndpoint } from "./webhooks/schemas.ts";

/** What each event type's `data` is: the object as the API returned it when it happened. */
const DATA_OF: Record<EventType, z.ZodType> = {
  "payment.created": Payment,
  "payment.processing": Payment,
  "payment.succeeded": Payment,
  "payment.failed": Payment,
  "payment.canceled": Payment,
  "payment.expired": Payment,
  "checkout.session.completed": CheckoutSession,
  "checkout.session.expired": CheckoutSession,
  "refund.created": Refund,
  "refund.succeeded": Refund,
  "refund.failed": Refund,
  "subscription.created": Subscription,
  "subscription.renewed": Subscription,
  "subscription.past_due": Subscription,
  "subscription.canceled": Subscription,
  "webhook.test": WebhookEndpoint,
};

/** The component name of an event type's schema: `payment.past_due` -> `PaymentPastDueEvent`. */
export function eventSchemaName(type: EventType): string {
  return type.split(/[._]/).map((word) => word[0].toUpperCase() + word.slice(1)).join("") +
    "Event";
}

function eventOf<T extends EventType>(type: T) {
  return z.strictObject({
    id: z.string().meta({ example: "evt_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1" }),
    type: z.literal(type),
    createdAt: Timestamp,
    environment: z.enum(ENVIRONMENTS),
    data: DATA_OF[type],
  }).meta({
    id: eventSchemaName(type),
    description: `The body of a ${type} event, in the API and in its webhook delivery.`,
  });
}

const [first, ...rest] = EVENT_TYPES.map(eventOf);

/**
 * An event as the API returns it and a webhook delivers it, one schema per type, so a client
 * narrowing on `type` gets `data` typed.
 */
export const EventResource = z.discriminatedUnion("type", [first, ...rest]).meta({
  id: "Event",
  description: "Something that happened, recorded in the same transaction as the change. " +
    "`type` tells what `data` is.",
});
