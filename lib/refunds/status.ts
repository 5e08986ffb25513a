/** Refund statuses of the contract. */
export const REFUND_STATUSES = ["PENDING", "SUCCEEDED", "FAILED"] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** The only moves a refund can make: the provider's answer, once. */
const TRANSITIONS: Record<RefundStatus, readonly RefundStatus[]> = {
  PENDING: ["SUCCEEDED", "FAILED"],
  SUCCEEDED: [],
  FAILED: [],
};

/** Tells whether a refund may move from `from` to `to`. */
export function canTransition(from: RefundStatus, to: RefundStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The column recording when a refund reached each final status. */
export const MILESTONE_COLUMN = {
  SUCCEEDED: "succeeded_at",
  FAILED: "failed_at",
} as const satisfies Record<Exclude<RefundStatus, "PENDING">, string>;

/** The event each final status writes. */
export const TRANSITION_EVENT = {
  SUCCEEDED: "refund.succeeded",
  FAILED: "refund.failed",
} as const satisfies Record<Exclude<RefundStatus, "PENDING">, string>;
