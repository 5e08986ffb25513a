import type { Clock } from "./clock.ts";
import { errorFields, type Logger } from "./log.ts";
import { isStorageUnavailable } from "./storage.ts";

/** Background work that becomes due at known times (expiries, timeouts, retries). */
export interface ScheduledJob {
  name: string;
  /** Does what is due at `now`; returns when it next has work, or null if it has none. */
  run(now: number): Promise<number | null>;
}

/** How soon a job that threw is tried again. */
const RETRY_AFTER_ERROR_MS = 5_000;
/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Entry {
  job: ScheduledJob;
  /** When the job next wants to run; null when it has nothing planned. */
  dueAt: number | null;
}

/**
 * Runs registered jobs when they are due. One in-process timer is set for the earliest due
 * time, `wake()` brings a job forward when a service creates a deadline, and a periodic sweep
 * (Deno.cron, and once at start) calls `runAll()` so work written by another process or before
 * a restart is found. Runs never overlap.
 */
export class Scheduler {
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #timers: boolean;
  readonly #entries = new Map<string, Entry>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #timerAt: number | null = null;
  #running: Promise<void> | null = null;
  #runAgain = false;
  #forceAll = false;
  #stopped = false;

  /** With `timers: false` nothing runs by itself; tests call `runDue()` or `runAll()`. */
  constructor(options: { clock: Clock; log: Logger; timers: boolean }) {
    this.#clock = options.clock;
    this.#log = options.log;
    this.#timers = options.timers;
  }

  /** Adds a job; it first runs at the next `runAll()`. */
  register(job: ScheduledJob): void {
    this.#entries.set(job.name, { job, dueAt: null });
  }

  /** Asks for job `name` to run at `at` (epoch ms) unless it is already due earlier. */
  wake(name: string, at: number): void {
    const entry = this.#entries.get(name);
    if (!entry) throw new Error(`No scheduled job named ${name}.`);
    if (entry.dueAt === null || at < entry.dueAt) entry.dueAt = at;
    this.#arm();
  }

  /** Asks every job to run at `at`: what is due may have changed for all of them. */
  wakeAll(at: number): void {
    for (const name of this.#entries.keys()) this.wake(name, at);
  }

  /** Runs the jobs that are due now. */
  runDue(): Promise<void> {
    return this.#start(false);
  }

  /** Runs every job now, due or not (the periodic sweep). */
  runAll(): Promise<void> {
    return this.#start(true);
  }

  /** Cancels the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#clearTimer();
    await this.#running;
  }

  #start(all: boolean): Promise<void> {
    if (all) this.#forceAll = true;
    if (this.#running) {
      this.#runAgain = true;
      return this.#running;
    }
    this.#running = this.#loop().finally(() => {
      this.#running = null;
      this.#arm();
    });
    return this.#running;
  }

  async #loop(): Promise<void> {
    do {
      this.#runAgain = false;
      const all = this.#forceAll;
      this.#forceAll = false;
      for (const entry of this.#entries.values()) {
        if (this.#stopped) return;
        const now = this.#clock.now();
        if (!all && (entry.dueAt === null || entry.dueAt > now)) continue;
        entry.dueAt = null;
        let next: number | null;
        try {
          next = await entry.job.run(now);
        } catch (error) {
          if (!isStorageUnavailable(error)) {
            this.#log.error("scheduled job failed", { job: entry.job.name, ...errorFields(error) });
          }
          next = now + RETRY_AFTER_ERROR_MS;
        }
        // A wake() during the run may already have asked for an earlier time.
        if (next !== null && (entry.dueAt === null || next < entry.dueAt)) entry.dueAt = next;
      }
    } while (this.#runAgain && !this.#stopped);
  }

  #arm(): void {
    if (!this.#timers || this.#stopped || this.#running) return;
    let earliest: number | null = null;
    for (const entry of this.#entries.values()) {
      if (entry.dueAt !== null && (earliest === null || entry.dueAt < earliest)) {
        earliest = entry.dueAt;
      }
    }
    if (earliest === null || earliest === this.#timerAt) return;
    this.#clearTimer();
    this.#timerAt = earliest;
    const delay = Math.min(Math.max(0, earliest - this.#clock.now()), MAX_TIMER_MS);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#timerAt = null;
      this.runDue();
    }, delay);
  }

  #clearTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#timerAt = null;
  }
}
