import {
  extendLeases,
  findEndpointsWithDueDeliveries,
  nextDeliveryDueAt,
  releaseLeases,
} from "../../db/webhook_deliveries.ts";
import { latestEventId } from "../../db/webhook_fanout.ts";
import type { Services } from "../context.ts";
import { errorFields } from "../log.ts";
import type { ScheduledJob } from "../scheduler.ts";
import { claimDueAttempts, type ClaimedAttempt, fanOutEvents } from "./outbox.ts";
import { type AttemptReport, recordAttempts } from "./outcomes.ts";
import { ATTEMPT_TIMEOUT_MS, sendAttempt } from "./sender.ts";
import { webhookHeaders } from "./signing.ts";

/** The scheduled job that sends due retries and recovers attempts whose process died. */
export const WEBHOOK_DELIVERY_JOB = "webhook-delivery";

/** Tuning of the delivery queue; tests shorten the timeout, the benchmark may widen limits. */
export interface WebhookDeliveryOptions {
  /** Attempts in flight at once, over all endpoints. */
  maxInFlight?: number;
  /** Attempts in flight at once to one endpoint, so one slow receiver cannot take every slot. */
  maxInFlightPerEndpoint?: number;
  /** How long one attempt may take. */
  attemptTimeoutMs?: number;
  /** How long a claimed attempt is leased; renewed while it runs. */
  leaseMs?: number;
  /** Random numbers in [0, 1) for retry jitter. */
  random?: () => number;
}

const DEFAULTS: Required<WebhookDeliveryOptions> = {
  maxInFlight: 128,
  maxInFlightPerEndpoint: 32,
  attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
  leaseMs: 10_000,
  random: Math.random,
};

/** Events fanned out per transaction: small enough to keep each write a few milliseconds. */
const FANOUT_BATCH = 200;
/** How soon failed queue work (a database error) is tried again. */
const RETRY_AFTER_ERROR_MS = 1_000;

/**
 * The in-process delivery queue. After every commit it fans new events out into deliveries and
 * leases due ones, both in one short write; it runs up to `maxInFlight` attempts at once and
 * records their results in batches, one write per batch however many finished. The scheduled
 * job covers what no commit announces: retries coming due, leases of a dead process running
 * out, events written by another process.
 */
export class WebhookDispatcher {
  readonly #services: Services;
  readonly #options: Required<WebhookDeliveryOptions>;
  readonly #stopSignal = new AbortController();
  /** Leased attempts by delivery id, from claim until their result is recorded. */
  readonly #inFlight = new Map<number, ClaimedAttempt>();
  /** Attempts leased and not yet recorded (a stale one and its successor may share an id). */
  #inFlightCount = 0;
  readonly #inFlightPerEndpoint = new Map<number, number>();
  readonly #attempts = new Set<Promise<void>>();
  #reports: AttemptReport[] = [];
  #recording: Promise<void> | null = null;
  #pumping: Promise<void> | null = null;
  #pumpAgain = false;
  /** The fan-out cursor as last seen; -1 before the first look. */
  #fannedOutTo = -1;
  #rotation = 0;
  #leaseTimer: ReturnType<typeof setInterval> | null = null;
  #unsubscribe: (() => void) | null = null;
  #stopped = false;

  constructor(services: Services, options: WebhookDeliveryOptions = {}) {
    this.#services = services;
    this.#options = { ...DEFAULTS, ...options };
  }

  /** Starts reacting to commits: a committed event is fanned out and sent right away. */
  start(): void {
    this.#unsubscribe ??= this.#services.store.onCommit(() => this.kick());
  }

  /** Looks for new events and due deliveries (after a commit, a freed slot, a timer). */
  kick(): void {
    if (this.#stopped) return;
    if (this.#pumping) {
      this.#pumpAgain = true;
      return;
    }
    this.#pumpAgain = false;
    this.#pumping = this.#pump().finally(() => {
      this.#pumping = null;
      // A kick that came after the last round decided to stop must not be lost.
      if (this.#pumpAgain) this.kick();
    });
  }

  /** Runs one sweep to completion; returns when the next pending delivery is due. */
  async sweep(): Promise<number | null> {
    this.kick();
    await this.#pumping;
    const now = this.#services.clock.now();
    const next = await nextDeliveryDueAt(this.#services.store.db);
    return next !== null && next > now ? next : null;
  }

  /** Resolves when nothing is being claimed, sent or recorded (tests, benchmarks, shutdown). */
  async idle(): Promise<void> {
    while (this.#pumping || this.#recording || this.#attempts.size > 0) {
      await Promise.all([this.#pumping, this.#recording, ...this.#attempts]);
    }
  }

  /**
   * Stops: no new claims, attempts in flight are abandoned and their leases given back (the
   * receiver may have got them; `webhook-id` lets it dedupe the retry), then waits for that.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#unsubscribe?.();
    this.#stopSignal.abort();
    await this.idle();
    this.#clearLeaseTimer();
  }

  async #pump(): Promise<void> {
    try {
      while (!this.#stopped && await this.#step()) {
        // Keep going while a round did work: a backlog of events fans out batch by batch.
      }
    } catch (error) {
      this.#services.log.error("webhook queue failed", errorFields(error));
      this.#pumpAgain = false;
      this.#wake(this.#services.clock.now() + RETRY_AFTER_ERROR_MS);
    }
  }

  /** One round: fans out new events and leases due deliveries in one write. */
  async #step(): Promise<boolean> {
    const { store, clock, config } = this.#services;
    // Cheap reads decide whether a write is needed at all: every commit kicks the queue, and a
    // write that finds nothing would itself commit and kick it again.
    const fanOut = await latestEventId(store.db) > this.#fannedOutTo;
    const slots = this.#options.maxInFlight - this.#inFlightCount;
    const claim = slots > 0 &&
      (await findEndpointsWithDueDeliveries(store.db, clock.now()))
        .some((endpointId) => this.#capacityOf(endpointId) > 0);
    if (!fanOut && !claim) return false;

    const schedule = config.webhookRetryScheduleMs;
    const round = await store.write(async (trx) => {
      const now = clock.now();
      const fannedOut = fanOut
        ? await fanOutEvents(trx, {
          now,
          firstAttemptDelayMs: schedule[0],
          limit: FANOUT_BATCH,
        })
        : null;
      const claimed = await claimDueAttempts(trx, {
        now,
        leaseMs: this.#options.leaseMs,
        slots,
        capacityOf: (endpointId) => this.#capacityOf(endpointId),
        runningAttemptOf: (deliveryId) => this.#inFlight.get(deliveryId)?.attempt,
        maxAttempts: schedule.length,
        rotation: this.#rotation++,
      });
      return { fannedOut, claimed, nextDueAt: await nextDeliveryDueAt(trx), now };
    });
    if (round.fannedOut) this.#fannedOutTo = round.fannedOut.lastEventId;
    for (const attempt of round.claimed.claimed) this.#launch(attempt);
    if (round.nextDueAt !== null && round.nextDueAt > round.now) this.#wake(round.nextDueAt);
    return (round.fannedOut?.events ?? 0) > 0 || round.claimed.claimed.length > 0;
  }

  #capacityOf(endpointId: number): number {
    const running = this.#inFlightPerEndpoint.get(endpointId) ?? 0;
    return Math.min(
      this.#options.maxInFlightPerEndpoint - running,
      this.#options.maxInFlight - this.#inFlightCount,
    );
  }

  #launch(claim: ClaimedAttempt): void {
    this.#inFlight.set(claim.deliveryId, claim);
    this.#inFlightCount++;
    this.#inFlightPerEndpoint.set(
      claim.endpointId,
      (this.#inFlightPerEndpoint.get(claim.endpointId) ?? 0) + 1,
    );
    this.#leaseTimer ??= setInterval(() => this.#renewLeases(), this.#options.leaseMs / 4);
    const task: Promise<void> = this.#attempt(claim).finally(() => this.#attempts.delete(task));
    this.#attempts.add(task);
  }

  #startRecording(): void {
    if (this.#recording) return;
    this.#recording = this.#recordReports().finally(() => {
      this.#recording = null;
      // A report that came after the last write looked must not wait for the next one.
      if (this.#reports.length > 0) this.#startRecording();
    });
  }

  async #attempt(claim: ClaimedAttempt): Promise<void> {
    const { clock, environment, resolveHost } = this.#services;
    const startedAt = clock.now();
    const outcome = await sendAttempt({
      url: claim.url,
      body: claim.payload,
      headers: webhookHeaders({
        id: claim.eventId,
        timestampSeconds: Math.floor(startedAt / 1000),
        body: claim.payload,
        secrets: claim.secrets,
      }),
      publicOnly: environment === "production",
      resolveHost,
      stop: this.#stopSignal.signal,
      timeoutMs: this.#options.attemptTimeoutMs,
      now: startedAt,
    });
    this.#reports.push({ claim, startedAt, outcome });
    this.#startRecording();
  }

  /** Records finished attempts, all that finished meanwhile in one write, until none is left. */
  async #recordReports(): Promise<void> {
    while (this.#reports.length > 0) {
      const reports = this.#reports;
      this.#reports = [];
      try {
        await this.#record(reports);
      } catch (error) {
        this.#services.log.error("recording webhook attempts failed", errorFields(error));
        if (this.#stopped) {
          // Their leases run out and another process (or the next start) retries them.
          for (const report of reports) this.#release(report.claim);
          continue;
        }
        this.#reports.unshift(...reports);
        await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_ERROR_MS));
      }
    }
  }

  async #record(reports: AttemptReport[]): Promise<void> {
    const { store, clock, config, log } = this.#services;
    const abandoned = reports.filter((report) => report.outcome.kind === "aborted");
    const finished = reports.filter((report) => report.outcome.kind !== "aborted");
    const recorded = await store.write(async (trx) => {
      const now = clock.now();
      await releaseLeases(
        trx,
        abandoned.map(({ claim }) => ({ id: claim.deliveryId, attempt: claim.attempt })),
        now,
      );
      return await recordAttempts(trx, finished, {
        now,
        schedule: config.webhookRetryScheduleMs,
        random: this.#options.random,
      });
    });
    for (const report of reports) this.#release(report.claim);
    if (recorded.nextRetryAt !== null) this.#wake(recorded.nextRetryAt);
    for (const disabled of recorded.disabled) {
      log.warn("webhook endpoint disabled", disabled);
    }
    if (recorded.stale > 0) log.info("late webhook attempt results", { count: recorded.stale });
    this.kick();
  }

  #release(claim: ClaimedAttempt): void {
    if (this.#inFlight.get(claim.deliveryId) === claim) this.#inFlight.delete(claim.deliveryId);
    this.#inFlightCount--;
    const running = (this.#inFlightPerEndpoint.get(claim.endpointId) ?? 1) - 1;
    if (running > 0) this.#inFlightPerEndpoint.set(claim.endpointId, running);
    else this.#inFlightPerEndpoint.delete(claim.endpointId);
    if (this.#inFlightCount === 0) this.#clearLeaseTimer();
  }

  #renewLeases(): void {
    const claims = [...this.#inFlight.values()]
      .map((claim) => ({ id: claim.deliveryId, attempt: claim.attempt }));
    if (claims.length === 0 || this.#stopped) return;
    const { store, clock, log } = this.#services;
    store.write((trx) => extendLeases(trx, claims, clock.now() + this.#options.leaseMs))
      .catch((error) => log.warn("renewing webhook leases failed", errorFields(error)));
  }

  #clearLeaseTimer(): void {
    if (this.#leaseTimer !== null) clearInterval(this.#leaseTimer);
    this.#leaseTimer = null;
  }

  #wake(at: number): void {
    if (!this.#stopped) this.#services.scheduler.wake(WEBHOOK_DELIVERY_JOB, at);
  }
}

/** The scheduled job: a sweep of the queue (due retries, expired leases, others' events). */
export function webhookDeliveryJob(dispatcher: WebhookDispatcher): ScheduledJob {
  return {
    name: WEBHOOK_DELIVERY_JOB,
    run: () => dispatcher.sweep(),
  };
}
