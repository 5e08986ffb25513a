import type { WebhookEndpointRow } from "../../db/schema.ts";
import type { OrgContext } from "../context.ts";
import { ApiError } from "../errors.ts";
import { listEndpointDeliveries, type LoggedWebhookDelivery } from "../webhooks/delivery_log.ts";
import { getWebhookEndpoint, toWebhookEndpoint } from "../webhooks/endpoints.ts";
import { RecoverEventsRequest } from "../webhooks/recovery.ts";
import {
  CreateWebhookEndpointRequest,
  UpdateWebhookEndpointRequest,
  type WebhookEndpoint,
} from "../webhooks/schemas.ts";
import { parseRequest } from "./forms.ts";

/** Deliveries on one page of an endpoint's log. */
const LOG_PAGE_SIZE = 20;

/** One page of an endpoint's delivery log, newest first, and the cursor of the older ones. */
interface DeliveryLogPage {
  deliveries: LoggedWebhookDelivery[];
  olderCursor: string | null;
}

/** What an endpoint's page shows: the endpoint, its API form and a page of its log. */
export interface WebhookEndpointView {
  endpoint: WebhookEndpointRow;
  resource: WebhookEndpoint;
  log: DeliveryLogPage;
}

/** A page of an endpoint's delivery log, from `startingAfter` or the newest. */
export async function loadDeliveryLog(
  ctx: OrgContext,
  endpointId: string,
  startingAfter?: string,
): Promise<DeliveryLogPage> {
  const page = await listEndpointDeliveries(ctx, endpointId, {
    limit: LOG_PAGE_SIZE,
    startingAfter,
  });
  return {
    deliveries: page.data,
    olderCursor: page.hasMore ? page.data.at(-1)!.id : null,
  };
}

/** An endpoint with a page of its delivery log. */
export async function loadWebhookEndpointView(
  ctx: OrgContext,
  endpointId: string,
  startingAfter?: string,
): Promise<WebhookEndpointView> {
  const endpoint = await getWebhookEndpoint(ctx, endpointId);
  return {
    endpoint,
    resource: toWebhookEndpoint(endpoint),
    log: await loadDeliveryLog(ctx, endpoint.public_id, startingAfter),
  };
}

/** The endpoint form as typed: `scope` "all" or "some", and the ticked events. */
export interface EndpointFormInput {
  url: string;
  description: string;
  scope: string;
  events: string[];
}

function eventsOf(input: EndpointFormInput): string[] {
  if (input.scope !== "some") {
    // NOTE: "All events" with boxes ticked is two answers; saving either would surprise someone.
    if (input.events.length > 0) {
      throw new ApiError(
        "parameter_invalid",
        "You chose All events and ticked some events: choose Only the events ticked below to " +
          "get just those, or untick them to get all events.",
        { param: "events" },
      );
    }
    return ["*"];
  }
  if (input.events.length === 0) {
    throw new ApiError("parameter_invalid", "Tick at least one event, or choose all events.", {
      param: "events",
    });
  }
  return input.events;
}

/** The API request the endpoint form makes to add an endpoint; 400 naming the field. */
export function endpointCreateRequestOf(input: EndpointFormInput): CreateWebhookEndpointRequest {
  const description = input.description.trim();
  return parseRequest(CreateWebhookEndpointRequest, {
    url: input.url.trim(),
    events: eventsOf(input),
    ...(description !== "" && { description }),
  });
}

/** The API request the endpoint form makes to change an endpoint; 400 naming the field. */
export function endpointUpdateRequestOf(input: EndpointFormInput): UpdateWebhookEndpointRequest {
  const description = input.description.trim();
  return parseRequest(UpdateWebhookEndpointRequest, {
    url: input.url.trim(),
    events: eventsOf(input),
    description: description === "" ? null : description,
  });
}

/** The API request of the recover form; an empty `until` means now. */
export function recoverRequestOf(since: string, until: string): RecoverEventsRequest {
  return parseRequest(RecoverEventsRequest, { since, ...(until !== "" && { until }) });
}
