/** One message of a Server-Sent Events stream; a comment line comes as `comment`. */
export type SseMessage =
  | { kind: "event"; id: string | null; event: string | null; data: string }
  | { kind: "comment"; text: string };

/**
 * Splits a Server-Sent Events text stream into messages as chunks arrive. The data of an event
 * is returned exactly as sent (its lines joined with "\n"), so a forwarded body is byte for byte
 * what the server wrote.
 */
export class SseParser {
  #buffer = "";
  #id: string | null = null;
  #event: string | null = null;
  #data: string[] = [];

  /** Feeds a chunk of text; returns the messages it completed. */
  push(chunk: string): SseMessage[] {
    this.#buffer += chunk;
    const messages: SseMessage[] = [];
    for (;;) {
      const end = this.#buffer.indexOf("\n");
      if (end < 0) break;
      const line = this.#buffer.slice(0, end).replace(/\r$/, "");
      this.#buffer = this.#buffer.slice(end + 1);
      const message = this.#line(line);
      if (message) messages.push(message);
    }
    return messages;
  }

  #line(line: string): SseMessage | null {
    if (line === "") {
      if (this.#data.length === 0) return null;
      const message: SseMessage = {
        kind: "event",
        id: this.#id,
        event: this.#event,
        data: this.#data.join("\n"),
      };
      this.#event = null;
      this.#data = [];
      return message;
    }
    if (line.startsWith(":")) return { kind: "comment", text: line.slice(1).trim() };
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") this.#id = value;
    if (field === "event") this.#event = value;
    if (field === "data") this.#data.push(value);
    return null;
  }
}
