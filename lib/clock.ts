/** The source of the current time; tests and the sandbox clock replace it. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to, for tests. */
export class ManualClock implements Clock {
  #now: number;

  constructor(start: Date | number = Date.UTC(2026, 10, 21, 10, 0, 0)) {
    this.#now = typeof start === "number" ? start : start.getTime();
  }

  now(): number {
    return this.#now;
  }

  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.#now += ms;
  }
}

/** The first millisecond of the year 10000, past which ISO years take six digits. */
const YEAR_10000 = 253_402_300_800_000;
const DAY_MS = 86_400_000;

function pad2(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}

/**
 * Formats epoch milliseconds as the contract's ISO 8601 UTC string, exactly as
 * `Date.prototype.toISOString` does. Every API response formats several, and computing the
 * civil date by arithmetic (Howard Hinnant's days-to-civil) measured four times faster than
 * making a Date; other years go through Date.
 */
export function toIso(ms: number): string {
  if (!(ms >= 0 && ms < YEAR_10000 && Number.isInteger(ms))) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  const inDay = ms - days * DAY_MS;
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra -
    (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(inDay / 3_600_000);
  const minutes = Math.floor(inDay / 60_000) % 60;
  const seconds = Math.floor(inDay / 1000) % 60;
  const millis = inDay % 1000;
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${
    millis < 10 ? "00" : millis < 100 ? "0" : ""
  }${millis}Z`;
}

/** Like `toIso`, for optional timestamps. */
export function toIsoOrNull(ms: number | null): string | null {
  return ms === null ? null : toIso(ms);
}
