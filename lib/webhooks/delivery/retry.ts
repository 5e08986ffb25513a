/** How far a retry may move from its scheduled delay, as a fraction each way (±10 %). */
export const RETRY_JITTER = 0.1;
/** The longest wait a receiver's `Retry-After` can ask for (the contract's longest step). */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * Reads a `Retry-After` header (delay seconds or an HTTP date) as milliseconds from `now`,
 * capped at `MAX_RETRY_AFTER_MS`; null when it is absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  let delay: number;
  if (/^\d+$/.test(trimmed)) {
    delay = Number(trimmed) * 1000;
  } else {
    // An HTTP date names its weekday and month ("Sat, 21 Nov 2026 10:05:00 GMT").
    const at = /[A-Za-z]{3}/.test(trimmed) ? Date.parse(trimmed) : NaN;
    if (Number.isNaN(at)) return null;
    delay = at - now;
  }
  return Math.min(Math.max(delay, 0), MAX_RETRY_AFTER_MS);
}

/**
 * When the next attempt is due after `attempts` attempts failed, or null when the schedule is
 * used up. `schedule[n]` is the wait before attempt n+1 (schedule[0], usually 0, comes before the
 * first). The wait gets ±10 % jitter so retries after an outage do not arrive in one wave, and a
 * `Retry-After` can lengthen it but never shorten it: the schedule's total span is what gives a
 * receiver days to recover, and a receiver asking for an early retry would burn it in minutes.
 */
export function nextAttemptAt(input: {
  schedule: readonly number[];
  attempts: number;
  now: number;
  retryAfterMs: number | null;
  random: () => number;
}): number | null {
  const { schedule, attempts, now } = input;
  if (attempts >= schedule.length) return null;
  const jittered = schedule[attempts] * (1 + (input.random() * 2 - 1) * RETRY_JITTER);
  return now + Math.round(Math.max(jittered, input.retryAfterMs ?? 0));
}
