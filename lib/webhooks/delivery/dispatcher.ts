import { WEBHOOK_DELIVERY_JOB } from "../../jobs.ts";
import {
  extendLeasesStatements,
  findEndpointRowsWithDueDeliveries,
  nextDeliveryDueAfter,
  releaseLeasesStatements,
} from "../../../db/webhook_deliveries.ts";
import { writePlanned } from "../../../db/planned_write.ts";
import { listOrganisationIdsOnPlan } from "../../../db/organisations.ts";
import {
  type OutboxState,
  outboxStateStatement,
  readFanoutPosition,
  readOutboxState,
  toOutboxState,
} from "../../../db/webhook_fanout.ts";
import type { Services } from "../../context.ts";
import { errorFields } from "../../log.ts";
import { isStorageUnavailable } from "../../storage.ts";
import type { ScheduledJob } from "../../scheduler.ts";
import { type HostChecker, publicHostCheck, webhookTargetPolicy } from "../address_policy.ts";
import { type AttemptBudget, type ClaimedAttempt, planClaims } from "./claim.ts";
import { planFanOut } from "./fan_out.ts";
import { type AttemptReport, disableEndpoints, planRecording } from "./outcomes.ts";
import { ATTEMPT_TIMEOUT_MS, sendAttempt } from "./sender.ts";
import { webhookHeaders } from "../signing.ts";

/** Tuning of the delivery queue (tests shorten the attempt timeout and pin the jitter). */
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
  maxInFlight: 256,
  maxInFlightPerEndpoint: 64,
  attemptTimeoutMs: ATTEMPT_TIMEOUT_MS,
  leaseMs: 10_000,
  random: Math.random,
};

/** How long after an API request delivery keeps deferring to the API. */
const API_ACTIVE_MS = 200;
// NOTE: a round runs synchronously underneath (libSQL), so while it runs no API request is
// served: while the API is being called, rounds are small; otherwise larger ones cost fewer
// commits per delivery.
/** Attempt results recorded, and attempts started, per round while the API is being called. */
const ROUND_SIZE_API_ACTIVE = 32;
/** The same when the API is quiet. */
const ROUND_SIZE_API_QUIET = 64;
/** How often a queue busy recording results looks for due deliveries it was not told of. */
const DUE_CHECK_EVERY_MS = 100;
/**
 * The shortest wait a sweep asks for before the next: in a busy queue something falls due every
 * few milliseconds, and a sweep for each would be a read and a round each. This process's own
 * retries wake the queue at their time regardless.
 */
const SWEEP_AT_MOST_EVERY_MS = 100;
/** How soon failed queue work (a database error) is tried again. */
const RETRY_AFTER_ERROR_MS = 1_000;

/**
 * The in-process delivery queue. Every database change of delivery happens in rounds: one short
 * write that records the attempts finished since the last round, leases the deliveries now due
 * and fans new events out into the room left, so however many attempts finish together, they
 * cost one commit. A round runs after every commit (a new event), whenever an attempt finishes,
 * and from the scheduled job, which covers what no commit announces: retries coming due, leases
 * of a dead process running out, events written by another process.
 */
export class WebhookDispatcher {
  readonly #services: Services;
  readonly #options: Required<WebhookDeliveryOptions>;
  readonly #checkHost: HostChecker | null;
  readonly #stopSignal = new AbortController();
  /** Leased attempts by delivery id, from claim until their result is committed. */
  readonly #leased = new Map<number, ClaimedAttempt>();
  /** How many leases are held (a stale attempt and its successor may share a delivery id). */
  #leasedCount = 0;
  /** HTTP requests in progress, in all and per endpoint: the concurrency limits. */
  #sending = 0;
  readonly #sendingPerEndpoint = new Map<number, number>();
  readonly #attempts = new Set<Promise<void>>();
  /** Finished attempts waiting for the next round to record them. */
  #reports: AttemptReport[] = [];
  #pumping: Promise<void> | null = null;
  #pumpAgain = false;
  /** The outbox state read in the last commit, not yet looked at by a round. */
  #committed: OutboxState | null = null;
  /** The fan-out cursor as last seen; -1 before the first look. */
  #fannedOutTo = -1;
  /** The last fan-out stopped at its limit: more events are waiting. */
  #eventsWaiting = false;
  /** Something is known to be due: look in the next round. */
  #dueHint = true;
  /** When (performance.now) a busy queue next looks for due deliveries. */
  #dueCheckAt = 0;
  /** When (performance.now) the API last started serving a request. */
  #lastRequestAt = -Infinity;
  #rotation = 0;
  #leaseTimer: ReturnType<typeof setInterval> | null = null;
  #unsubscribe: (() => void) | null = null;
  #stopped = false;

  constructor(services: Services, options: WebhookDeliveryOptions = {}) {
    this.#services = services;
    this.#options = { ...DEFAULTS, ...options };
    // NOTE: under the address policy, where a URL points is checked before every attempt, not
    // only at registration: a name can be repointed at an internal address afterwards.
    this.#checkHost = webhookTargetPolicy(services.config) !== null
      ? publicHostCheck(services.resolveHost)
      : null;
  }

  /** Notes that the API is serving a request: delivery then yields half the thread to it. */
  noteRequest(): void {
    this.#lastRequestAt = performance.now();
  }

  /**
   * Starts reacting to commits: a committed event is fanned out and sent right away. Each
   * commit reads the outbox state in its own transaction, so a commit with nothing to deliver
   * costs no read of the queue's own.
   */
  start(): void {
    const { store, clock } = this.#services;
    this.#unsubscribe ??= store.onCommitProbe({
      statement: () => outboxStateStatement(clock.now()),
      listener: (result) => {
        this.#committed = result && toOutboxState(result.rows);
        this.kick();
      },
    });
  }

  /** Runs a round soon (after a commit, a finished attempt, a timer). */
  kick(): void {
    // Once stopped, rounds only record what finished (and give back abandoned leases).
    if (this.#stopped && this.#reports.length === 0) return;
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

  /**
   * Starts a round that also looks for due deliveries; returns when the next pending delivery
   * is due. It does not wait for the queue to drain: the scheduler runs one job at a time, and
   * payment deadlines must not wait behind a webhook backlog.
   */
  async sweep(): Promise<number | null> {
    this.#dueHint = true;
    // The sweep looks for what no commit of this process announced: read afresh.
    this.#committed = null;
    this.kick();
    // What is due now is this round's; the job's next run is for what falls due later (a
    // retry, or the lease of a process that died).
    const now = this.#services.clock.now();
    const next = await nextDeliveryDueAfter(this.#services.store.db, now);
    return next === null ? null : Math.max(next, now + SWEEP_AT_MOST_EVERY_MS);
  }

  /** Resolves when nothing is being claimed, sent or recorded (tests, benchmarks, shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.#reports.length > 0) this.kick();
      if (!this.#pumping && this.#attempts.size === 0 && this.#reports.length === 0) return;
      await Promise.all([this.#pumping, ...this.#attempts]);
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
      for (;;) {
        const started = performance.now();
        if (!await this.#round()) break;
        // NOTE: awaiting libSQL never lets I/O in, so back-to-back rounds would hold every API
        // request until a whole backlog is through. Each round ends with a timer turn, and while
        // the API is being called the loop is then left free as long as the round took:
        // delivery takes about half the thread, and a request waits for at most one round.
        const busy = performance.now() - started;
        await new Promise((resolve) => setTimeout(resolve, this.#apiActive() ? busy : 0));
      }
    } catch (error) {
      if (!isStorageUnavailable(error)) {
        this.#services.log.error("webhook queue failed", errorFields(error));
      }
      this.#pumpAgain = false;
      this.#wake(this.#services.clock.now() + RETRY_AFTER_ERROR_MS);
    }
  }

  /**
   * One round in one write: record finished attempts, lease due deliveries (older work first),
   * then fan out new events into the room left.
   */
  async #round(): Promise<boolean> {
    const { store, clock, config, log } = this.#services;
    const size = this.#apiActive() ? ROUND_SIZE_API_ACTIVE : ROUND_SIZE_API_QUIET;
    const reports = this.#reports.splice(0, size);
    const slots = this.#stopped ? 0 : Math.min(this.#options.maxInFlight - this.#sending, size);
    const committed = this.#committed;
    this.#committed = null;
    // The outbox state decides whether a write is needed at all: every commit starts a round,
    // and a write that found nothing would itself commit and start another.
    let fanOut = false;
    let claim = false;
    if (slots > 0) {
      const state = this.#eventsWaiting && reports.length > 0
        ? null
        : committed ?? await readOutboxState(store.db, clock.now());
      fanOut = this.#eventsWaiting ||
        (state !== null && state.latest > Math.max(this.#fannedOutTo, state.floor ?? state.latest));
      // With results to record the write happens anyway; looking for due deliveries in it costs
      // a query, so a busy queue does it every so often, and at once when something is known
      // to be due.
      claim = reports.length > 0
        ? this.#dueHint || performance.now() >= this.#dueCheckAt
        : state !== null &&
          state.dueEndpointIds.some((endpointId) => this.#capacityOf(endpointId) > 0);
    }
    if (reports.length === 0 && !fanOut && !claim) return false;
    // NOTE: plans live in the accounts database, which the CLI changes from another process:
    // read them in every round that may start attempts, so a downgrade takes effect at once.
    const paused = new Set(
      fanOut || claim ? await listOrganisationIdsOnPlan(this.#services.accounts.db, "FREE") : [],
    );
    if (claim) {
      this.#dueHint = false;
      this.#dueCheckAt = performance.now() + DUE_CHECK_EVERY_MS;
    }

    const schedule = config.webhookRetryScheduleMs;
    let round;
    try {
      round = await this.#write(reports, { claim, fanOut, slots, paused });
    } catch (error) {
      if (this.#stopped) {
        // Their leases run out, and another process (or the next start) retries them.
        for (const report of reports) this.#unlease(report.claim);
      } else {
        this.#reports.unshift(...reports);
      }
      throw error;
    }
    for (const report of reports) this.#unlease(report.claim);
    for (const { endpointId, reason, message } of round.recorded.disabled) {
      log.warn("webhook endpoint disabled", { endpointId, reason, message });
    }
    if (round.recorded.stale > 0) {
      log.info("late webhook attempt results", { count: round.recorded.stale });
    }
    const started = [...round.claimed, ...round.fannedOut?.claimed ?? []];
    // More may be due: the claim used the whole budget, fan-out left deliveries waiting for
    // room, or a retry is due at once.
    if (
      round.claimed.length >= slots ||
      (schedule[0] === 0 && round.fannedOut !== null &&
        round.fannedOut.deliveries > round.fannedOut.claimed.length) ||
      (round.recorded.nextRetryAt !== null && round.recorded.nextRetryAt <= round.now)
    ) {
      this.#dueHint = true;
    }
    for (const attempt of started) this.#launch(attempt);
    if (round.fannedOut) {
      this.#fannedOutTo = round.fannedOut.lastEventId;
      this.#eventsWaiting = round.fannedOut.moreWaiting;
    }
    if (round.recorded.nextRetryAt !== null) this.#wake(round.recorded.nextRetryAt);
    if ((round.fannedOut?.deliveries ?? 0) > 0 && schedule[0] > 0) {
      this.#wake(round.now + schedule[0]);
    }
    // Last: a failure here must not record the round's results twice.
    await disableEndpoints(store, round.recorded.disabled, round.now);
    return reports.length > 0 || started.length > 0 || (round.fannedOut?.events ?? 0) > 0 ||
      this.#reports.length > 0;
  }

  /**
   * A round's write: reads plan it, then one write declared up front gives back abandoned
   * leases, records results, leases due deliveries (older work first) and fans out new events
   * into the room left. On a libSQL server that is one round trip, with no lock held between
   * statements; the plans' guards make a statement whose rows moved on meanwhile change nothing.
   */
  async #write(
    reports: AttemptReport[],
    plan: { claim: boolean; fanOut: boolean; slots: number; paused: ReadonlySet<number> },
  ) {
    const { store, clock } = this.#services;
    const schedule = this.#services.config.webhookRetryScheduleMs;
    const leaseMs = this.#options.leaseMs;
    const now = clock.now();
    const abandoned = reports.filter((report) => report.outcome.kind === "aborted");
    const releasing = releaseLeasesStatements(
      abandoned.map(({ claim }) => ({ id: claim.deliveryId, attempt: claim.attempt })),
      now,
    );
    const budget = this.#budget(plan.slots);
    // NOTE: the reads that do not wait for one another are asked for together: on a libSQL
    // server they go in one request (RemoteReader).
    const [recording, due, position] = await Promise.all([
      planRecording(
        store.db,
        reports.filter((report) => report.outcome.kind !== "aborted"),
        { now, schedule, random: this.#options.random },
      ),
      plan.claim && budget.remaining() > 0 ? findEndpointRowsWithDueDeliveries(store.db, now) : [],
      plan.fanOut ? readFanoutPosition(store.db) : undefined,
    ]);
    const claiming = plan.claim
      ? await planClaims(store.db, {
        due,
        now,
        leaseMs,
        budget,
        runningAttemptOf: (deliveryId) => this.#leased.get(deliveryId)?.attempt,
        maxAttempts: schedule.length,
        rotation: this.#rotation++,
        paused: plan.paused,
        skip: recording.disabling,
      })
      : null;
    const fanning = plan.fanOut && budget.remaining() > 0
      ? await planFanOut(store.db, {
        now,
        position,
        firstAttemptDelayMs: schedule[0],
        limit: budget.remaining(),
        leaseMs,
        budget,
        paused: plan.paused,
        skip: recording.disabling,
      })
      : null;
    const [, recorded, claimed, fannedOut] = await writePlanned(
      store,
      { statements: releasing, result: () => null },
      recording,
      claiming ?? { statements: [], result: () => [] },
      fanning ?? { statements: [], result: () => null },
    );
    return { recorded, claimed, fannedOut, now };
  }

  /** The attempts one round may start: within both limits, less what the round already took. */
  #budget(slots: number): AttemptBudget {
    let remaining = slots;
    const taken = new Map<number, number>();
    return {
      remaining: () => remaining,
      capacityOf: (endpointId) =>
        Math.min(remaining, this.#capacityOf(endpointId) - (taken.get(endpointId) ?? 0)),
      take: (endpointId) => {
        remaining--;
        taken.set(endpointId, (taken.get(endpointId) ?? 0) + 1);
      },
    };
  }

  #apiActive(): boolean {
    return performance.now() - this.#lastRequestAt < API_ACTIVE_MS;
  }

  #capacityOf(endpointId: number): number {
    const sending = this.#sendingPerEndpoint.get(endpointId) ?? 0;
    return Math.min(
      this.#options.maxInFlightPerEndpoint - sending,
      this.#options.maxInFlight - this.#sending,
    );
  }

  #launch(claim: ClaimedAttempt): void {
    this.#leased.set(claim.deliveryId, claim);
    this.#leasedCount++;
    this.#leaseTimer ??= setInterval(() => this.#renewLeases(), this.#options.leaseMs / 4);
    this.#sending++;
    this.#sendingPerEndpoint.set(
      claim.endpointId,
      (this.#sendingPerEndpoint.get(claim.endpointId) ?? 0) + 1,
    );
    const task: Promise<void> = this.#attempt(claim).finally(() => this.#attempts.delete(task));
    this.#attempts.add(task);
  }

  async #attempt(claim: ClaimedAttempt): Promise<void> {
    const { clock } = this.#services;
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
      checkHost: this.#checkHost,
      stop: this.#stopSignal.signal,
      timeoutMs: this.#options.attemptTimeoutMs,
      now: startedAt,
    });
    // NOTE: the slot is free once the request is over; the lease stays held (and renewed)
    // until the result commits, so no one else can claim the delivery meanwhile.
    this.#sending--;
    const sending = (this.#sendingPerEndpoint.get(claim.endpointId) ?? 1) - 1;
    if (sending > 0) this.#sendingPerEndpoint.set(claim.endpointId, sending);
    else this.#sendingPerEndpoint.delete(claim.endpointId);
    this.#reports.push({ claim, startedAt, outcome });
    this.kick();
  }

  #unlease(claim: ClaimedAttempt): void {
    if (this.#leased.get(claim.deliveryId) === claim) this.#leased.delete(claim.deliveryId);
    this.#leasedCount--;
    if (this.#leasedCount === 0) this.#clearLeaseTimer();
  }

  #renewLeases(): void {
    const claims = [...this.#leased.values()]
      .map((claim) => ({ id: claim.deliveryId, attempt: claim.attempt }));
    if (claims.length === 0 || this.#stopped) return;
    const { store, clock, log } = this.#services;
    store.writeStatements(extendLeasesStatements(claims, clock.now() + this.#options.leaseMs))
      .catch((error) => {
        if (!isStorageUnavailable(error)) {
          log.warn("renewing webhook leases failed", errorFields(error));
        }
      });
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
