import type { SignInThrottleRow } from "../../db/schema.ts";

/**
 * How many sign-in attempts a subject may have in one window before it is locked. Attempts are
 * counted before their password is checked; a right one is given back.
 */
interface ThrottlePolicy {
  maxFailures: number;
  windowMs: number;
  lockMs: number;
}

const MINUTE = 60_000;

/**
 * Per account: five attempts in 15 minutes (a right one is given back) lock the account's
 * sign-in for 15 minutes, whoever tries. Per client address: 50, so one office behind one address is not locked out
 * by a colleague, while a script guessing across many accounts from one address is.
 */
export const ACCOUNT_POLICY: ThrottlePolicy = {
  maxFailures: 5,
  windowMs: 15 * MINUTE,
  lockMs: 15 * MINUTE,
};
export const ADDRESS_POLICY: ThrottlePolicy = {
  maxFailures: 50,
  windowMs: 15 * MINUTE,
  lockMs: 15 * MINUTE,
};

/** The throttle subject of an account: its e-mail address, whether or not such a user exists. */
export function accountSubject(email: string): string {
  return `account:${email.toLowerCase()}`;
}

/** The throttle subject of a client address. */
export function addressSubject(address: string): string {
  return `address:${address}`;
}

/** Until when `row` is locked at `now`, or null. */
export function lockedUntil(row: SignInThrottleRow | undefined, now: number): number | null {
  return row?.locked_until != null && row.locked_until > now ? row.locked_until : null;
}

/**
 * The state after one more failure: a window that ended starts over; reaching the limit locks
 * the subject and starts a new window, so the next lock needs the full count again.
 */
export function afterFailure(
  subject: string,
  row: SignInThrottleRow | undefined,
  policy: ThrottlePolicy,
  now: number,
): SignInThrottleRow {
  const windowOpen = row !== undefined && now - row.window_started_at < policy.windowMs;
  const failures = (windowOpen ? row.failures : 0) + 1;
  const windowStartedAt = windowOpen ? row.window_started_at : now;
  if (failures >= policy.maxFailures) {
    return {
      subject,
      failures: 0,
      window_started_at: now,
      locked_until: now + policy.lockMs,
      updated_at: now,
    };
  }
  return {
    subject,
    failures,
    window_started_at: windowStartedAt,
    locked_until: lockedUntil(row, now),
    updated_at: now,
  };
}

/**
 * The state after a reserved attempt proved right: its count is given back. A reservation that
 * locked the subject has nothing left to give back (the lock's window started anew).
 */
export function afterGiveBack(
  row: SignInThrottleRow,
  policy: ThrottlePolicy,
  now: number,
): SignInThrottleRow {
  const windowOpen = now - row.window_started_at < policy.windowMs;
  if (!windowOpen || row.failures === 0) return row;
  return { ...row, failures: row.failures - 1, updated_at: now };
}
