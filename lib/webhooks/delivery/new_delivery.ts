import type { NewWebhookDelivery } from "../../../db/schema.ts";
import { newId } from "../../ids.ts";
import type { DeliveryTrigger } from "../schemas.ts";

/**
 * The row of a new pending delivery of one event to one endpoint, the one way every trigger
 * (fan-out, resend, test, recovery) makes a delivery. Due at `dueAt`, or, with `leasedUntil`,
 * already leased for its first attempt until then.
 */
export function newDeliveryRow(input: {
  orgId: number;
  eventId: number;
  endpointId: number;
  trigger: DeliveryTrigger;
  now: number;
  dueAt?: number;
  leasedUntil?: number;
  recoveryId?: number;
}): NewWebhookDelivery {
  const leased = input.leasedUntil !== undefined;
  return {
    public_id: newId("webhookDelivery"),
    org_id: input.orgId,
    event_id: input.eventId,
    endpoint_id: input.endpointId,
    triggered_by: input.trigger,
    ...(input.recoveryId !== undefined && { recovery_id: input.recoveryId }),
    status: "PENDING",
    attempt_count: leased ? 1 : 0,
    in_flight: leased ? 1 : 0,
    next_attempt_at: input.leasedUntil ?? input.dueAt ?? input.now,
    created_at: input.now,
    updated_at: input.now,
    completed_at: null,
  };
}
