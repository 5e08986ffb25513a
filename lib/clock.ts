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

/** Formats epoch milliseconds as the contract's ISO 8601 UTC string. */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Like `toIso`, for optional timestamps. */
export function toIsoOrNull(ms: number | null): string | null {
  return ms === null ? null : toIso(ms);
}
