/** The fake Przelewy24's memory: transactions, refunds, and what it sent and was asked. */
import type { BlikResult, RegisterRequest } from "./wire.ts";

/** A registered transaction, from its token to its verification and refunds. */
export interface FakeTransaction {
  token: string;
  /** P24's transaction number, assigned at registration. */
  orderId: number;
  request: RegisterRequest;
  registeredAt: number;
  /** Paid (an advance payment until verified); null before. */
  paidAt: number | null;
  /** The method the customer paid with; null before. */
  methodId: number | null;
  /** The payment title P24 gives it (`statement`). */
  statement: string;
  verifiedAt: number | null;
  /** The BLIK charge under way or done; null when none was asked. */
  blik: { code: string; trxRef: string; result: BlikResult | null } | null;
  /** What the customer did on the trnRequest page; null before. */
  bankOutcome: "paid" | "declined" | null;
}

/** A refund of one transaction, from one item of a transaction/refund request. */
export interface FakeRefund {
  refundId: number;
  batchId: number;
  requestId: string;
  refundsUuid: string;
  orderId: number;
  sessionId: string;
  amount: number;
  currency: string;
  description: string;
  urlStatus: string | null;
  /** `RefundsCollection.status`: 1 completed, 2 pending, 3 awaiting P24's acceptance, 4 rejected. */
  status: 1 | 2 | 3 | 4;
  createdAt: number;
  decidedAt: number | null;
}

/** One attempt to deliver a notification. */
export interface NotificationAttempt {
  url: string;
  kind: "status" | "blik" | "refund";
  sessionId: string;
  body: string;
  /** The receiver's HTTP status; null when unreachable. */
  answer: number | null;
  outcome: "delivered" | "failed" | "dropped";
  at: string;
}

/** A transaction/verify call and what the fake made of it. */
export interface Verification {
  at: string;
  sessionId: string | null;
  ok: boolean;
  /** Why it was refused; null when it succeeded. */
  refusal: string | null;
}

/** A request answered 4xx, and why (P24's bodies say only "Invalid input data"). */
export interface Rejection {
  at: string;
  path: string;
  reason: string;
}

/** Everything the fake remembers; one instance per fake. */
export class FakeState {
  readonly transactions = new Map<string, FakeTransaction>();
  readonly refunds: FakeRefund[] = [];
  readonly notifications: NotificationAttempt[] = [];
  readonly verifications: Verification[] = [];
  readonly rejections: Rejection[] = [];
  #nextOrderId = 300_000_000 + Math.floor(Math.random() * 100_000_000);
  #nextRefundId = 10_000;

  /** A new P24 order id (int64; P24 asks for BIGINT columns, above 2147483647). */
  newOrderId(): number {
    this.#nextOrderId += 1 + Math.floor(Math.random() * 50);
    return 4_000_000_000 + this.#nextOrderId;
  }

  /** A new refund id. */
  newRefundId(): number {
    return ++this.#nextRefundId;
  }

  /** The transaction registered with this session id. */
  bySessionId(sessionId: string): FakeTransaction | undefined {
    return [...this.transactions.values()].find((t) => t.request.sessionId === sessionId);
  }

  /** The transaction with this P24 order id. */
  byOrderId(orderId: number): FakeTransaction | undefined {
    return [...this.transactions.values()].find((t) => t.orderId === orderId);
  }

  /** The refunds of a transaction that were not rejected, oldest first. */
  refundsOf(orderId: number): FakeRefund[] {
    return this.refunds.filter((refund) => refund.orderId === orderId);
  }
}

/** The amount of a paid transaction not yet refunded (rejected refunds give theirs back). */
export function refundable(state: FakeState, t: FakeTransaction): number {
  const taken = state.refundsOf(t.orderId).filter((refund) => refund.status !== 4)
    .reduce((sum, refund) => sum + refund.amount, 0);
  return t.request.amount - taken;
}

/**
 * The status P24's lookup by sessionId shows: "0 - no payment, 1 - advance payment, 2 - payment
 * made, 3 - payment returned" (an unverified payment stays an advance payment).
 */
export function lookupStatus(state: FakeState, t: FakeTransaction): 0 | 1 | 2 | 3 {
  if (t.paidAt === null) return 0;
  if (t.verifiedAt === null) return 1;
  const returned = state.refundsOf(t.orderId).filter((refund) => refund.status === 1)
    .reduce((sum, refund) => sum + refund.amount, 0);
  return returned >= t.request.amount ? 3 : 2;
}

/** A date as P24's documents write them: `YYYY-MM-DD HH:MM:SS`, Polish time. */
export function p24Date(epochMs: number | null): string {
  if (epochMs === null) return "";
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/Warsaw",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(epochMs));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")}:${
    part("second")
  }`;
}
