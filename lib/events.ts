import type { Kysely } from "kysely";
import { z } from "zod";
import {
  findEvent,
  insertEvent,
  listEvents as listEventRows,
  listEventsAfterRow,
} from "../db/events.ts";
import type { EnvironmentSchema, EventRow } from "../db/schema.ts";
import { toIso } from "./clock.ts";
import { type Environment, ENVIRONMENTS } from "./config.ts";
import type { OrgContext } from "./context.ts";
import { notFound } from "./errors.ts";
import { newId } from "./ids.ts";
import { pageAfter, resolveCursor } from "./pagination.ts";
import { ListQuery, type Page, Timestamp } from "./schemas.ts";

/** Every event type the contract names. */
export const EVENT_TYPES = [
  "payment.created",
  "payment.processing",
  "payment.succeeded",
  "payment.failed",
  "payment.canceled",
  "payment.expired",
  "checkout.session.completed",
  "checkout.session.expired",
  "refund.created",
  "refund.succeeded",
  "refund.failed",
  "subscription.created",
  "subscription.renewed",
  "subscription.past_due",
  "subscription.canceled",
  "webhook.test",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An event as the API returns it and as a webhook delivers it. */
export const Event = z.strictObject({
  id: z.string().meta({ example: "evt_0Vc4WUYC4f9TqYcW2mJx8bN3kL6pR1" }),
  type: z.enum(EVENT_TYPES),
  createdAt: Timestamp,
  environment: z.enum(ENVIRONMENTS),
  data: z.record(z.string(), z.unknown()).meta({
    description: "The object the event is about, exactly as the API returned it at that moment.",
  }),
}).meta({ description: "Something that happened, recorded in the same transaction." });
export type Event = z.infer<typeof Event>;

/** `GET /api/v1/events` query: the list parameters and an optional exact type. */
export const ListEventsQuery = ListQuery.extend({
  type: z.enum(EVENT_TYPES).optional().meta({ description: "Only events of this type." }),
  order: z.enum(["desc", "asc"]).default("desc").meta({
    description: "desc: newest first; asc: oldest first, for a consumer catching up from " +
      "`startingAfter` (the last event it handled).",
  }),
});
export type ListEventsQuery = z.infer<typeof ListEventsQuery>;

/** What happened, to whom and when; the event's id is made when it is written. */
interface NewEvent {
  orgId: number;
  type: EventType;
  environment: Environment;
  createdAt: number;
  data: Record<string, unknown>;
}

/**
 * Writes an event to the outbox inside the caller's transaction, so the event exists if and only
 * if the change it describes committed.
 */
export async function recordEvent(
  trx: Kysely<EnvironmentSchema>,
  event: NewEvent,
): Promise<Pick<EventRow, "id" | "public_id">> {
  const row = newEventRow(event);
  const id = await insertEvent(trx, row);
  return { id, public_id: row.public_id };
}

/** An event's outbox row, with a new public id; for writes declared up front. */
export function newEventRow(event: NewEvent): Omit<EventRow, "id"> {
  const publicId = newId("event");
  const body: Event = {
    id: publicId,
    type: event.type,
    createdAt: toIso(event.createdAt),
    environment: event.environment,
    data: event.data,
  };
  return {
    public_id: publicId,
    org_id: event.orgId,
    type: event.type,
    payload: JSON.stringify(body),
    created_at: event.createdAt,
  };
}

/** The API form of an event row: its stored payload. */
export function toEvent(row: EventRow): Event {
  return JSON.parse(row.payload);
}

/** Gets one of the organisation's events. */
export async function getEvent(ctx: OrgContext, eventId: string): Promise<EventRow> {
  const row = await findEvent(ctx.db, ctx.orgId, eventId);
  if (!row) throw notFound("event", eventId, "id");
  return row;
}

/** Lists the organisation's events, newest first or (`order=asc`) oldest first. */
export async function listEvents(
  ctx: OrgContext,
  query: ListEventsQuery,
): Promise<Page<EventRow>> {
  const findCursor = (publicId: string) => findEvent(ctx.db, ctx.orgId, publicId);
  if (query.order === "desc") {
    return pageAfter(
      query,
      findCursor,
      (beforeId, limit) => listEventRows(ctx.db, ctx.orgId, { type: query.type, beforeId, limit }),
    );
  }
  const afterId = query.startingAfter === undefined
    ? 0
    : (await resolveCursor(query.startingAfter, findCursor)).id;
  const rows = await listEventsAfterRow(ctx.db, ctx.orgId, {
    type: query.type,
    afterId,
    limit: query.limit + 1,
  });
  return { data: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}
