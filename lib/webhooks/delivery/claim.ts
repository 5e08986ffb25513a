import type { Kysely } from "kysely";
import { type PlannedWrite, returnedIds } from "../../../db/planned_write.ts";
import type {
  EnvironmentSchema,
  NewWebhookAttempt,
  WebhookEndpointRow,
} from "../../../db/schema.ts";
import {
  type AttemptClaim,
  type DueDelivery,
  extendLeasesStatements,
  findDueDeliveries,
  findEndpointRowsWithDueDeliveries,
  finishDueDeliveriesStatements,
  insertWebhookAttemptsStatements,
  leaseDueDeliveriesStatements,
} from "../../../db/webhook_deliveries.ts";
import { signingSecrets } from "../endpoints.ts";
import type { DeliveryTrigger } from "../schemas.ts";

const NONE: ReadonlySet<number> = new Set();

/** One leased attempt: everything needed to send it and to record its result. */
export interface ClaimedAttempt {
  deliveryId: number;
  /** The attempt number this lease is for; results are fenced on it. */
  attempt: number;
  orgId: number;
  endpointId: number;
  trigger: DeliveryTrigger;
  /** The event's public id: the `webhook-id`, the same on every attempt. */
  eventId: string;
  /** The event's stored JSON, sent byte for byte. */
  payload: string;
  url: string;
  secrets: string[];
}

/** How many more attempts the process can start in this round, in all and per endpoint. */
export interface AttemptBudget {
  remaining(): number;
  capacityOf(endpointId: number): number;
  /** Spends one attempt of the endpoint's share. */
  take(endpointId: number): void;
}

/** What a claim needs to know about the claiming process. */
interface ClaimInput {
  now: number;
  leaseMs: number;
  budget: AttemptBudget;
  /** The attempt number this process is running for a delivery, if it is running one. */
  runningAttemptOf(deliveryId: number): number | undefined;
  /** Attempts a fan-out delivery gets: the retry schedule's length. */
  maxAttempts: number;
  /** Rotates which endpoint is served first, so none is always last. */
  rotation: number;
  /** Organisations whose due deliveries are canceled, not attempted (FREE); none when omitted. */
  paused?: ReadonlySet<number>;
  /** Endpoints about to be disabled: their due deliveries are canceled too. */
  skip?: ReadonlySet<number>;
  /**
   * The endpoints with a delivery due at `now`, if the caller read them beside its other reads
   * (`findEndpointRowsWithDueDeliveries`); read here when absent.
   */
  due?: readonly WebhookEndpointRow[];
}

const EXPIRED_LEASE_MESSAGE = "No result was recorded: the process making this attempt stopped " +
  "before it finished, so the receiver may or may not have got it.";

function maxAttemptsOf(trigger: string, scheduleLength: number): number {
  return trigger === "TEST" ? 1 : scheduleLength;
}

/**
 * Plans leasing due deliveries (retries, resends, tests, deliveries that waited for room,
 * attempts whose process died) for their next attempt: reads now, one write later (see
 * PlannedWrite).
 *
 * NOTE: each lease is written only if the delivery is still pending, due, and at the attempt
 * count read here; a lease moves the count on, so two processes never lease the same attempt.
 * A lease ends at `now + leaseMs` (stored as the delivery's `next_attempt_at`), and the holder
 * renews it while the attempt runs; if the holder dies, the delivery simply becomes due again
 * and the next claim records the lost attempt and makes a new one.
 *
 * Endpoints are served a fair share each, within the process's per-endpoint limit, so a slow
 * receiver with a large backlog cannot hold every slot.
 */
export async function planClaims(
  db: Kysely<EnvironmentSchema>,
  input: ClaimInput,
): Promise<PlannedWrite<ClaimedAttempt[]>> {
  const { now, budget } = input;
  const none: PlannedWrite<ClaimedAttempt[]> = { statements: [], result: () => [] };
  if (budget.remaining() <= 0) return none;
  const due = input.due ?? await findEndpointRowsWithDueDeliveries(db, now);
  if (due.length === 0) return none;
  const start = input.rotation % due.length;
  const order = [...due.slice(start), ...due.slice(0, start)];
  const share = Math.ceil(budget.remaining() / order.length);
  const lease: DueDelivery[] = [];
  const fail: AttemptClaim[] = [];
  const cancel: AttemptClaim[] = [];
  const lostAttempts: NewWebhookAttempt[] = [];
  const renew: AttemptClaim[] = [];
  const claimed: ClaimedAttempt[] = [];

  for (const endpoint of order) {
    const endpointId = endpoint.id;
    const take = Math.min(budget.capacityOf(endpointId), share);
    if (take <= 0) continue;
    for (const delivery of await findDueDeliveries(db, endpointId, now, take)) {
      const read = { id: delivery.id, attempt: delivery.attempt_count };
      if (input.runningAttemptOf(delivery.id) === delivery.attempt_count) {
        // This process's own attempt, its lease renewal late: renew it here instead.
        renew.push(read);
        continue;
      }
      // NOTE: a downgrade to FREE cancels what was queued rather than keeping it for an
      // upgrade: one rule for the whole FREE window, which recover then sends again in full.
      const disabled = endpoint.deleted_at !== null ||
        (input.paused ?? NONE).has(endpoint.org_id) || (input.skip ?? NONE).has(endpointId) ||
        (endpoint.enabled === 0 && delivery.triggered_by !== "TEST");
      if (disabled) {
        cancel.push(read);
        continue;
      }
      if (delivery.in_flight === 1) {
        lostAttempts.push({
          delivery_id: delivery.id,
          number: delivery.attempt_count,
          url: endpoint.url,
          started_at: delivery.leased_at,
          duration_ms: null,
          succeeded: 0,
          response_status: null,
          response_body: null,
          error_code: "lease_expired",
          error_message: EXPIRED_LEASE_MESSAGE,
        });
      }
      if (delivery.attempt_count >= maxAttemptsOf(delivery.triggered_by, input.maxAttempts)) {
        fail.push(read);
        continue;
      }
      lease.push(delivery);
      budget.take(endpointId);
      claimed.push({
        deliveryId: delivery.id,
        attempt: delivery.attempt_count + 1,
        orgId: delivery.org_id,
        endpointId,
        trigger: delivery.triggered_by as DeliveryTrigger,
        eventId: delivery.event_public_id,
        payload: delivery.payload,
        url: endpoint.url,
        secrets: signingSecrets(endpoint, now),
      });
    }
  }
  const leases = leaseDueDeliveriesStatements(
    lease.map((delivery) => ({ id: delivery.id, attempt: delivery.attempt_count })),
    now,
    now + input.leaseMs,
  );
  return {
    // The leases come first, so their results are the first ones.
    statements: [
      ...leases,
      ...insertWebhookAttemptsStatements(lostAttempts, "keep"),
      ...finishDueDeliveriesStatements(fail, "FAILED", now),
      ...finishDueDeliveriesStatements(cancel, "CANCELED", now),
      ...extendLeasesStatements(renew, now + input.leaseMs),
    ],
    result: (results) => {
      const leased = returnedIds(results.slice(0, leases.length));
      return claimed.filter((claim) => leased.has(claim.deliveryId));
    },
  };
}
