import type { Kysely } from "kysely";
import type { PlannedWrite } from "../../../db/planned_write.ts";
import type { EnvironmentSchema, NewWebhookDelivery } from "../../../db/schema.ts";
import { insertFannedOutDeliveriesStatements } from "../../../db/webhook_deliveries.ts";
import { findEnabledEndpoints } from "../../../db/webhook_endpoints.ts";
import {
  type FanoutPosition,
  listEventsAfter,
  moveFanoutCursorStatement,
  readFanoutPosition,
} from "../../../db/webhook_fanout.ts";
import { signingSecrets } from "../endpoints.ts";
import { subscribes } from "../subscriptions.ts";
import type { AttemptBudget, ClaimedAttempt } from "./claim.ts";
import { newDeliveryRow } from "./new_delivery.ts";

const NONE: ReadonlySet<number> = new Set();

/** What fanning out one batch of events did. */
interface FanOutResult {
  /** The cursor after the batch: every event up to this id has its deliveries. */
  lastEventId: number;
  events: number;
  deliveries: number;
  /** Deliveries leased as they were made, for an attempt right away. */
  claimed: ClaimedAttempt[];
  /** More events may wait: the batch was full, or another process moved the cursor first. */
  moreWaiting: boolean;
}

/**
 * Plans turning events recorded since the cursor into one delivery per subscribed endpoint, and
 * moving the cursor: reads now, one write later (see PlannedWrite). The API's own transaction
 * only writes its event (the outbox row); this runs after its commit, so fan-out costs the API
 * nothing. The deliveries are written only while the cursor still reads what it read here, and
 * cursor and deliveries commit together, so no event is fanned out twice or skipped, whichever
 * process gets there first. Events of a `paused` organisation (FREE) get no delivery: they stay
 * in the event log, where the organisation can recover them after an upgrade; nor do endpoints
 * in `skip` (about to be disabled).
 *
 * A delivery due at once to an endpoint with room in `budget` is made already leased: a fresh
 * event reaches its receivers with one write, and a delivery needs no separate claim. The
 * caller sizes `limit` to its free slots, so a backlog waits as events (the outbox is the
 * queue) rather than being copied into deliveries far ahead of sending.
 */
export async function planFanOut(
  db: Kysely<EnvironmentSchema>,
  input: {
    now: number;
    firstAttemptDelayMs: number;
    limit: number;
    leaseMs: number;
    budget: AttemptBudget;
    /** Organisations whose events are not delivered (FREE); none when omitted. */
    paused?: ReadonlySet<number>;
    skip?: ReadonlySet<number>;
    /** Where fan-out stands, if the caller read it beside its other reads; read here if not. */
    position?: FanoutPosition;
  },
): Promise<PlannedWrite<FanOutResult>> {
  const { now, budget } = input;
  const { cursor, latest, floor } = input.position ?? await readFanoutPosition(db);
  // Events no endpoint can receive are passed over in one step, not fanned out batch by batch.
  const from = Math.max(cursor, floor ?? latest);
  const events = await listEventsAfter(db, from, input.limit);
  const lastEventId = events.at(-1)?.id ?? from;
  const moved = (applied: boolean, result: Omit<FanOutResult, "moreWaiting" | "lastEventId">) =>
    applied
      ? { ...result, lastEventId, moreWaiting: events.length === input.limit }
      : { lastEventId: cursor, events: 0, deliveries: 0, claimed: [], moreWaiting: true };
  if (events.length === 0 && from === cursor) {
    return { statements: [], result: () => moved(true, { events: 0, deliveries: 0, claimed: [] }) };
  }
  const orgIds = new Set(events.map((event) => event.org_id)).difference(input.paused ?? NONE);
  const endpoints = (await findEnabledEndpoints(db, [...orgIds]))
    .filter((endpoint) => !(input.skip ?? NONE).has(endpoint.id));
  const byOrg = Map.groupBy(
    endpoints.map((endpoint) => ({ ...endpoint, patterns: JSON.parse(endpoint.event_types) })),
    (endpoint) => endpoint.org_id,
  );
  const rows: NewWebhookDelivery[] = [];
  const leased = new Map<string, ClaimedAttempt>();
  for (const event of events) {
    for (const endpoint of byOrg.get(event.org_id) ?? []) {
      if (event.id <= endpoint.events_after_id || !subscribes(endpoint.patterns, event.type)) {
        continue;
      }
      const lease = input.firstAttemptDelayMs === 0 && budget.capacityOf(endpoint.id) > 0;
      if (lease) {
        budget.take(endpoint.id);
        leased.set(`${event.id}:${endpoint.id}`, {
          deliveryId: 0,
          attempt: 1,
          orgId: event.org_id,
          endpointId: endpoint.id,
          trigger: "EVENT",
          eventId: event.public_id,
          payload: event.payload,
          url: endpoint.url,
          secrets: signingSecrets(endpoint, now),
        });
      }
      rows.push(newDeliveryRow({
        orgId: event.org_id,
        eventId: event.id,
        endpointId: endpoint.id,
        trigger: "EVENT",
        now,
        dueAt: now + input.firstAttemptDelayMs,
        ...(lease && { leasedUntil: now + input.leaseMs }),
      }));
    }
  }
  return {
    statements: [
      ...insertFannedOutDeliveriesStatements(rows, cursor),
      moveFanoutCursorStatement(cursor, lastEventId),
    ],
    result: (results) => {
      const claimed: ClaimedAttempt[] = [];
      for (const inserted of results.slice(0, -1).flatMap((result) => result.rows)) {
        const attempt = leased.get(`${inserted.event_id}:${inserted.endpoint_id}`);
        if (attempt) claimed.push({ ...attempt, deliveryId: Number(inserted.id) });
      }
      return moved(results.at(-1)!.rowsAffected === 1, {
        events: events.length,
        deliveries: rows.length,
        claimed,
      });
    },
  };
}
