/**
 * PayU's REST API v2.1 as the fake reads and writes it, from PayU's public documentation (its
 * OpenAPI file, `payu-europe-rest-api.yaml`, and developers.payu.com): the fake's own reading,
 * shared with no adapter. Requests are parsed leniently (PayU ignores fields it does not use);
 * answers carry exactly the documented fields.
 */
import { z } from "zod";

/** Amounts are strings of minor units: "1250" is 12.50 PLN. */
export const Amount = z.string().regex(/^\d{1,18}$/);

/** OpenAPI `orders[].status`. */
export const ORDER_STATUSES = [
  "NEW",
  "PENDING",
  "WAITING_FOR_CONFIRMATION",
  "COMPLETED",
  "CANCELED",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** After these an order never changes. */
export const FINAL_ORDER_STATUSES: readonly OrderStatus[] = ["COMPLETED", "CANCELED"];

/** A refund's statuses (OpenAPI refundRetrieve*). */
export type RefundStatus = "PENDING" | "FINALIZED" | "CANCELED";

/** `status.statusCode` values and the HTTP status each comes with (PayU's "Status codes"). */
export const STATUS_CODES = {
  SUCCESS: 200,
  ERROR_SYNTAX: 400,
  ERROR_VALUE_INVALID: 400,
  ERROR_VALUE_MISSING: 400,
  ERROR_ORDER_NOT_UNIQUE: 400,
  UNAUTHORIZED: 401,
  UNAUTHORIZED_REQUEST: 403,
  DATA_NOT_FOUND: 404,
  TIMEOUT: 408,
  BUSINESS_ERROR: 500,
  ERROR_INTERNAL: 500,
  GENERAL_ERROR: 500,
  WARNING: 500,
  SERVICE_NOT_AVAILABLE: 503,
} as const;
export type StatusCode = keyof typeof STATUS_CODES;

/** The 400 `statusDesc` for a BLIK code that is not 6 digits. */
export const INVALID_BLIK_CODE = "INVALID_BLIK_CODE";

/**
 * A failed BLIK transaction's `resultCode` (GET .../transactions). PayU's BLIK page documents
 * REG_ERROR_AUTH_CODE_EXPIRED; the fake names the other sandbox codes' outcomes alike.
 */
export const BLIK_RESULT_CODES = {
  expired: "REG_ERROR_AUTH_CODE_EXPIRED",
  canceled: "REG_ERROR_AUTH_CODE_CANCELED",
  used: "REG_ERROR_AUTH_CODE_USED",
  declined: "AUT_ERROR_USER_DECLINED",
  timeout: "AUT_ERROR_TIMEOUT",
} as const;

/** `codeLiteral`s of refund errors (PayU's "Refunds" page). */
export const REFUND_ERROR_LITERALS = {
  missingSection: "MISSING_REFUND_SECTION",
  notEnded: "TRANS_NOT_ENDED",
  noBalance: "NO_BALANCE",
  amountTooBig: "AMOUNT_TO_BIG",
  amountTooSmall: "AMOUNT_TO_SMALL",
  idempotencyMismatch: "REFUND_IDEMPOTENCY_MISMATCH",
} as const;

/** The 403 `codeLiteral` when merchantPosId is not the token's POS. */
export const INVALID_AUTH_FOR_THIS_ORDER = "INVALID_AUTH_FOR_THIS_ORDER";

/** The OAuth form (`POST /pl/standard/user/oauth/authorize`, client_credentials). */
export const TokenForm = z.object({
  grant_type: z.literal("client_credentials"),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
});

const Buyer = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  language: z.string().optional(),
});
export type Buyer = z.infer<typeof Buyer>;

const Product = z.object({
  name: z.string().min(1),
  unitPrice: Amount,
  quantity: z.string().regex(/^[1-9]\d{0,8}$/),
});
export type Product = z.infer<typeof Product>;

/** OpenAPI `payMethod`: `type` (and `value`) required; BLIK's code in `authorizationCode`. */
const PayMethod = z.object({
  type: z.enum([
    "PBL",
    "CARD_TOKEN",
    "PAYMENT_WALL",
    "BLIK_AUTHORIZATION_CODE",
    "BLIK_TOKEN",
    "TRANSPARENT",
  ]),
  value: z.string().optional(),
  authorizationCode: z.string().optional(),
  blikData: z.object({ register: z.boolean().optional(), appKey: z.string().optional() })
    .optional(),
});
export type PayMethod = z.infer<typeof PayMethod>;

/** OpenAPI `OrderCreateRequest`, the fields the fake uses. */
export const OrderCreateRequest = z.object({
  continueUrl: z.string().max(1024).optional(),
  notifyUrl: z.string().max(1024).optional(),
  customerIp: z.string().min(1),
  merchantPosId: z.string().min(1),
  description: z.string().min(1).max(4000),
  additionalDescription: z.string().max(1024).optional(),
  currencyCode: z.string().regex(/^[A-Z]{3}$/),
  totalAmount: Amount,
  extOrderId: z.string().min(1).max(1024).optional(),
  validityTime: z.string().regex(/^\d+$/).optional(),
  buyer: Buyer.optional(),
  products: z.array(Product).min(1),
  payMethods: z.object({ payMethod: PayMethod }).optional(),
});
export type OrderCreateRequest = z.infer<typeof OrderCreateRequest>;

/** OpenAPI `RefundCreateRequest`: without `amount` the whole rest is refunded. */
export const RefundCreateRequest = z.object({
  refund: z.object({
    description: z.string().min(1),
    amount: Amount.optional(),
    extRefundId: z.string().min(1).max(1024).optional(),
    currencyCode: z.string().regex(/^[A-Z]{3}$/).optional(),
    bankDescription: z.string().optional(),
  }),
});

/** An order as retrieve answers and notifications show it (OpenAPI `orders[]`). */
export interface WireOrder {
  orderId: string;
  extOrderId?: string;
  orderCreateDate: string;
  notifyUrl?: string;
  customerIp: string;
  merchantPosId: string;
  description: string;
  validityTime: string;
  currencyCode: string;
  totalAmount: string;
  buyer?: Buyer;
  payMethod: { type: string; amount: string };
  products: Product[];
  status: OrderStatus;
}

/** A refund as the API shows it (`statusDatetime` here, `statusDateTime` in notifications). */
export interface WireRefund {
  refundId: string;
  extRefundId?: string;
  amount: string;
  currencyCode: string;
  description: string;
  creationDateTime: string;
  status: RefundStatus;
  statusDatetime: string;
}

/** The refund notification's body (PayU's "Refunds" page, notification example). */
export interface RefundNotification {
  orderId: string;
  extOrderId?: string;
  refund: {
    refundId: string;
    amount: string;
    currencyCode: string;
    status: RefundStatus;
    statusDateTime: string;
    reason: string;
    reasonDescription: string;
    refundDate: string;
  };
}

/** The order notification's body. */
export interface OrderNotification {
  order: WireOrder;
  localReceiptDateTime?: string;
  properties?: { name: string; value: string }[];
}

/** A method of `GET /api/v2_1/paymethods` (OpenAPI `payByLinks[]`). */
export interface PayByLink {
  value: string;
  name: string;
  brandImageUrl: string;
  status: PayByLinkStatus;
  minAmount: number;
  maxAmount: number;
}

/** OpenAPI `payByLinks[].status`. */
export const PAY_BY_LINK_STATUSES = ["ENABLED", "DISABLED", "TEMPORARY_DISABLED"] as const;
export type PayByLinkStatus = (typeof PAY_BY_LINK_STATUSES)[number];
