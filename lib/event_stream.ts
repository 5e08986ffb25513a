import { z } from "zod";
import type { Store } from "../db/client.ts";
import { findEvent, listEventPage } from "../db/events.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { latestEventId, listEventsAfter, type OutboxEvent } from "../db/webhook_fanout.ts";
import type { OrgContext } from "./context.ts";
import { ApiError } from "./errors.ts";
import type { Logger } from "./log.ts";
import { resolveCursor } from "./pagination.ts";
import {
  isSubscriptionPattern,
  SUBSCRIBABLE_EVENT_TYPES,
  subscribes,
} from "./webhooks/subscriptions.ts";

/** What a stream sends: an event, a heartbeat, or the notice that it fell behind and closes. */
export type StreamItem =
  | { kind: "event"; event: OutboxEvent }
  | { kind: "heartbeat" }
  | { kind: "behind" };

/** Tuning of the event streams; tests shrink the limits. */
export interface EventStreamOptions {
  /** How often other processes' events are looked for while a stream is open. */
  pollMs?: number;
  /** How often an idle stream sends a comment line, so proxies keep it open. */
  heartbeatMs?: number;
  /** Events a stream may hold for a slow reader before it is closed. */
  maxBufferedEvents?: number;
  /**
   * Bytes of memory the events a stream holds may take before it is closed, each counted at two
   * bytes a character (the most a string takes); a replay page takes at most half of it.
   */
  maxBufferedBytes?: number;
  /** Streams one API key may hold open at once. */
  maxStreamsPerKey?: number;
  /** Streams one organisation's keys may hold open at once, added up. */
  maxStreamsPerOrg?: number;
  /** Streams the process holds open at once, every organisation's. */
  maxStreams?: number;
}

/** Events one replay read fetches at most. */
const REPLAY_PAGE = 100;
/** Events the live reader fetches at a time, for every stream at once. */
const PAGE = 200;

/** The most memory an event's body may take: two bytes a character. */
function memoryOf(event: OutboxEvent): number {
  return event.payload.length * 2;
}

/** One reader's view of the organisation's events: replay first, then live, in id order. */
export class EventStream {
  readonly orgId: number;
  readonly keyId: string;
  /** The event types the reader asked for. */
  readonly types: ReadonlySet<string>;
  /** Row id of the last event queued or skipped; live events at or below it are old news. */
  lastId: number;
  live = false;
  closed = false;
  #queue: StreamItem[] = [];
  #bytes = 0;
  #heartbeat = false;
  #wake: (() => void) | null = null;
  #onClose: (stream: EventStream) => void;
  #replay: (stream: EventStream) => Promise<void>;
  #limits: { events: number; bytes: number };

  constructor(
    init: {
      orgId: number;
      keyId: string;
      types: ReadonlySet<string>;
      afterId: number;
      limits: { events: number; bytes: number };
      /** Queues the next page of missed events, or makes the stream live when there is none. */
      replay: (stream: EventStream) => Promise<void>;
    },
    onClose: (stream: EventStream) => void,
  ) {
    this.orgId = init.orgId;
    this.keyId = init.keyId;
    this.types = init.types;
    this.lastId = init.afterId;
    this.#limits = init.limits;
    this.#replay = init.replay;
    this.#onClose = onClose;
  }

  /** Events waiting for the reader. */
  get buffered(): number {
    return this.#queue.length;
  }

  /** Queues an event for the reader; a reader too far behind gets `behind` and the end. */
  push(event: OutboxEvent): void {
    if (this.closed || event.id <= this.lastId) return;
    this.lastId = event.id;
    if (!this.types.has(event.type)) return;
    this.#queue.push({ kind: "event", event });
    this.#bytes += memoryOf(event);
    if (this.#queue.length > this.#limits.events || this.#bytes > this.#limits.bytes) {
      // NOTE: memory per stream is bounded: a reader that falls this far behind loses the
      // buffer and resumes from its Last-Event-ID, which replays from the database.
      this.#queue = [{ kind: "behind" }];
      this.#bytes = 0;
      this.#finish();
    }
    this.#signal();
  }

  /** Asks for a heartbeat, sent when the stream has nothing else to say. */
  heartbeat(): void {
    this.#heartbeat = true;
    this.#signal();
  }

  /**
   * The next item for the reader; null once the stream has ended. Missed events are read from
   * the database a page at a time, only when the reader has taken the page before.
   */
  async next(): Promise<StreamItem | null> {
    for (;;) {
      const item = this.#queue.shift();
      if (item) {
        if (item.kind === "event") this.#bytes -= memoryOf(item.event);
        return item;
      }
      if (this.closed) return null;
      if (!this.live) {
        await this.#replay(this);
        continue;
      }
      if (this.#heartbeat) {
        this.#heartbeat = false;
        return { kind: "heartbeat" };
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  /** Ends the stream now: queued items are dropped. */
  close(): void {
    this.#queue = [];
    this.#bytes = 0;
    this.#finish();
    this.#signal();
  }

  #finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.#onClose(this);
  }

  #signal(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }
}

/**
 * Pushes each committed event to the open streams of its organisation. One reader per process
 * follows the events table by id: woken by every local commit, and polled (one query for all
 * streams) for the events other processes write.
 */
export class EventBroadcaster {
  #store: Store<EnvironmentSchema>;
  #log: Logger;
  #options: Required<EventStreamOptions>;
  #streams = new Set<EventStream>();
  #watermark = 0;
  #pumping = false;
  #again = false;
  #stopListening: (() => void) | null = null;
  #poll: ReturnType<typeof setInterval> | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(store: Store<EnvironmentSchema>, log: Logger, options: EventStreamOptions = {}) {
    this.#store = store;
    this.#log = log;
    this.#options = {
      pollMs: options.pollMs ?? 1000,
      heartbeatMs: options.heartbeatMs ?? 15_000,
      maxBufferedEvents: options.maxBufferedEvents ?? 1000,
      maxBufferedBytes: options.maxBufferedBytes ?? 1024 * 1024,
      maxStreamsPerKey: options.maxStreamsPerKey ?? 5,
      maxStreamsPerOrg: options.maxStreamsPerOrg ?? 10,
      maxStreams: options.maxStreams ?? 32,
    };
  }

  /** How many streams are open. */
  get size(): number {
    return this.#streams.size;
  }

  /** How many streams one API key may hold open. */
  get maxStreamsPerKey(): number {
    return this.#options.maxStreamsPerKey;
  }

  /**
   * Opens a stream of an organisation's events after row `afterId` (null: from now on), only
   * of `types` when given. Throws 429 when the key, its organisation or the process already
   * holds its share of streams.
   */
  async open(init: {
    orgId: number;
    keyId: string;
    types: ReadonlySet<string>;
    afterId: number | null;
  }): Promise<EventStream> {
    this.#checkRoom(init);
    if (this.#streams.size === 0) await this.#start();
    // NOTE: checked again after the await, so streams opened at once cannot overshoot a limit.
    this.#checkRoom(init);
    const stream = new EventStream({
      ...init,
      afterId: init.afterId ?? this.#watermark,
      limits: {
        events: this.#options.maxBufferedEvents,
        bytes: this.#options.maxBufferedBytes,
      },
      replay: (replaying) => this.#replayPage(replaying),
    }, (closed) => this.#remove(closed));
    this.#streams.add(stream);
    return stream;
  }

  /** Ends every stream (the server is stopping). */
  close(): void {
    for (const stream of [...this.#streams]) stream.close();
  }

  /** Throws 429 `too_many_streams` when another stream would pass a limit. */
  #checkRoom(init: { orgId: number; keyId: string }): void {
    // NOTE: every stream may hold up to maxBufferedBytes: these counts bound the memory the
    // streams of one organisation, and of the whole process, can take.
    let ofKey = 0;
    let ofOrg = 0;
    for (const stream of this.#streams) {
      if (stream.keyId === init.keyId) ofKey++;
      if (stream.orgId === init.orgId) ofOrg++;
    }
    const full = ofKey >= this.#options.maxStreamsPerKey
      ? `This API key already has ${ofKey} event streams open, the most it may`
      : ofOrg >= this.#options.maxStreamsPerOrg
      ? `This organisation's API keys already have ${ofOrg} event streams open, the most they may`
      : this.#streams.size >= this.#options.maxStreams
      ? `This server already has ${this.#streams.size} event streams open, the most it takes`
      : null;
    if (full !== null) {
      throw new ApiError("too_many_streams", `${full}; close one and retry.`, {
        headers: { "Retry-After": "5" },
      });
    }
  }

  async #start(): Promise<void> {
    this.#watermark = Math.max(this.#watermark, await latestEventId(this.#store.db));
    if (this.#stopListening) return;
    this.#stopListening = this.#store.onCommit(() => this.#pump());
    this.#poll = setInterval(() => this.#pump(), this.#options.pollMs);
    this.#heartbeat = setInterval(() => {
      for (const stream of this.#streams) stream.heartbeat();
    }, this.#options.heartbeatMs);
  }

  #remove(stream: EventStream): void {
    this.#streams.delete(stream);
    if (this.#streams.size > 0 || !this.#stopListening) return;
    this.#stopListening();
    this.#stopListening = null;
    clearInterval(this.#poll);
    clearInterval(this.#heartbeat);
  }

  /** Reads the events after the watermark once for every stream, in id (commit) order. */
  async #pump(): Promise<void> {
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    try {
      do {
        this.#again = false;
        for (let more = true; more && this.#streams.size > 0;) {
          const rows = await listEventsAfter(this.#store.db, this.#watermark, PAGE);
          // NOTE: no await between moving the watermark and handing the rows to the live
          // streams: a stream that goes live compares against this watermark (see #replayPage).
          for (const row of rows) {
            this.#watermark = row.id;
            for (const stream of this.#streams) {
              if (stream.live && stream.orgId === row.org_id) stream.push(row);
            }
          }
          more = rows.length === PAGE;
        }
      } while (this.#again);
    } catch (error) {
      this.#log.warn("event stream read failed", { error: String(error) });
    } finally {
      this.#pumping = false;
    }
  }

  /**
   * Queues the stream's next page of missed events, oldest first, or makes it live. A page is
   * read only once the reader has taken the one before, and holds at most half the events and
   * bytes a stream may hold. The stream goes live only after a read that found nothing more while the watermark
   * stood still: every event up to the watermark was visible to that read, and every later one
   * will be pushed.
   */
  async #replayPage(stream: EventStream): Promise<void> {
    const watermark = this.#watermark;
    let rows: OutboxEvent[] = [];
    try {
      if (stream.types.size > 0) {
        rows = await listEventPage(this.#store.db, stream.orgId, {
          types: [...stream.types],
          afterId: stream.lastId,
          limit: Math.max(
            1,
            Math.min(REPLAY_PAGE, Math.floor(this.#options.maxBufferedEvents / 2)),
          ),
          maxChars: this.#options.maxBufferedBytes / 4,
        });
      }
    } catch (error) {
      this.#log.warn("event stream replay failed", { error: String(error) });
      stream.close();
      return;
    }
    for (const row of rows) stream.push(row);
    if (rows.length === 0 && this.#watermark === watermark) {
      stream.lastId = Math.max(stream.lastId, watermark);
      stream.live = true;
    }
  }
}

/** `GET /api/v1/events/stream` query: where to resume and which types to send. */
export const StreamEventsQuery = z.strictObject({
  startingAfter: z.string().max(100).optional().meta({
    description: "Replay the events after this one first, oldest first (the `Last-Event-ID` " +
      "header does the same and wins).",
  }),
  types: z.string().max(2000).optional().transform((value, ctx) => {
    if (value === undefined) return undefined;
    const patterns = value.split(",").map((part) => part.trim());
    const wrong = patterns.find((pattern) => !isSubscriptionPattern(pattern));
    if (wrong !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: `'${wrong}' is not '*', an event type such as payment.succeeded, or a family ` +
          "such as payment.*",
      });
      return z.NEVER;
    }
    return patterns;
  }).meta({
    description: "Comma-separated event types or families, as a webhook endpoint subscribes: " +
      "`payment.*,refund.succeeded`. Default: every type but webhook.test.",
    example: "payment.*,refund.*",
  }),
});
export type StreamEventsQuery = z.infer<typeof StreamEventsQuery>;

/**
 * Opens a stream of the organisation's events for an API key: after `resumeAfter` (an event id,
 * replayed first, oldest first) or from now on, of the types `patterns` subscribe to.
 */
export async function openEventStream(
  ctx: OrgContext,
  keyId: string,
  input: { resumeAfter?: string; resumeParam: string; patterns?: readonly string[] },
): Promise<EventStream> {
  let afterId: number | null = null;
  if (input.resumeAfter !== undefined) {
    const after = await resolveCursor(
      input.resumeAfter,
      (publicId) => findEvent(ctx.db, ctx.orgId, publicId),
      input.resumeParam,
    );
    afterId = after.id;
  }
  const patterns = input.patterns ?? ["*"];
  return await ctx.services.eventStreams.open({
    orgId: ctx.orgId,
    keyId,
    types: new Set(SUBSCRIBABLE_EVENT_TYPES.filter((type) => subscribes(patterns, type))),
    afterId,
  });
}
