import type { RecurringInterval } from "../offers.ts";

const DAY_MS = 86_400_000;

/** A subscription's billing rhythm: every `count` intervals. */
export interface BillingCycle {
  interval: RecurringInterval;
  count: number;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** `at` plus `months` calendar months in UTC, on the same day or the month's last day. */
function addMonths(at: number, months: number): number {
  const date = new Date(at);
  const total = date.getUTCMonth() + months;
  const year = date.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const day = Math.min(date.getUTCDate(), daysInMonth(year, month));
  const time = at - Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  return Date.UTC(year, month, day) + time;
}

/**
 * The start of period `index` (0 is the first) of a subscription anchored at `anchor`.
 * Months and years are calendar steps in UTC that keep the anchor's day, or the month's last
 * day when it has fewer (anchored on Jan 31: Feb 28 or 29, Mar 31, Apr 30, ...).
 */
export function periodStart(anchor: number, cycle: BillingCycle, index: number): number {
  // NOTE: always computed from the anchor, never from the previous boundary, so a short month
  // does not pull every later period earlier (Jan 31 -> Feb 28 -> Mar 31, not Mar 28).
  const steps = index * cycle.count;
  switch (cycle.interval) {
    case "DAY":
      return anchor + steps * DAY_MS;
    case "WEEK":
      return anchor + steps * 7 * DAY_MS;
    case "MONTH":
      return addMonths(anchor, steps);
    case "YEAR":
      return addMonths(anchor, steps * 12);
  }
}

/** Period `index`'s start and end (the next period's start). */
export function period(
  anchor: number,
  cycle: BillingCycle,
  index: number,
): { start: number; end: number } {
  return { start: periodStart(anchor, cycle, index), end: periodStart(anchor, cycle, index + 1) };
}
