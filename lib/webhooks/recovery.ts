import { z } from "zod";
import { insertWebhookDeliveries } from "../../db/webhook_deliveries.ts";
import { findWebhookEndpoint } from "../../db/webhook_endpoints.ts";
import {
  findWebhookRecovery,
  insertWebhookRecovery,
  listEventIdsInWindow,
  listPendingEventIds,
} from "../../db/webhook_recoveries.ts";
import type { WebhookRecoveryRow } from "../../db/schema.ts";
import { toIso } from "../clock.ts";
import type { OrgContext } from "../context.ts";
import { ApiError, notFound } from "../errors.ts";
import { newId } from "../ids.ts";
import { Timestamp } from "../schemas.ts";
import { newDeliveryRow } from "./delivery/new_delivery.ts";
import { SUBSCRIBABLE_EVENT_TYPES, subscribes } from "./subscriptions.ts";

/** The most events one recovery may queue; a larger window is split by the caller. */
export const MAX_RECOVERY_EVENTS = 10_000;

export const RecoverEventsRequest = z.strictObject({
  since: Timestamp.meta({ description: "Events created at or after this time." }),
  until: Timestamp.optional().meta({
    description: "Events created before this time; default now. Not in the future.",
  }),
}).meta({ id: "RecoverEventsRequest" });
export type RecoverEventsRequest = z.infer<typeof RecoverEventsRequest>;

export const WebhookRecovery = z.strictObject({
  id: z.string().meta({ example: "wrc_4f9TqYcW2mJx8bN3kL6pR1sV" }),
  endpointId: z.string(),
  since: Timestamp,
  until: Timestamp,
  queued: z.int().min(0).meta({
    description: "Deliveries this recovery queued (events already on their way to the " +
      "endpoint are not queued twice).",
  }),
  createdAt: Timestamp,
}).meta({
  id: "WebhookRecovery",
  description: "Events of a time window queued again for one endpoint; their deliveries show " +
    "trigger RECOVERY. Asking again for the same window returns this recovery unchanged.",
});
export type WebhookRecovery = z.infer<typeof WebhookRecovery>;

/** The API form of a recovery. */
export function toWebhookRecovery(row: WebhookRecoveryRow, endpointId: string): WebhookRecovery {
  return {
    id: row.public_id,
    endpointId,
    since: toIso(row.since),
    until: toIso(row.until),
    queued: row.queued,
    createdAt: toIso(row.created_at),
  };
}

/**
 * Queues again, for one enabled endpoint, every event of the types it subscribes to created in
 * `[since, until)`. Once per window: the same window again returns the first recovery
 * (`created: false`) and queues nothing. An event still pending for the endpoint is left to
 * its delivery. The receiver sees each event's own `webhook-id`, so its dedupe holds.
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
    const existing = await findWebhookRecovery(trx, endpoint.id, since, until);
    if (existing) {
      return { recovery: toWebhookRecovery(existing, endpoint.public_id), created: false };
    }
    const patterns: string[] = JSON.parse(endpoint.event_types);
    const eventIds = await listEventIdsInWindow(trx, ctx.orgId, {
      since,
      until,
      types: SUBSCRIBABLE_EVENT_TYPES.filter((type) => subscribes(patterns, type)),
      limit: MAX_RECOVERY_EVENTS + 1,
    });
    if (eventIds.length > MAX_RECOVERY_EVENTS) {
      throw new ApiError(
        "recovery_window_too_large",
        `The window holds more than ${MAX_RECOVERY_EVENTS} events for this endpoint; recover ` +
          "it in shorter windows.",
        { param: "since" },
      );
    }
    const pending = await listPendingEventIds(trx, endpoint.id);
    const due = eventIds.filter((id) => !pending.has(id));
    const recovery = await insertWebhookRecovery(trx, {
      public_id: newId("webhookRecovery"),
      org_id: ctx.orgId,
      endpoint_id: endpoint.id,
      since,
      until,
      queued: due.length,
      created_at: now,
    });
    // Deliveries are scheduled on real time, whatever the organisation's sandbox clock says.
    const at = ctx.services.clock.now();
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
