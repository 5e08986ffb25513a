/** Subscription statuses of the contract. */
export const SUBSCRIPTION_STATUSES = ["ACTIVE", "PAST_DUE", "CANCELED"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Why a subscription ended. */
export const CANCELLATION_REASONS = ["requested", "renewal_failed"] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

/**
 * The only moves a subscription can make. ACTIVE -> ACTIVE is a renewal (the period moves on,
 * the status stays); PAST_DUE -> ACTIVE a late renewal that succeeded.
 */
const TRANSITIONS: Record<SubscriptionStatus, readonly SubscriptionStatus[]> = {
  ACTIVE: ["ACTIVE", "PAST_DUE", "CANCELED"],
  PAST_DUE: ["PAST_DUE", "ACTIVE", "CANCELED"],
  CANCELED: [],
};

/** Tells whether a subscription may move from `from` to `to`. */
export function canTransition(from: SubscriptionStatus, to: SubscriptionStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The column recording when a subscription last reached a status after ACTIVE. */
export const MILESTONE_COLUMN = {
  PAST_DUE: "past_due_at",
  CANCELED: "canceled_at",
} as const satisfies Record<Exclude<SubscriptionStatus, "ACTIVE">, string>;

/** When the retries of a failed renewal are charged, counted from the end of the period. */
export const RENEWAL_RETRY_DELAYS_MS = [86_400_000, 3 * 86_400_000] as const;

/** How many times one period's renewal is charged before the subscription is canceled. */
export const MAX_RENEWAL_ATTEMPTS = 1 + RENEWAL_RETRY_DELAYS_MS.length;
