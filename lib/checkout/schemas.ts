import { z } from "zod";
import { AmountOrZero, HttpUrl, Metadata, NOT_BLANK, Timestamp, Version } from "../schemas.ts";
import { SESSION_STATUSES } from "./status.ts";
import { CustomerLocale, PaymentMethod, PaymentMethods } from "../payments/schemas.ts";

/** Most line items a session may carry. */
const MAX_LINE_ITEMS = 100;
/** Most origins an organisation may allow to embed its checkout. */
export const MAX_ALLOWED_ORIGINS = 20;

export const LineItem = z.strictObject({
  name: z.string().trim().min(1).max(200).meta({ ...NOT_BLANK, example: "Espresso beans 1 kg" }),
  quantity: z.int().min(1).max(10_000),
  unitAmount: AmountOrZero.meta({ description: "Price of one unit in minor units." }),
}).meta({ id: "LineItem", description: "One line of the purchase shown to the customer." });
export type LineItem = z.infer<typeof LineItem>;

export const CreateCheckoutSessionRequest = z.strictObject({
  embedLink: HttpUrl.meta({
    description: "The page that embeds the checkout. https:// (http:// only for localhost in the " +
      "sandbox); its origin must be on the allowlist (`PUT /api/v1/checkout-settings`).",
    example: "https://shop.example/checkout",
  }),
  successUrl: HttpUrl.optional().meta({
    description: "Where the customer's browser goes (top-level) after paying.",
  }),
  cancelUrl: HttpUrl.optional().meta({
    description: "Where the checkout's cancel link takes the customer (top-level).",
  }),
  expiresInMinutes: z.int().min(1).max(1440).default(30).meta({
    description: "How long the session stays open, 1 to 1440 minutes.",
  }),
  lineItems: z.array(LineItem).min(1, "give at least one line item, or leave lineItems out")
    .max(MAX_LINE_ITEMS, `at most ${MAX_LINE_ITEMS} line items`).optional().meta({
      description: "When given, their sum is the amount charged; otherwise the offer's amount.",
    }),
  metadata: Metadata.optional(),
  locale: CustomerLocale.optional(),
  paymentMethods: PaymentMethods.optional(),
}).meta({ id: "CreateCheckoutSessionRequest" });
export type CreateCheckoutSessionRequest = z.infer<typeof CreateCheckoutSessionRequest>;

export const CheckoutSession = z.strictObject({
  sessionId: z.string().meta({ example: "cs_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1" }),
  embedUrl: z.string().meta({ description: "Load this URL in an iframe on the embedLink page." }),
  expiresAt: Timestamp,
  status: z.enum(SESSION_STATUSES),
  qrId: z.string(),
  amount: z.int(),
  currency: z.string(),
  embedLink: z.string(),
  successUrl: z.string().nullable(),
  cancelUrl: z.string().nullable(),
  lineItems: z.array(LineItem).nullable().meta({
    description: "The line items given at creation, or null when the offer's amount applies.",
  }),
  metadata: z.record(z.string(), z.string()),
  paymentId: z.string().nullable().meta({
    description: "The latest payment attempt: null before the first code, then the payment of " +
      "the last attempt (a FAILED attempt leaves the session OPEN for another).",
  }),
  createdAt: Timestamp,
  version: Version,
  locale: CustomerLocale,
  paymentMethods: z.array(PaymentMethod).nullable().meta({
    description: "The methods it may be paid with, as given; null: the offer's, or every " +
      "method offered.",
  }),
}).meta({ id: "CheckoutSession", description: "An embedded checkout for one offer." });
export type CheckoutSession = z.infer<typeof CheckoutSession>;

export const CheckoutSettings = z.strictObject({
  allowedOrigins: z.array(z.string().max(2048)).max(
    MAX_ALLOWED_ORIGINS,
    `at most ${MAX_ALLOWED_ORIGINS} origins`,
  ).meta({
    description: "Origins (scheme://host[:port]) whose pages may embed checkout sessions: the " +
      "frame-ancestors allowlist. https:// only; http:// for localhost in the sandbox.",
    example: ["https://shop.example"],
  }),
}).meta({ id: "CheckoutSettings" });
export type CheckoutSettings = z.infer<typeof CheckoutSettings>;
