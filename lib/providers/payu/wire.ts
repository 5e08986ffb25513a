/**
 * PayU's REST API v2.1 wire format, as its public documentation describes it
 * (developers.payu.com: API reference, BLIK integration, notifications, refunds, status codes).
 * Both the PayU adapter and the fake PayU parse and build exactly these shapes, so a field
 * renamed here breaks both sides' tests at once. Objects are not strict: PayU adds fields
 * over time and a reader must ignore what it does not know.
 */
import { z } from "zod";

/** PayU's amounts: a string of minor units ("1250" is 12.50 PLN). */
export const Amount = z.string().regex(/^\d{1,18}$/, "an amount is a string of minor units");

/** An order's status: a BLIK order is PENDING until the bank answers. */
const ORDER_STATUSES = [
  "NEW",
  "PENDING",
  "WAITING_FOR_CONFIRMATION",
  "COMPLETED",
  "CANCELED",
] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatus>;

/** The statuses after which an order never changes again. */
export const FINAL_ORDER_STATUSES: readonly OrderStatus[] = ["COMPLETED", "CANCELED"];

/** A refund's status: PENDING until FINALIZED (money sent back) or CANCELED. */
export const REFUND_STATUSES = ["PENDING", "FINALIZED", "CANCELED"] as const;
export const RefundStatus = z.enum(REFUND_STATUSES);
export type RefundStatus = z.infer<typeof RefundStatus>;

/** `status.statusCode` values of PayU's answers, with the HTTP status each comes with. */
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

/** `statusDesc` of the 400 answer to a BLIK code that is not 6 digits. */
export const INVALID_BLIK_CODE = "INVALID_BLIK_CODE";

/**
 * `resultCode` of a BLIK transaction (GET /api/v2_1/orders/{orderId}/transactions) that ended
 * its order CANCELED: why the bank refused. PayU documents REG_ERROR_AUTH_CODE_EXPIRED; the
 * others follow its naming for the sandbox codes 700702, 700703 and 500500.
 */
export const BLIK_RESULT_CODES = {
  expired: "REG_ERROR_AUTH_CODE_EXPIRED",
  canceled: "REG_ERROR_AUTH_CODE_CANCELED",
  used: "REG_ERROR_AUTH_CODE_USED",
  declined: "AUT_ERROR_USER_DECLINED",
  timeout: "AUT_ERROR_TIMEOUT",
} as const;

/** `codeLiteral` of refund create errors (400 ERROR_VALUE_INVALID, or ERROR_VALUE_MISSING). */
export const REFUND_ERROR_LITERALS = {
  missingSection: "MISSING_REFUND_SECTION",
  notEnded: "TRANS_NOT_ENDED",
  noBalance: "NO_BALANCE",
  amountTooBig: "AMOUNT_TO_BIG",
  amountTooSmall: "AMOUNT_TO_SMALL",
  idempotencyMismatch: "REFUND_IDEMPOTENCY_MISMATCH",
} as const;

/** `codeLiteral` of the 403 answer when the order's merchantPosId is not the token's POS. */
export const INVALID_AUTH_FOR_THIS_ORDER = "INVALID_AUTH_FOR_THIS_ORDER";

/** The `status` object of every PayU answer; errors add `codeLiteral`, `statusDesc`, ... */
export const Status = z.object({
  statusCode: z.string(),
  severity: z.string().optional(),
  code: z.string().optional(),
  codeLiteral: z.string().optional(),
  statusDesc: z.string().optional(),
});
export type Status = z.infer<typeof Status>;

/** An error answer of the REST API (400, 401, 403, 404, 408, 500, 503). */
export const ErrorResponse = z.object({ status: Status });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

// --- OAuth: POST /pl/standard/user/oauth/authorize (form-encoded) ---

/** The token request's form fields. */
export const TokenRequest = z.object({
  grant_type: z.literal("client_credentials"),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
});
export type TokenRequest = z.infer<typeof TokenRequest>;

/** 200 answer: a bearer token valid `expires_in` seconds (43199 at PayU). */
export const TokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
  grant_type: z.string().optional(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/** 400/401 answer of the token endpoint, OAuth style (`invalid_client`, ...). */
const OAuthErrorResponse = z.object({
  error: z.string(),
  error_description: z.string(),
});
type OAuthErrorResponse = z.infer<typeof OAuthErrorResponse>;

// --- Orders: POST /api/v2_1/orders ---

/** One line of the order. */
export const Product = z.object({
  name: z.string().min(1),
  unitPrice: Amount,
  quantity: z.string().regex(/^[1-9]\d{0,8}$/),
});
export type Product = z.infer<typeof Product>;

/** The buyer; Paystead sends only the email it knows. */
export const Buyer = z.object({
  email: z.string().optional(),
  phone: z.string().optional(),
  firstName: z.string().optional(),
  lastName: z.string().optional(),
  language: z.string().optional(),
});
export type Buyer = z.infer<typeof Buyer>;

/**
 * A pay-by-link method: a bank's value, `c` (card), `ap` (Google Pay), `jp` (Apple Pay), or
 * `blik` with the customer's code, in the shape the contract uses ("transparent BLIK").
 */
const PblPayMethod = z.object({
  type: z.literal("PBL"),
  value: z.string().min(1),
  authorizationCode: z.string().optional(),
});

/** BLIK with the customer's code, in the newer documented shape (the code is `value`). */
const BlikAuthorizationCodePayMethod = z.object({
  type: z.literal("BLIK_AUTHORIZATION_CODE"),
  value: z.string(),
  blikData: z.object({ register: z.boolean().optional(), appKey: z.string().optional() })
    .optional(),
});

/** The payment method chosen on the merchant's page. */
const PayMethod = z.union([PblPayMethod, BlikAuthorizationCodePayMethod]);
type PayMethod = z.infer<typeof PayMethod>;

/** OrderCreateRequest. */
export const OrderCreateRequest = z.object({
  notifyUrl: z.string().optional(),
  continueUrl: z.string().optional(),
  customerIp: z.string().min(1),
  merchantPosId: z.string().min(1),
  description: z.string().min(1),
  additionalDescription: z.string().optional(),
  currencyCode: z.string().regex(/^[A-Z]{3}$/),
  totalAmount: Amount,
  extOrderId: z.string().min(1).max(255).optional(),
  validityTime: z.string().regex(/^\d+$/).optional(),
  buyer: Buyer.optional(),
  products: z.array(Product).min(1),
  payMethods: z.object({ payMethod: PayMethod }).optional(),
});
export type OrderCreateRequest = z.infer<typeof OrderCreateRequest>;

/** The BLIK code a create request carries, whichever documented shape it uses. */
export function blikCodeOf(request: OrderCreateRequest): string | null {
  const method = request.payMethods?.payMethod;
  if (!method) return null;
  return method.type === "PBL" ? method.authorizationCode ?? null : method.value;
}

/**
 * The answer to a create: 201 for a BLIK code (no redirect), 302 (or 201) with `redirectUri`, the
 * page the customer pays on, for a pay-by-link method.
 */
export const OrderCreateResponse = z.object({
  status: Status,
  orderId: z.string().min(1),
  extOrderId: z.string().optional(),
  redirectUri: z.string().optional(),
});
export type OrderCreateResponse = z.infer<typeof OrderCreateResponse>;

// --- GET /api/v2_1/paymethods ---

/** Whether PayU offers a pay-by-link method now. */
export const PayMethodStatus = z.enum(["ENABLED", "DISABLED", "TEMPORARY_DISABLED"]);

/** One pay-by-link method: a bank, card (`c`), Google Pay (`ap`), Apple Pay (`jp`), BLIK. */
export const PayByLink = z.object({
  value: z.string().min(1),
  name: z.string(),
  brandImageUrl: z.string().optional(),
  status: PayMethodStatus,
  /** Minor units. */
  minAmount: z.number().optional(),
  maxAmount: z.number().optional(),
});
export type PayByLink = z.infer<typeof PayByLink>;

/** The answer of `GET /api/v2_1/paymethods`: the POS's methods for a new order. */
export const PayMethodsResponse = z.object({
  payByLinks: z.array(PayByLink).default([]),
});

// --- GET /api/v2_1/orders/{orderId} and /api/v2_1/orders/ext/{extOrderId} ---

/** An order as PayU shows it in retrieve answers and notifications. */
export const Order = z.object({
  orderId: z.string(),
  extOrderId: z.string().optional(),
  orderCreateDate: z.string(),
  notifyUrl: z.string().optional(),
  customerIp: z.string(),
  merchantPosId: z.string(),
  description: z.string(),
  validityTime: z.string().optional(),
  currencyCode: z.string(),
  totalAmount: Amount,
  buyer: Buyer.optional(),
  payMethod: z.object({ type: z.string(), amount: Amount.optional() }).optional(),
  products: z.array(Product),
  status: OrderStatus,
});
export type Order = z.infer<typeof Order>;

/** 200 answer of an order retrieve: one order (by extOrderId, every order with it). */
export const OrderRetrieveResponse = z.object({
  orders: z.array(Order),
  status: Status,
  properties: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
});
export type OrderRetrieveResponse = z.infer<typeof OrderRetrieveResponse>;

/** 200 answer of DELETE /api/v2_1/orders/{orderId}. */
const OrderCancelResponse = z.object({
  orderId: z.string(),
  extOrderId: z.string().optional(),
  status: Status,
});
type OrderCancelResponse = z.infer<typeof OrderCancelResponse>;

/** 200 answer of GET /api/v2_1/orders/{orderId}/transactions (why a BLIK order failed). */
export const TransactionsResponse = z.object({
  transactions: z.array(z.object({
    payMethod: z.object({ value: z.string() }),
    paymentFlow: z.string().optional(),
    resultCode: z.string().optional(),
  })),
});
export type TransactionsResponse = z.infer<typeof TransactionsResponse>;

// --- Refunds: POST/GET /api/v2_1/orders/{orderId}/refunds[/{refundId}] ---

/** RefundCreateRequest; without `amount` everything left is refunded. */
export const RefundCreateRequest = z.object({
  refund: z.object({
    description: z.string().min(1),
    amount: Amount.optional(),
    extRefundId: z.string().min(1).max(255).optional(),
    currencyCode: z.string().regex(/^[A-Z]{3}$/).optional(),
    bankDescription: z.string().optional(),
  }),
});
export type RefundCreateRequest = z.infer<typeof RefundCreateRequest>;

/** A refund as PayU shows it. */
export const Refund = z.object({
  refundId: z.string(),
  extRefundId: z.string().optional(),
  amount: Amount,
  currencyCode: z.string(),
  description: z.string(),
  creationDateTime: z.string(),
  status: RefundStatus,
  // NOTE: spelled `statusDatetime` in the API's answers, `statusDateTime` in notifications.
  statusDatetime: z.string(),
});
export type Refund = z.infer<typeof Refund>;

/** 200 answer of a refund create (also to a repeated extRefundId: the same refund). */
export const RefundCreateResponse = z.object({
  orderId: z.string(),
  refund: Refund,
  status: Status,
});
export type RefundCreateResponse = z.infer<typeof RefundCreateResponse>;

/** 200 answer of GET .../refunds: every refund of the order. */
const RefundListResponse = z.object({ refunds: z.array(Refund) });
type RefundListResponse = z.infer<typeof RefundListResponse>;

// --- Notifications POSTed to notifyUrl, signed in the OpenPayu-Signature header ---

/** The header carrying a notification's signature. */
export const SIGNATURE_HEADER = "OpenPayu-Signature";

/** An order's status change. */
export const OrderNotification = z.object({
  order: Order,
  localReceiptDateTime: z.string().optional(),
  properties: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
});
export type OrderNotification = z.infer<typeof OrderNotification>;

/**
 * A refund's status change. PayU's documented example carries its `refundId` and no
 * `extRefundId`: a reader finds the refund by the `refundId` the create answer gave.
 */
export const RefundNotification = z.object({
  orderId: z.string(),
  extOrderId: z.string().optional(),
  refund: z.object({
    refundId: z.string(),
    extRefundId: z.string().optional(),
    amount: Amount,
    currencyCode: z.string(),
    status: RefundStatus,
    statusDateTime: z.string(),
    reason: z.string().optional(),
    reasonDescription: z.string().optional(),
    refundDate: z.string().optional(),
  }),
});
export type RefundNotification = z.infer<typeof RefundNotification>;

/** Either notification; a refund's has `refund` at the top, an order's has `order`. */
export const Notification = z.union([OrderNotification, RefundNotification]);
export type Notification = z.infer<typeof Notification>;
