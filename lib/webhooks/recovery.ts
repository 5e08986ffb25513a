import { z } from "zod";
import { insertWebhookDeliveries } from "../../db/webhook_deliveries.ts";
import { findWebhookEndpoint } from "../../db/webhook_endpoints.ts";
import {
  countPendingRecoveryDeliveries,
  findWebhookRecovery,
  insertWebhookRecovery,
  latestRedeliveryAt,
  listEventIdsInWindow,
} from "../../db/webhook_recoveries.ts";
import type { WebhookRecoveryRow } from "../../db/schema.ts";
import { toIso } from "../clock.ts";
import type { OrgContext } from "../context.ts";
import { ApiError, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { Timestamp } from "../schemas.ts";
import { newDeliveryRow } from "./delivery/new_delivery.ts";
import { SUBSCRIBABLE_EVENT_TYPES, subscribes } from "./subscriptions.ts";

/**
 * The most events one recovery may queue, and the most deliveries an endpoint's recoveries may
 * have pending at once; a larger window is split by the caller.
 */
const MAX_RECOVERY_EVENTS = 10_000;
/** How long after a recovery that re-sent delivered events the endpoint may ask for another. */
const REDELIVERY_INTERVAL_MS = 60 * 60 * 1000;

export const RecoverEventsRequest = z.strictObject({
  since: Timestamp.meta({ description: "Events created at or after this time." }),
  until: Timestamp.optional().meta({
    description: "Events created before this time; default now. Not in the future.",
  }),
  includeDelivered: z.boolean().optional().meta({
    description: "Also queue events this endpoint already received (a 2xx). Default false: " +
      "only events it never got. One such recovery per endpoint an hour.",
  }),
}).meta({ id: "RecoverEventsRequest" });
export type RecoverEventsRequest = z.infer<typeof RecoverEventsRequest>;

export const WebhookRecovery = z.strictObject({
  id: z.string().meta({ example: "wrc_4f9TqYcW2mJx8bN3kL6pR1sV" }),
  endpointId: z.string(),
  since: Timestamp,
  until: Timestamp,
  includeDelivered: z.boolean(),
  queued: z.int().min(0).meta({
    description: "Deliveries this recovery queued (events already on their way to the " +
      "endpoint are not queued twice, nor, unless includeDelivered, events it received).",
  }),
  createdAt: Timestamp,
}).meta({
  id: "WebhookRecovery",
  description: "Events of a time window queued again for one endpoint; their deliveries show " +
    "trigger RECOVERY. Asking again for the same window (and includeDelivered) returns this " +
    "recovery unchanged.",
});
export type WebhookRecovery = z.infer<typeof WebhookRecovery>;

/** The API form of a recovery. */
function toWebhookRecovery(row: WebhookRecoveryRow, endpointId: string): WebhookRecovery {
  return {
    id: row.public_id,
    endpointId,
    since: toIso(row.since),
    until: toIso(row.until),
    includeDelivered: row.include_delivered === 1,
    queued: row.queued,
    createdAt: toIso(row.created_at),
  };
}

/**
 * Queues again, for one enabled endpoint, every event of the types it subscribes to created in
 * `[since, until)` that it has not received. Once per window: the same window again returns the
 * first recovery (`created: false`) and queues nothing. An event still pending for the endpoint
 * is left to its delivery. Events it received are queued only with `includeDelivered`, once an
 * hour per endpoint. The receiver sees each event's own `webhook-id`, so its dedupe holds.
 */
export function recoverEvents(
  ctx: OrgContext,
  endpointId: string,
  input: RecoverEventsRequest,
): Promise<{ recovery: WebhookRecovery; created: boolean }> {
  const now = ctx.now();
  const since = Date.parse(input.since);
  const until = input.until === undefined ? now : Date.parse(input.until);
  if (until > now) {
    throw new ApiError(
      "parameter_invalid",
      "until is in the future; events after now do not " +
        "exist yet.",
      { param: "until" },
    );
  }
  if (since >= until) {
    throw new ApiError("parameter_invalid", "since must be before until.", { param: "since" });
  }
  return ctx.write(async (trx) => {
    const endpoint = await findWebhookEndpoint(trx, ctx.orgId, endpointId);
    if (!endpoint) throw notFound("webhook endpoint", endpointId, "id");
    if (endpoint.enabled === 0) {
      throw new ApiError(
        "webhook_endpoint_disabled",
        `The webhook endpoint '${endpoint.public_id}' is disabled; enable it first.`,
      );
    }
    const includeDelivered = input.includeDelivered ?? false;
    const existing = await findWebhookRecovery(trx, endpoint.id, {
      since,
      until,
      includeDelivered,
    });
    if (existing) {
      return { recovery: toWebhookRecovery(existing, endpoint.public_id), created: false };
    }
    // Deliveries are scheduled, and re-sending limited, on real time, whatever the
    // organisation's sandbox clock says.
    const at = ctx.services.clock.now();
    if (includeDelivered) await checkRedeliveryAllowed(trx, endpoint.id, at);
    const patterns: string[] = JSON.parse(endpoint.event_types);
    // NOTE: events the endpoint received are skipped by default, so however the windows
    // overlap, asking again never sends an event twice.
    const due = await listEventIdsInWindow(trx, ctx.orgId, {
      since,
      until,
      types: SUBSCRIBABLE_EVENT_TYPES.filter((type) => subscribes(patterns, type)),
      limit: MAX_RECOVERY_EVENTS + 1,
      endpointId: endpoint.id,
      skipStatuses: includeDelivered ? ["PENDING"] : ["PENDING", "SUCCEEDED"],
    });
    if (due.length > MAX_RECOVERY_EVENTS) {
      throw new ApiError(
        "recovery_window_too_large",
        `The window holds more than ${MAX_RECOVERY_EVENTS} events to queue for this endpoint; ` +
          "recover it in shorter windows.",
        { param: "since" },
      );
    }
    const pending = await countPendingRecoveryDeliveries(trx, endpoint.id);
    if (pending + due.length > MAX_RECOVERY_EVENTS) {
      throw new ApiError(
        "recovery_rate_limited",
        `This endpoint has ${pending} recovered events still to deliver, and this window would ` +
          `queue ${due.length} more, over ${MAX_RECOVERY_EVENTS}; retry once they are delivered.`,
        { headers: { "Retry-After": "60" } },
      );
    }
    const recovery = await insertWebhookRecovery(trx, {
      public_id: newId("webhookRecovery"),
      org_id: ctx.orgId,
      endpoint_id: endpoint.id,
      since,
      until,
      queued: due.length,
      created_at: now,
      include_delivered: includeDelivered ? 1 : 0,
      requested_at: at,
    });
    await insertWebhookDeliveries(
      trx,
      due.map((eventId) =>
        newDeliveryRow({
          orgId: ctx.orgId,
          eventId,
          endpointId: endpoint.id,
          trigger: "RESEND",
          recoveryId: recovery.id,
          now: at,
        })
      ),
    );
    return { recovery: toWebhookRecovery(recovery, endpoint.public_id), created: true };
  });
}

/** Throws 429 when the endpoint re-sent delivered events less than an hour before `at`. */
async function checkRedeliveryAllowed(
  db: Parameters<typeof latestRedeliveryAt>[0],
  endpointId: number,
  at: number,
): Promise<void> {
  const latest = await latestRedeliveryAt(db, endpointId);
  if (latest === null || at - latest >= REDELIVERY_INTERVAL_MS) return;
  const wait = Math.ceil((latest + REDELIVERY_INTERVAL_MS - at) / 1000);
  throw new ApiError(
    "recovery_rate_limited",
    "This endpoint re-sent delivered events less than an hour ago; recover without " +
      `includeDelivered, or retry in ${wait} s.`,
    { param: "includeDelivered", headers: { "Retry-After": String(wait) } },
  );
}
