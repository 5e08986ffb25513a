import type { Kysely } from "kysely";
import { findEvent } from "../../db/events.ts";
import type { EnvironmentSchema, WebhookAttemptRow } from "../../db/schema.ts";
import {
  bringDeliveryForward,
  findPendingDelivery,
  findWebhookDeliveriesByIds,
  findWebhookDelivery,
  insertWebhookDelivery,
  listWebhookAttempts,
  listWebhookDeliveries,
  type WebhookDeliveryRecord,
} from "../../db/webhook_deliveries.ts";
import { findEnabledEndpoints, findWebhookEndpoint } from "../../db/webhook_endpoints.ts";
import { toIso, toIsoOrNull } from "../clock.ts";
import type { OrgContext } from "../context.ts";
import { ApiError, notFound } from "../errors.ts";
import { pageAfter } from "../pagination.ts";
import type { ListQuery, Page } from "../schemas.ts";
import type {
  DeliveryStatus,
  DeliveryTrigger,
  ResendEventRequest,
  WebhookDelivery,
} from "./schemas.ts";
import type { AttemptErrorCode } from "./delivery/sender.ts";
import { newDeliveryRow } from "./delivery/new_delivery.ts";
import { subscribes } from "./subscriptions.ts";

function toWebhookAttempt(row: WebhookAttemptRow): WebhookDelivery["attempts"][number] {
  return {
    number: row.number,
    url: row.url,
    startedAt: toIso(row.started_at),
    durationMs: row.duration_ms,
    succeeded: row.succeeded === 1,
    responseStatus: row.response_status,
    responseBody: row.response_body,
    errorCode: row.error_code as AttemptErrorCode | null,
    errorMessage: row.error_message,
  };
}

/** The API form of a delivery with its attempts. */
export function toWebhookDelivery(
  row: WebhookDeliveryRecord,
  attempts: readonly WebhookAttemptRow[],
): WebhookDelivery {
  return {
    id: row.public_id,
    eventId: row.event_public_id,
    endpointId: row.endpoint_public_id,
    // A recovery's deliveries are resends in the table (its CHECK is frozen), marked by recovery_id.
    trigger: row.recovery_id === null ? row.triggered_by as DeliveryTrigger : "RECOVERY",
    status: row.status as DeliveryStatus,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.in_flight === 1 ? null : toIsoOrNull(row.next_attempt_at),
    createdAt: toIso(row.created_at),
    completedAt: toIsoOrNull(row.completed_at),
    attempts: attempts.map(toWebhookAttempt),
  };
}

/** Maps deliveries to their API form, reading all their attempts in one query. */
async function withAttempts(
  db: Kysely<EnvironmentSchema>,
  rows: readonly WebhookDeliveryRecord[],
): Promise<WebhookDelivery[]> {
  const attempts = await listWebhookAttempts(db, rows.map((row) => row.id));
  const byDelivery = Map.groupBy(attempts, (attempt) => attempt.delivery_id);
  return rows.map((row) => toWebhookDelivery(row, byDelivery.get(row.id) ?? []));
}

/** Lists an event's deliveries newest first, each with every attempt. */
export async function listEventDeliveries(
  ctx: OrgContext,
  eventId: string,
  query: ListQuery,
): Promise<Page<WebhookDelivery>> {
  const event = await findEvent(ctx.db, ctx.orgId, eventId);
  if (!event) throw notFound("event", eventId, "id");
  const page = await pageAfter(
    query,
    (deliveryId) => findWebhookDelivery(ctx.db, event.id, deliveryId),
    (beforeId, limit) => listWebhookDeliveries(ctx.db, event.id, { beforeId, limit }),
  );
  return { data: await withAttempts(ctx.db, page.data), hasMore: page.hasMore };
}

/**
 * Sends an event again, to one endpoint or to every enabled endpoint subscribed to its type. An
 * endpoint with a delivery of the event still retrying gets that delivery brought forward (no
 * duplicate); otherwise a new delivery, due now, with the full retry schedule. The receiver sees
 * the same `webhook-id` as before, so its dedupe still holds.
 */
export function resendEvent(
  ctx: OrgContext,
  eventId: string,
  input: ResendEventRequest,
): Promise<WebhookDelivery[]> {
  return ctx.write(async (trx) => {
    const event = await findEvent(trx, ctx.orgId, eventId);
    if (!event) throw notFound("event", eventId, "id");
    let endpoints;
    if (input.endpointId !== undefined) {
      const endpoint = await findWebhookEndpoint(trx, ctx.orgId, input.endpointId);
      if (!endpoint) throw notFound("webhook endpoint", input.endpointId, "endpointId");
      if (endpoint.enabled === 0) {
        throw new ApiError(
          "webhook_endpoint_disabled",
          `The webhook endpoint '${endpoint.public_id}' is disabled; enable it first.`,
          { param: "endpointId" },
        );
      }
      endpoints = [endpoint];
    } else {
      endpoints = (await findEnabledEndpoints(trx, [ctx.orgId]))
        .filter((endpoint) => subscribes(JSON.parse(endpoint.event_types), event.type));
      if (endpoints.length === 0) {
        throw new ApiError(
          "no_webhook_endpoint_subscribed",
          `No enabled webhook endpoint is subscribed to ${event.type}; pass endpointId to ` +
            "resend to a particular one.",
        );
      }
    }
    // Deliveries are scheduled on real time, whatever the organisation's sandbox clock says.
    const now = ctx.services.clock.now();
    const ids: number[] = [];
    for (const endpoint of endpoints) {
      const pending = await findPendingDelivery(trx, event.id, endpoint.id);
      if (pending) {
        await bringDeliveryForward(trx, pending.id, now);
        ids.push(pending.id);
        continue;
      }
      const created = await insertWebhookDelivery(
        trx,
        newDeliveryRow({
          orgId: ctx.orgId,
          eventId: event.id,
          endpointId: endpoint.id,
          trigger: "RESEND",
          now,
        }),
      );
      ids.push(created.id);
    }
    return withAttempts(trx, await findWebhookDeliveriesByIds(trx, ids));
  });
}
