import { listWebhookAttempts } from "../../db/webhook_deliveries.ts";
import {
  findEndpointDelivery,
  listEndpointDeliveries as listEndpointDeliveryRows,
} from "../../db/webhook_delivery_log.ts";
import type { OrgContext } from "../context.ts";
import type { EventType } from "../events.ts";
import { pageAfter } from "../pagination.ts";
import type { ListQuery, Page } from "../schemas.ts";
import { toWebhookDelivery } from "./deliveries.ts";
import { getWebhookEndpoint } from "./endpoints.ts";
import type { WebhookDelivery } from "./schemas.ts";

/** A delivery in an endpoint's log: the API's form plus the type of its event. */
export type LoggedWebhookDelivery = WebhookDelivery & { eventType: EventType };

/**
 * An endpoint's delivery log, newest first: every delivery (fan-out, resend, test) with each of
 * its attempts, as the panel's Developers -> Webhooks shows it.
 */
export async function listEndpointDeliveries(
  ctx: OrgContext,
  endpointId: string,
  query: ListQuery,
): Promise<Page<LoggedWebhookDelivery>> {
  const endpoint = await getWebhookEndpoint(ctx, endpointId);
  const page = await pageAfter(
    query,
    (deliveryId) => findEndpointDelivery(ctx.db, endpoint.id, deliveryId),
    (beforeId, limit) => listEndpointDeliveryRows(ctx.db, endpoint.id, { beforeId, limit }),
  );
  const attempts = await listWebhookAttempts(ctx.db, page.data.map((row) => row.id));
  const byDelivery = Map.groupBy(attempts, (attempt) => attempt.delivery_id);
  return {
    data: page.data.map((row) => ({
      ...toWebhookDelivery(row, byDelivery.get(row.id) ?? []),
      eventType: row.event_type as EventType,
    })),
    hasMore: page.hasMore,
  };
}
