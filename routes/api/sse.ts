import type { EventStream, StreamItem } from "../../lib/event_stream.ts";

const encoder = new TextEncoder();

/** One item in the Server-Sent Events format; an event's data is its stored body, unchanged. */
function format(item: StreamItem): string {
  switch (item.kind) {
    case "event":
      return `id: ${item.event.public_id}\nevent: ${item.event.type}\ndata: ${item.event.payload}\n\n`;
    case "heartbeat":
      return ": heartbeat\n\n";
    case "behind":
      return ": closed: this reader fell too far behind; reconnect with Last-Event-ID\n\n";
  }
}

/**
 * The response of an event stream. Items are taken from the stream only as the client reads
 * (no buffering here beyond the stream's own bound), and a client that goes away closes it.
 */
export function sseResponse(stream: EventStream, headers: Record<string, string>): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode("retry: 2000\n: connected\n\n"));
    },
    async pull(controller) {
      const item = await stream.next();
      if (item === null) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(format(item)));
    },
    cancel() {
      stream.close();
    },
  }, { highWaterMark: 0 });
  return new Response(body, {
    status: 200,
    headers: {
      ...headers,
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
    },
  });
}
