import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { EventResource as Event } from "../../lib/event_schemas.ts";
import { getEvent, listEvents, ListEventsQuery, toEvent } from "../../lib/events.ts";
import { openEventStream, StreamEventsQuery } from "../../lib/event_stream.ts";
import { createApiRouter, errors, json, listPage, listResponse } from "./openapi.ts";
import { sseResponse } from "./sse.ts";

const tags = ["Events"];

/** `/api/v1/events`: the events outbox. */
export const events = createApiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/",
      operationId: "listEvents",
      summary: "List events",
      description:
        "Events newest first, or oldest first with `order=asc` for a consumer catching up after `startingAfter`. Each `data` carries the object's `version`.",
      tags,
      request: { query: ListEventsQuery },
      responses: {
        200: listResponse(
          "Events, newest first (oldest first with order=asc).",
          Event,
          "EventList",
        ),
        ...errors(400, 401, 403),
      },
    }),
    async (c) => {
      const page = await listEvents(c.get("ctx"), c.req.valid("query"));
      return c.json(listPage(page, toEvent), 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/stream",
      operationId: "streamEvents",
      summary: "Stream events as they happen",
      description: "Server-Sent Events of this organisation and environment, pushed as each " +
        "event commits. Each message has `id:` (the event id), `event:` (its type) and `data:` " +
        "(the event's JSON body, the same bytes a webhook delivers). `Last-Event-ID` or " +
        "`startingAfter` first replays what was missed, oldest first. Comment lines are " +
        "heartbeats. A reader that falls far behind is sent a comment and disconnected; it " +
        "resumes with `Last-Event-ID`. At most a few streams per API key (429 beyond).",
      tags,
      request: {
        query: StreamEventsQuery,
        headers: z.object({
          "last-event-id": z.string().max(100).optional().meta({
            description: "The id of the last event received: the stream replays from there.",
          }),
        }),
      },
      responses: {
        200: {
          description: "The stream: `text/event-stream`, open until the client leaves.",
          content: { "text/event-stream": { schema: z.string() } },
        },
        ...errors(400, 401, 403, 429),
      },
    }),
    async (c) => {
      const query = c.req.valid("query");
      const lastEventId = c.req.valid("header")["last-event-id"];
      const stream = await openEventStream(c.get("ctx"), c.get("principal").apiKeyPublicId, {
        resumeAfter: lastEventId ?? query.startingAfter,
        resumeParam: lastEventId === undefined ? "startingAfter" : "Last-Event-ID",
        patterns: query.types,
      });
      const reauthenticate = c.get("reauthenticate");
      return sseResponse(
        stream,
        { "Request-Id": c.get("requestId") },
        () => reauthenticate().then(() => true, () => false),
      ) as never;
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{id}",
      operationId: "getEvent",
      summary: "Get an event",
      description: "One event, exactly as its webhook deliveries carry it.",
      tags,
      request: { params: z.object({ id: z.string().max(100) }) },
      responses: { 200: { description: "The event.", ...json(Event) }, ...errors(401, 403, 404) },
    }),
    async (c) => c.json(toEvent(await getEvent(c.get("ctx"), c.req.valid("param").id)), 200),
  );
