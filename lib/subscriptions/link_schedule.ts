import type { Config } from "../config.ts";
import type { Services } from "../context.ts";
import { RENEWAL_RETRY_DELAYS_MS } from "./status.ts";

const DAY_MS = 86_400_000;
/** How long the last reminder's link stays payable before the subscription is canceled. */
const LAST_REMINDER_GRACE_MS = DAY_MS;

/**
 * Whether this process renews subscriptions by pay link: its provider cannot charge the method
 * a customer first paid with (a provider without `renewals` keeps no card or BLIK token), so the customer pays each
 * renewal on its hosted page.
 */
export function renewsByLink(services: Pick<Services, "provider">): boolean {
  return services.provider.renewals === null;
}

/** What happens to one period's renewal by link, and when (the organisation's time). */
export interface LinkSchedule {
  /** The renewal payment is created and its link e-mailed (`RENEWAL_NOTICE_DAYS` before). */
  noticeAt: number;
  /** A reminder when the renewal falls due (the period end) and at each retry. */
  reminders: number[];
  /** The renewal payment expires; a subscription still unpaid is canceled. */
  expiresAt: number;
}

/** The renewal by link of the period `current` (the one that ends at `current.end`). */
export function linkSchedule(
  config: Pick<Config, "renewalNoticeDays">,
  current: { start: number; end: number },
): LinkSchedule {
  const reminders = [current.end, ...RENEWAL_RETRY_DELAYS_MS.map((delay) => current.end + delay)];
  return {
    // A period shorter than the notice (daily plans) sends its link as soon as it starts.
    noticeAt: Math.max(current.start, current.end - config.renewalNoticeDays * DAY_MS),
    reminders,
    expiresAt: reminders.at(-1)! + LAST_REMINDER_GRACE_MS,
  };
}

/** When a live subscription in `current` is next due for the renewal job. */
export function nextRenewalAt(
  services: Pick<Services, "provider" | "config">,
  current: { start: number; end: number },
): number {
  return renewsByLink(services) ? linkSchedule(services.config, current).noticeAt : current.end;
}

/** The first step of `schedule` after `now`, or its end once every step has passed. */
export function stepAfter(schedule: LinkSchedule, now: number): number {
  return [schedule.noticeAt, ...schedule.reminders].find((at) => at > now) ?? schedule.expiresAt;
}
