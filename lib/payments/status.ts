/** Payment statuses of the contract. */
export const PAYMENT_STATUSES = [
  "PENDING",
  "PROCESSING",
  "SUCCEEDED",
  "FAILED",
  "CANCELED",
  "EXPIRED",
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The only moves a payment can make; a final status has none. */
const TRANSITIONS: Record<PaymentStatus, readonly PaymentStatus[]> = {
  PENDING: ["PROCESSING", "CANCELED", "EXPIRED"],
  PROCESSING: ["SUCCEEDED", "FAILED"],
  SUCCEEDED: [],
  FAILED: [],
  CANCELED: [],
  EXPIRED: [],
};

/** Tells whether a payment may move from `from` to `to`. */
export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Tells whether a status is final: the payment never changes status again. */
export function isFinal(status: PaymentStatus): boolean {
  return TRANSITIONS[status].length === 0;
}

/** The column recording when a payment reached each status after PENDING. */
export const MILESTONE_COLUMN = {
  PROCESSING: "processing_at",
  SUCCEEDED: "succeeded_at",
  FAILED: "failed_at",
  CANCELED: "canceled_at",
  EXPIRED: "expired_at",
} as const satisfies Record<Exclude<PaymentStatus, "PENDING">, string>;

/** The event each status change writes. */
export const TRANSITION_EVENT = {
  PROCESSING: "payment.processing",
  SUCCEEDED: "payment.succeeded",
  FAILED: "payment.failed",
  CANCELED: "payment.canceled",
  EXPIRED: "payment.expired",
} as const satisfies Record<Exclude<PaymentStatus, "PENDING">, string>;
