import { z } from "zod";
import { TaxId } from "../business_details.ts";
import { FAILURE_CODES } from "../providers/mod.ts";
import { HttpUrl, ListQuery, Metadata, NOT_BLANK, Timestamp, Version } from "../schemas.ts";
import { PAYMENT_STATUSES } from "./status.ts";

export const Customer = z.strictObject({
  email: z.email().max(254).optional().meta({ example: "ada@example.com" }),
  name: z.string().trim().min(1).max(200).optional().meta({
    ...NOT_BLANK,
    example: "Ada Lovelace",
  }),
}).meta({ id: "CustomerInput" });

/** The invoice a customer asks for with a payment: a company and its NIP. */
export const InvoiceRequest = z.strictObject({
  companyName: z.string().trim().min(1).max(200).meta({
    ...NOT_BLANK,
    example: "Kowalski sp. z o.o.",
  }),
  taxId: TaxId.meta({
    description: "The company's NIP: 10 digits with a valid checksum; dashes and spaces are " +
      "accepted and dropped.",
    example: "5260250274",
  }),
}).meta({
  id: "InvoiceRequest",
  description: 'The customer asks for an invoice ("Chcę fakturę"). Accepted only when the ' +
    "organisation's business details offer invoice requests (`invoiceRequests: true`); " +
    'otherwise 400 with `param: "invoiceRequest"`.',
});

/** The language of the customer's pages and e-mails; `auto` follows their browser. */
export const CustomerLocale = z.enum(["pl", "en", "auto"]).meta({
  description: "The language of the customer's pages and e-mails: `pl`, `en`, or `auto` " +
    "(the default) for the customer's browser, then the organisation's default language.",
});

export const CreatePaymentRequest = z.strictObject({
  qrId: z.string().min(1).max(100).meta({ description: "The offer to pay for." }),
  quantity: z.int().min(1).max(1000).default(1),
  customer: Customer.optional(),
  successUrl: HttpUrl.optional().meta({ description: "Where the customer goes after paying." }),
  cancelUrl: HttpUrl.optional().meta({ description: "Where the customer goes on cancel." }),
  expiresInMinutes: z.int().min(1).max(1440).default(30).meta({
    description: "How long the payment link stays payable, 1 to 1440 minutes.",
  }),
  metadata: Metadata.optional(),
  invoiceRequest: InvoiceRequest.optional(),
  locale: CustomerLocale.optional(),
}).meta({ id: "CreatePaymentRequest" });
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequest>;

export const CompleteRequest = z.strictObject({
  code: z.string().regex(/^\d{6}$/, "must be exactly 6 digits").meta({
    description: "A sandbox test instant-payment code, e.g. 777123.",
    example: "777123",
  }),
}).meta({ id: "CompleteRequest" });
export type CompleteRequest = z.infer<typeof CompleteRequest>;

export const ListPaymentsQuery = ListQuery.extend({
  status: z.enum(PAYMENT_STATUSES).optional(),
  qrId: z.string().max(100).optional().meta({ description: "Only payments for this offer." }),
});
export type ListPaymentsQuery = z.infer<typeof ListPaymentsQuery>;

export const Payment = z.strictObject({
  paymentId: z.string().meta({ example: "pay_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1" }),
  qrId: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  amount: z.int(),
  currency: z.string(),
  quantity: z.int(),
  amountRefunded: z.int(),
  customer: z.strictObject({ email: z.string().nullable(), name: z.string().nullable() }),
  paymentUrl: z.string().meta({ description: "The hosted page where the customer pays." }),
  successUrl: z.string().nullable(),
  cancelUrl: z.string().nullable(),
  expiresAt: Timestamp,
  failureCode: z.enum(FAILURE_CODES).nullable(),
  metadata: z.record(z.string(), z.string()),
  invoiceRequest: z.strictObject({ companyName: z.string(), taxId: z.string() }).nullable()
    .meta({
      description: "The invoice the customer asked for (company name and NIP, 10 digits), " +
        "or null when none was asked for.",
    }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  version: Version,
  locale: CustomerLocale,
}).meta({ id: "Payment", description: "A customer payment for an offer." });
export type Payment = z.infer<typeof Payment>;
