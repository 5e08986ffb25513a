/**
 * Przelewy24's REST API v1 as the fake reads it, from P24's public documentation (its OpenAPI
 * file `openapi.yml`, developers.przelewy24.pl): the fake's own reading, shared with no adapter.
 * Requests are parsed leniently (fields the fake does not use are ignored); the limits are the
 * documented `maxLength`s.
 */
import { z } from "zod";

const Int = z.number().int();

/** `language` of transaction/register: "One of following language codes according to ISO 639-1". */
export const LANGUAGES = [
  "bg",
  "cs",
  "de",
  "en",
  "es",
  "fr",
  "hr",
  "hu",
  "it",
  "nl",
  "pl",
  "pt",
  "se",
  "sk",
  "ro",
] as const;

/** The `channel` bits of transaction/register ("To activate the specific channels ... summed up"). */
export const CHANNELS = {
  cardAndWallets: 1,
  transfer: 2,
  traditionalTransfer: 4,
  all: 16,
  prepayment: 32,
  payByLink: 64,
  installments: 128,
  wallets: 256,
  card: 4096,
  blik: 8192,
  allButBlik: 16384,
} as const;

/** `TransactionRequestBody1`: the required fields and those the fake uses. */
export const RegisterRequest = z.object({
  merchantId: Int.positive(),
  posId: Int.positive(),
  sessionId: z.string().min(1).max(100),
  amount: Int.positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  description: z.string().min(1).max(1024),
  email: z.string().min(3).max(50).regex(/^[^@\s]+@[^@\s]+$/),
  client: z.string().max(40).optional(),
  address: z.string().max(80).optional(),
  zip: z.string().max(10).optional(),
  city: z.string().max(50).optional(),
  country: z.string().regex(/^[A-Z]{2}$/),
  phone: z.string().max(12).optional(),
  language: z.enum(LANGUAGES),
  method: Int.positive().optional(),
  urlReturn: z.string().min(1).max(250),
  urlStatus: z.string().min(1).max(250).optional(),
  /** Where the BLIK result notification goes ("BLIK Additional Notification"). */
  urlCardPaymentNotification: z.string().min(1).max(250).optional(),
  timeLimit: Int.min(0).max(99).optional(),
  channel: Int.min(1).max(32767).optional(),
  waitForResult: z.boolean().optional(),
  regulationAccept: z.boolean().optional(),
  transferLabel: z.string().max(20).optional(),
  sign: z.string().min(1).max(100),
  additional: z.object({
    PSU: z.object({
      IP: z.string().min(1),
      userAgent: z.string().min(1).max(255),
    }).optional(),
  }).passthrough().optional(),
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

/** `RecurringParams` of paymentMethod/blik/chargeByCode: "only token and blikCode are mandatory". */
export const ChargeByCodeRequest = z.object({
  token: z.string().min(1),
  blikCode: z.string(),
  aliasValue: z.string().optional(),
  aliasLabel: z.string().min(5).max(35).optional(),
});

/** `TransactionVerificationBody`. */
export const VerifyRequest = z.object({
  merchantId: Int.positive(),
  posId: Int.positive(),
  sessionId: z.string().min(1).max(100),
  amount: Int.positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
  orderId: Int.positive(),
  sign: z.string().min(1),
});
export type VerifyRequest = z.infer<typeof VerifyRequest>;

/** `TransactionRefundJsonRequestBody` with its `RefundRequestArrayDataBasic` items. */
export const RefundRequest = z.object({
  requestId: z.string().min(1).max(45),
  refunds: z.array(z.object({
    orderId: Int.positive(),
    sessionId: z.string().min(1),
    amount: Int.positive(),
    description: z.string().max(35).optional(),
  })).min(1).max(100),
  refundsUuid: z.string().min(1).max(35),
  urlStatus: z.string().min(1).optional(),
});
export type RefundRequest = z.infer<typeof RefundRequest>;

/** `bliknotification.data.result`: "Error code - 0 for success", its message and status. */
export interface BlikResult {
  error: string;
  message: string;
  status: string;
  trxRef: string;
}

/**
 * `InvalidInputData.error`'s documented text: P24's docs give one message for every 400 of
 * register, verify, chargeByCode and the lookups.
 */
export const INVALID_INPUT = "Invalid input data";
/** `UnauthorizedResponse.error`. */
export const INCORRECT_AUTHENTICATION = "Incorrect authentication";
/** `TransactionNotFoundResponse.error`. */
export const TRANSACTION_NOT_FOUND = "Transaction not found";
/** `ErrorCodeResponse.error` (500). */
export const UNDEFINED_ERROR = "Undefined error";

/** `InvalidInputDataRefund.error`'s documented values. */
export const REFUND_ERRORS = {
  invalid: "Invalid input parameters",
  exists: "Request already exists",
} as const;

/** `TransactionRefund409Item.message`'s documented values. */
export const REFUND_ITEM_ERRORS = {
  notFound: "Transaction not found",
  wrongStatus: "Transaction in wrong status - cannot refund",
  exceeds: "The amount of refund exceeds available amount for the transaction",
} as const;
