import { z } from "zod";
import { HttpUrl, Timestamp } from "../schemas.ts";
import { isSubscriptionPattern, SUBSCRIPTION_PATTERNS } from "./subscriptions.ts";

const EndpointId = z.string().meta({ example: "we_4f9TqYcW2mJx8bN3kL6pR1sV" });

/** Why an endpoint is disabled: by the merchant, a 410 answer, or five days of failures. */
const DISABLED_REASONS = ["MANUAL", "GONE", "FAILING"] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** Delivery statuses: retried while PENDING, then final. */
const DELIVERY_STATUSES = ["PENDING", "SUCCEEDED", "FAILED", "CANCELED"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** What started a delivery: the event's fan-out, a resend, the test operation, or a recovery. */
const DELIVERY_TRIGGERS = ["EVENT", "RESEND", "TEST", "RECOVERY"] as const;
export type DeliveryTrigger = (typeof DELIVERY_TRIGGERS)[number];

const Subscriptions = z.array(
  z.string().max(100).refine(
    isSubscriptionPattern,
    "must be '*', an event type such as payment.succeeded, or a family such as payment.*",
  ).meta({ enum: [...SUBSCRIPTION_PATTERNS] }),
).min(1).max(50).meta({
  description: "Event types to receive: `*`, exact types, or families like `payment.*`.",
  example: ["payment.*", "refund.succeeded"],
});

const Description = z.string().trim().max(500);

export const CreateWebhookEndpointRequest = z.strictObject({
  url: HttpUrl.meta({
    description: "Where events are POSTed. Production: https:// to a public address.",
    example: "https://shop.example/webhooks/paystead",
  }),
  events: Subscriptions.default(["*"]),
  description: Description.optional(),
  enabled: z.boolean().default(true),
}).meta({ id: "CreateWebhookEndpointRequest" });
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;

export const UpdateWebhookEndpointRequest = z.strictObject({
  url: HttpUrl.optional(),
  events: Subscriptions.optional(),
  description: Description.nullable().optional(),
  enabled: z.boolean().optional().meta({
    description: "false stops deliveries and cancels pending ones; true re-enables the " +
      "endpoint for events recorded from then on (resend older ones).",
  }),
}).meta({ id: "UpdateWebhookEndpointRequest" });
export type UpdateWebhookEndpointRequest = z.infer<typeof UpdateWebhookEndpointRequest>;

export const WebhookEndpoint = z.strictObject({
  id: EndpointId,
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  disabledReason: z.enum(DISABLED_REASONS).nullable().meta({
    description: "MANUAL (you disabled it), GONE (it answered 410) or FAILING (every " +
      "attempt failed for 5 days); null while enabled.",
  }),
  disabledAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).meta({
  id: "WebhookEndpoint",
  description: "A URL that receives signed events. The signing secret is returned only at " +
    "creation, by rotate-secret, and by GET .../secret.",
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

const Secret = z.string().meta({
  description: "The signing secret: whsec_ and the base64 of 32 random bytes.",
  example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw2sEz1r5Fz/8=",
});

export const WebhookEndpointWithSecret = WebhookEndpoint.extend({ secret: Secret }).meta({
  id: "WebhookEndpointWithSecret",
  description: "A webhook endpoint with its signing secret; store the secret now.",
});

export const WebhookEndpointSecret = z.strictObject({
  secret: Secret,
  previousSecretExpiresAt: Timestamp.nullable().meta({
    description: "Until when deliveries are also signed with the previous secret (24 h after " +
      "a rotation); null when there is none.",
  }),
}).meta({ id: "WebhookEndpointSecret" });

export const DeletedWebhookEndpoint = z.strictObject({
  id: EndpointId,
  deleted: z.literal(true),
}).meta({ id: "DeletedWebhookEndpoint" });

export const WebhookEndpointRecord = z.strictObject({
  id: z.string().meta({ example: "wer_4f9TqYcW2mJx8bN3kL6pR1sV" }),
  endpointId: EndpointId,
  type: z.literal("webhook_endpoint.disabled"),
  reason: z.enum(["GONE", "FAILING"]),
  message: z.string(),
  createdAt: Timestamp,
}).meta({
  id: "WebhookEndpointRecord",
  description: "Something Paystead did to an endpoint on its own: disabling it after a 410 " +
    "answer or after 5 days of failed attempts.",
});

const WebhookAttempt = z.strictObject({
  number: z.int().min(1),
  url: z.string(),
  startedAt: Timestamp,
  durationMs: z.int().nullable(),
  succeeded: z.boolean(),
  responseStatus: z.int().nullable(),
  responseBody: z.string().nullable().meta({
    description: "The first 1 KiB of the answer.",
  }),
  errorCode: z.enum([
    "http_status",
    "redirect",
    "timeout",
    "connection_failed",
    "dns_failed",
    "address_not_allowed",
    "lease_expired",
  ]).nullable(),
  errorMessage: z.string().nullable(),
}).meta({ id: "WebhookAttempt", description: "One HTTP request of a delivery." });

export const WebhookDelivery = z.strictObject({
  id: z.string().meta({ example: "wd_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1" }),
  eventId: z.string(),
  endpointId: EndpointId,
  trigger: z.enum(DELIVERY_TRIGGERS),
  status: z.enum(DELIVERY_STATUSES),
  attemptCount: z.int(),
  nextAttemptAt: Timestamp.nullable().meta({
    description: "When the next attempt is due; null when final or while an attempt runs.",
  }),
  createdAt: Timestamp,
  completedAt: Timestamp.nullable(),
  attempts: z.array(WebhookAttempt).meta({ description: "Every attempt, oldest first." }),
}).meta({
  id: "WebhookDelivery",
  description: "An event on its way to one endpoint, retried on the schedule until a 2xx.",
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const ResendEventRequest = z.strictObject({
  endpointId: z.string().max(100).optional().meta({
    description: "Resend to this endpoint only; by default to every enabled endpoint " +
      "subscribed to the event's type.",
  }),
}).meta({ id: "ResendEventRequest" });
export type ResendEventRequest = z.infer<typeof ResendEventRequest>;

export const ResendResult = z.strictObject({
  data: z.array(WebhookDelivery),
}).meta({
  id: "ResendResult",
  description: "The deliveries now due: a still-pending delivery is brought forward, " +
    "otherwise a new one is made.",
});
