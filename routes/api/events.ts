import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { Event, getEvent, listEvents, ListEventsQuery, toEvent } from "../../lib/events.ts";
import { listOf } from "../../lib/schemas.ts";
import { createApiRouter, errors, json } from "./openapi.ts";

const tags = ["Events"];

/** `/api/v1/events`: the events outbox. */
export const events = createApiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/",
      operationId: "listEvents",
      summary: "List events",
      tags,
      request: { query: ListEventsQuery },
      responses: {
        200: { description: "Events, newest first.", ...json(listOf(Event, "EventList")) },
        ...errors(400, 401, 403),
      },
    }),
    async (c) => {
      const page = await listEvents(c.var.ctx, c.req.valid("query"));
      return c.json({ data: page.data.map(toEvent), hasMore: page.hasMore }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/{id}",
      operationId: "getEvent",
      summary: "Get an event",
      tags,
      request: { params: z.object({ id: z.string().max(100) }) },
      responses: { 200: { description: "The event.", ...json(Event) }, ...errors(401, 403, 404) },
    }),
    async (c) => c.json(toEvent(await getEvent(c.var.ctx, c.req.valid("param").id)), 200),
  );
