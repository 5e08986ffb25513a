/** Checkout session statuses of the contract. */
export const SESSION_STATUSES = ["OPEN", "COMPLETED", "EXPIRED"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** The only moves a session can make; COMPLETED and EXPIRED are final. */
const TRANSITIONS: Record<SessionStatus, readonly SessionStatus[]> = {
  OPEN: ["COMPLETED", "EXPIRED"],
  COMPLETED: [],
  EXPIRED: [],
};

/** Tells whether a session may move from `from` to `to`. */
export function canTransition(from: SessionStatus, to: SessionStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The column recording when a session reached each final status. */
export const MILESTONE_COLUMN = {
  COMPLETED: "completed_at",
  EXPIRED: "expired_at",
} as const satisfies Record<Exclude<SessionStatus, "OPEN">, string>;

/** The event each status change writes. */
export const TRANSITION_EVENT = {
  COMPLETED: "checkout.session.completed",
  EXPIRED: "checkout.session.expired",
} as const satisfies Record<Exclude<SessionStatus, "OPEN">, string>;
