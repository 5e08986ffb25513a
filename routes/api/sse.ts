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

const REFUSED = ": closed: the API key is no longer allowed to read events\n\n";

/**
 * The response of an event stream. Items are taken from the stream only as the client reads
 * (no buffering here beyond the stream's own bound), and a client that goes away closes it.
 * At every heartbeat `stillAllowed` is asked again, so a revoked or expired key, or a plan
 * lowered to FREE, ends the stream within a heartbeat and the key cache's lifetime.
 */
export function sseResponse(
  stream: EventStream,
  headers: Record<string, string>,
  stillAllowed: () => Promise<boolean>,
): Response {
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
      if (item.kind === "heartbeat" && !await stillAllowed()) {
        stream.close();
        controller.enqueue(encoder.encode(REFUSED));
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
