/** The fake PayU's memory: orders, refunds, tokens and the notifications it sent. */
import { customAlphabet } from "nanoid";
import type {
  Buyer,
  OrderStatus,
  Product,
  RefundNotification,
  RefundStatus,
  WireOrder,
  WireRefund,
} from "./wire.ts";

/**
 * How the customer pays: a BLIK code sent with the order, a method chosen in the shop (the
 * customer goes to that bank's page), or PayU's own pay wall (the customer chooses there).
 */
export type OrderFlow = "blik" | "redirect" | "paywall";

/** An order as the fake keeps it. */
export interface FakeOrder {
  orderId: string;
  extOrderId?: string;
  merchantPosId: string;
  orderCreateDate: string;
  notifyUrl?: string;
  customerIp: string;
  description: string;
  currencyCode: string;
  totalAmount: string;
  validityTime: string;
  buyer?: Buyer;
  products: Product[];
  /** Where the customer's browser goes back to after PayU's page. */
  continueUrl?: string;
  flow: OrderFlow;
  /** The pay method type the order shows (PBL, BLIK_AUTHORIZATION_CODE, PAYMENT_WALL). */
  payMethodType: string;
  /** The method's value (`blik`, a bank, `c`, `ap`, `jp`); null until chosen on the pay wall. */
  payMethodValue: string | null;
  /** The BLIK code of the blik flow; null otherwise. */
  authorizationCode: string | null;
  /** The secret in the order's redirectUri: its pay page answers no one without it. */
  pageToken: string;
  /** What the customer did at the bank (the pay page); null before. */
  bankOutcome: "paid" | "declined" | null;
  status: OrderStatus;
  /** Why a BLIK transaction failed, as GET .../transactions shows it. */
  resultCode: string | null;
  /** PayU's PAYMENT_ID property, set when the order completes. */
  paymentId: string | null;
  localReceiptDateTime: string | null;
}

/** A refund as the fake keeps it. */
export interface FakeRefund {
  orderId: string;
  refundId: string;
  extRefundId?: string;
  amount: string;
  currencyCode: string;
  description: string;
  creationDateTime: string;
  status: RefundStatus;
  statusDatetime: string;
  /** The create request's refund section, to answer a repeated extRefundId. */
  requested: string;
}

/** One attempt to deliver a notification, for tests and the control surface. */
export interface NotificationAttempt {
  url: string;
  kind: "order" | "refund";
  orderId: string;
  /** The order's or refund's status the notification carries. */
  status: string;
  body: string;
  signature: string;
  /** The notify URL's HTTP status; null when it could not be reached. */
  answer: number | null;
  /** `dropped` when dropNotifications kept it from being sent at all. */
  outcome: "delivered" | "failed" | "dropped";
  at: string;
}

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const randomUpper = customAlphabet(UPPER, 10);
const randomDigits = customAlphabet("0123456789", 10);

/** A new PayU-looking order id, e.g. `WZHF5FFDRJ261123GUEST000P01`. */
export function newOrderId(now: number): string {
  const date = new Date(now).toISOString();
  const yymmdd = date.slice(2, 4) + date.slice(5, 7) + date.slice(8, 10);
  return `${randomUpper()}${yymmdd}GUEST000P01`;
}

/** A new numeric refund or payment id, as PayU's look. */
export function newNumericId(): string {
  return String(5_000_000_000 + Number(randomDigits()) % 4_000_000_000);
}

/** Everything the fake remembers; one instance per fake PayU. */
export class FakeState {
  readonly orders = new Map<string, FakeOrder>();
  readonly refunds = new Map<string, FakeRefund>();
  /** access token -> expiry (epoch ms). */
  readonly tokens = new Map<string, number>();
  readonly notifications: NotificationAttempt[] = [];

  /** The orders of a POS carrying this extOrderId, oldest first. */
  ordersByExtId(posId: string, extOrderId: string): FakeOrder[] {
    return [...this.orders.values()].filter((order) =>
      order.merchantPosId === posId && order.extOrderId === extOrderId
    );
  }

  /** The refunds of an order, oldest first. */
  refundsOf(orderId: string): FakeRefund[] {
    return [...this.refunds.values()].filter((refund) => refund.orderId === orderId);
  }
}

/** The order as PayU shows it in retrieve answers and notifications. */
export function toWireOrder(order: FakeOrder): WireOrder {
  return {
    orderId: order.orderId,
    ...(order.extOrderId === undefined ? {} : { extOrderId: order.extOrderId }),
    orderCreateDate: order.orderCreateDate,
    ...(order.notifyUrl === undefined ? {} : { notifyUrl: order.notifyUrl }),
    customerIp: order.customerIp,
    merchantPosId: order.merchantPosId,
    description: order.description,
    validityTime: order.validityTime,
    currencyCode: order.currencyCode,
    totalAmount: order.totalAmount,
    ...(order.buyer === undefined ? {} : { buyer: order.buyer }),
    payMethod: { type: order.payMethodType, amount: order.totalAmount },
    products: order.products,
    status: order.status,
  };
}

/** PayU's `properties` of an order: PAYMENT_ID once paid. */
export function propertiesOf(order: FakeOrder): { name: string; value: string }[] | undefined {
  return order.paymentId === null ? undefined : [{ name: "PAYMENT_ID", value: order.paymentId }];
}

/** The refund as PayU shows it in API answers. */
export function toWireRefund(refund: FakeRefund): WireRefund {
  return {
    refundId: refund.refundId,
    ...(refund.extRefundId === undefined ? {} : { extRefundId: refund.extRefundId }),
    amount: refund.amount,
    currencyCode: refund.currencyCode,
    description: refund.description,
    creationDateTime: refund.creationDateTime,
    status: refund.status,
    statusDatetime: refund.statusDatetime,
  };
}

/** The refund notification PayU sends when a refund's status changes. */
export function toRefundNotification(
  refund: FakeRefund,
  order: FakeOrder,
): RefundNotification {
  return {
    orderId: order.orderId,
    ...(order.extOrderId === undefined ? {} : { extOrderId: order.extOrderId }),
    refund: {
      refundId: refund.refundId,
      amount: refund.amount,
      currencyCode: refund.currencyCode,
      status: refund.status,
      statusDateTime: refund.statusDatetime,
      reason: "refund",
      reasonDescription: refund.description,
      refundDate: refund.creationDateTime,
    },
  };
}
