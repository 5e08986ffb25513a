import type { Kysely } from "kysely";
import type { EnvironmentSchema, NewWebhookAttempt } from "../../../db/schema.ts";
import {
  type AttemptClaim,
  type DueDelivery,
  extendLeases,
  findDueDeliveries,
  findEndpointRowsWithDueDeliveries,
  finishDeliveries,
  insertWebhookAttempts,
  leaseDeliveries,
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
export interface ClaimInput {
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
}

const EXPIRED_LEASE_MESSAGE = "No result was recorded: the process making this attempt stopped " +
  "before it finished, so the receiver may or may not have got it.";

function maxAttemptsOf(trigger: string, scheduleLength: number): number {
  return trigger === "TEST" ? 1 : scheduleLength;
}

/**
 * Leases due deliveries (retries, resends, tests, deliveries that waited for room, attempts
 * whose process died) for their next attempt, in the caller's write transaction.
 *
 * NOTE: claiming is a write, and SQLite runs one write transaction at a time across every
 * process on the database, so two processes never lease the same attempt. A lease ends at
 * `now + leaseMs` (stored as the delivery's `next_attempt_at`), and the holder renews it while the
 * attempt runs; if the holder dies, the delivery simply becomes due again and the next claim
 * records the lost attempt and makes a new one.
 *
 * Endpoints are served a fair share each, within the process's per-endpoint limit, so a slow
 * receiver with a large backlog cannot hold every slot.
 */
export async function claimDueAttempts(
  trx: Kysely<EnvironmentSchema>,
  input: ClaimInput,
): Promise<ClaimedAttempt[]> {
  const { now, budget } = input;
  if (budget.remaining() <= 0) return [];
  const due = await findEndpointRowsWithDueDeliveries(trx, now);
  if (due.length === 0) return [];
  const start = input.rotation % due.length;
  const order = [...due.slice(start), ...due.slice(0, start)];
  const share = Math.ceil(budget.remaining() / order.length);
  const lease: DueDelivery[] = [];
  const fail: number[] = [];
  const cancel: number[] = [];
  const lostAttempts: NewWebhookAttempt[] = [];
  const renew: AttemptClaim[] = [];
  const claimed: ClaimedAttempt[] = [];

  for (const endpoint of order) {
    const endpointId = endpoint.id;
    const take = Math.min(budget.capacityOf(endpointId), share);
    if (take <= 0) continue;
    for (const delivery of await findDueDeliveries(trx, endpointId, now, take)) {
      if (input.runningAttemptOf(delivery.id) === delivery.attempt_count) {
        // This process's own attempt, its lease renewal late: renew it here instead.
        renew.push({ id: delivery.id, attempt: delivery.attempt_count });
        continue;
      }
      // NOTE: a downgrade to FREE cancels what was queued rather than keeping it for an
      // upgrade: one rule for the whole FREE window, which recover then sends again in full.
      const disabled = endpoint.deleted_at !== null ||
        (input.paused ?? NONE).has(endpoint.org_id) ||
        (endpoint.enabled === 0 && delivery.triggered_by !== "TEST");
      if (disabled) {
        cancel.push(delivery.id);
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
        fail.push(delivery.id);
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
  await insertWebhookAttempts(trx, lostAttempts, "keep");
  await finishDeliveries(trx, fail, "FAILED", now);
  await finishDeliveries(trx, cancel, "CANCELED", now);
  await leaseDeliveries(trx, lease.map((delivery) => delivery.id), now, now + input.leaseMs);
  await extendLeases(trx, renew, now + input.leaseMs);
  return claimed;
}
