import { z } from "zod";
import { TaxId } from "../business_details.ts";
import { FAILURE_CODES, PAYMENT_METHODS } from "../providers/mod.ts";
import { MAX_AMOUNT } from "../money.ts";
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

/** One of the contract's payment methods. */
export const PaymentMethod = z.enum(PAYMENT_METHODS).meta({
  id: "PaymentMethod",
  description: "`blik` (the 6-digit code on Paystead's page), `transfer` (pay-by-link: the " +
    "customer picks a bank), `card`, `google_pay`, `apple_pay` (paid on the provider's page).",
});

/** An allowlist of payment methods, each named once. */
export const PaymentMethods = z.array(PaymentMethod).min(1).max(PAYMENT_METHODS.length)
  .refine((methods) => new Set(methods).size === methods.length, "names a method twice")
  .meta({
    description: "The methods the customer may choose from (an allowlist); default: every " +
      "method the provider offers. A method the provider does not offer is 400 " +
      "`payment_method_unavailable`.",
    example: ["blik", "transfer"],
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
  paymentMethods: PaymentMethods.optional(),
}).meta({ id: "CreatePaymentRequest" });
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequest>;

const CompleteWithCode = z.strictObject({
  code: z.string().regex(/^\d{6}$/, "must be exactly 6 digits").meta({
    description: "A sandbox test BLIK code, e.g. 777123.",
    example: "777123",
  }),
});

const CompleteWithMethod = z.strictObject({
  method: z.enum(["transfer", "card", "google_pay", "apple_pay"]).meta({
    description: "A redirect method, paid (or declined) at once as on the sandbox's page.",
  }),
  bank: z.string().min(1).max(40).optional().meta({
    description: "A transfer's test bank (`test_bank_a`, the default, or `test_bank_b`).",
  }),
  result: z.enum(["succeeded", "declined"]),
});

/** The sandbox complete operation: a test code, or a redirect method with its result. */
export const CompleteRequest = z.union([CompleteWithCode, CompleteWithMethod]).meta({
  id: "CompleteRequest",
  example: { code: "777123" },
  description: '`{"code": "777123"}`, or `{"method": "card", "result": "succeeded"}`.',
});
export type CompletePaymentRequest = z.infer<typeof CompleteRequest>;

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
  paymentMethods: z.array(PaymentMethod).nullable().meta({
    description: "The methods it may be paid with, as given; null: every method offered.",
  }),
  paymentMethod: PaymentMethod.nullable().meta({
    description: "How it was paid (or failed): the method of the attempt that decided it; " +
      "null before.",
  }),
  bank: z.string().nullable().meta({
    description: "The bank of a `transfer` that decided it, as the provider names it.",
  }),
  provider: z.string().nullable().meta({
    description: "The payment provider of the attempt that decided it; null before.",
  }),
}).meta({ id: "Payment", description: "A customer payment for an offer." });
export type Payment = z.infer<typeof Payment>;

/** The attempt statuses the API shows: an open attempt is PENDING. */
export const ATTEMPT_STATUSES = ["PENDING", "SUCCEEDED", "FAILED", "CANCELED"] as const;

export const PaymentAttempt = z.strictObject({
  attemptId: z.string().meta({
    description: "The attempt's id: the order id the provider's statement shows.",
    example: "att_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1",
  }),
  method: PaymentMethod,
  bank: z.string().nullable(),
  provider: z.string(),
  status: z.enum(ATTEMPT_STATUSES).meta({
    description: "`PENDING` while the provider decides (or the customer is on its page), " +
      "`CANCELED` when a newer attempt or the payment's expiry gave it up.",
  }),
  failureCode: z.enum(FAILURE_CODES).nullable(),
  createdAt: Timestamp,
}).meta({ id: "PaymentAttempt", description: "One try at paying a payment." });
export type PaymentAttempt = z.infer<typeof PaymentAttempt>;

const OfferStatus = z.enum(["ENABLED", "TEMPORARY_DISABLED"]).meta({
  description: "`TEMPORARY_DISABLED`: shown, but not payable now (a bank's maintenance, say).",
});

export const OfferedMethod = z.strictObject({
  method: PaymentMethod,
  flow: z.enum(["code", "redirect"]).meta({
    description: "`code`: the BLIK code on Paystead's page; `redirect`: the provider's page.",
  }),
  status: OfferStatus,
  banks: z.array(z.strictObject({
    bank: z.string().meta({ description: "The provider's code of the bank.", example: "m" }),
    name: z.string().meta({ example: "mTransfer" }),
    logoUrl: z.string().nullable(),
    status: OfferStatus,
  })).optional().meta({ description: "For `transfer`: the banks to pay from." }),
}).meta({ id: "OfferedMethod", description: "A payment method the provider offers now." });
export type OfferedMethod = z.infer<typeof OfferedMethod>;

export const PaymentMethodsQuery = z.strictObject({
  amount: z.coerce.number().int().min(1).max(MAX_AMOUNT).optional().meta({
    description: "Minor units: only the methods (and banks) that take this amount.",
  }),
  currency: z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code in upper case").default(
    "PLN",
  ),
});
export type PaymentMethodsQuery = z.infer<typeof PaymentMethodsQuery>;
