import assert from "node:assert/strict";
import { openStore } from "../db/client.ts";
import type { EnvironmentSchema } from "../db/schema.ts";
import { type SseMessage, SseParser } from "../lib/cli/sse.ts";
import { recordEvent } from "../lib/events.ts";
import {
  createOtherOrganisation,
  createTestOffer,
  createTestPayment,
  expectError,
  makeTestApp,
  type TestApp,
} from "./support/helpers.ts";

/** A client reading a stream message by message. */
class StreamReader {
  #reader: ReadableStreamDefaultReader<string>;
  #parser = new SseParser();
  #pending: SseMessage[] = [];

  constructor(response: Response) {
    this.#reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next message, or null at the end of the stream. */
  async next(): Promise<SseMessage | null> {
    while (this.#pending.length === 0) {
      const { value, done } = await this.#reader.read();
      if (done) return null;
      this.#pending.push(...this.#parser.push(value));
    }
    return this.#pending.shift()!;
  }

  /** The next `count` events, skipping comments. */
  async events(count: number): Promise<{ id: string; type: string; body: string }[]> {
    const events = [];
    while (events.length < count) {
      const message = await this.next();
      assert.ok(message, "the stream ended early");
      if (message.kind === "event") {
        events.push({ id: message.id!, type: message.event!, body: message.data });
      }
    }
    return events;
  }

  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

function openStream(app: TestApp, query = "", headers: Record<string, string> = {}) {
  return app.request("GET", `/api/v1/events/stream${query}`, undefined, headers);
}

async function allEventIds(app: TestApp): Promise<string[]> {
  const page = await (await app.request("GET", "/api/v1/events?order=asc&limit=100")).json();
  return page.data.map((event: { id: string }) => event.id);
}

Deno.test("[events] order=asc lists oldest first and pages forward", async () => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const a = await createTestPayment(app, offer.qrId);
    await app.request("POST", `/api/v1/payments/${a.paymentId}/complete`, { code: "777123" });
    const b = await createTestPayment(app, offer.qrId);

    const first = await app.request("GET", "/api/v1/events?order=asc&limit=2");
    assert.equal(first.status, 200);
    const page = await first.json();
    assert.deepEqual(
      page.data.map((event: { type: string }) => event.type),
      ["payment.created", "payment.processing"],
    );
    assert.equal(page.hasMore, true);
    const rest = await (await app.request(
      "GET",
      `/api/v1/events?order=asc&startingAfter=${page.data[1].id}`,
    )).json();
    assert.deepEqual(
      rest.data.map((event: { type: string; data: { paymentId: string } }) =>
        `${event.type} ${event.data.paymentId}`
      ),
      [`payment.succeeded ${a.paymentId}`, `payment.created ${b.paymentId}`],
    );
    assert.equal(rest.hasMore, false);
    const typed = await (await app.request(
      "GET",
      "/api/v1/events?order=asc&type=payment.created",
    )).json();
    assert.deepEqual(
      typed.data.map((event: { data: { paymentId: string } }) => event.data.paymentId),
      [a.paymentId, b.paymentId],
    );
    await expectError(
      await app.request("GET", "/api/v1/events?order=asc&startingAfter=evt_unknown"),
      400,
      "invalid_request",
      "parameter_invalid",
      "startingAfter: no item with id 'evt_unknown' in this list.",
    );
    await expectError(
      await app.request("GET", "/api/v1/events?order=up"),
      400,
      "invalid_request",
      "parameter_invalid",
    );
  } finally {
    await app.close();
  }
});

Deno.test("[events] the stream pushes new events, replays after Last-Event-ID and filters", async (t) => {
  const app = await makeTestApp();
  try {
    const offer = await createTestOffer(app);
    const a = await createTestPayment(app, offer.qrId);

    await t.step("from now on: only events committed after it opened", async () => {
      const response = await openStream(app);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8");
      assert.match(response.headers.get("request-id")!, /^req_/);
      const reader = new StreamReader(response);
      assert.deepEqual(await reader.next(), { kind: "comment", text: "connected" });
      await app.request("POST", `/api/v1/payments/${a.paymentId}/complete`, { code: "777123" });
      const events = await reader.events(2);
      const stored = await allEventIds(app);
      assert.deepEqual(events.map((event) => event.id), stored.slice(1, 3));
      assert.deepEqual(events.map((event) => event.type), [
        "payment.processing",
        "payment.succeeded",
      ]);
      const one = await app.request("GET", `/api/v1/events/${events[1].id}`);
      assert.equal(events[1].body, await one.text());
      await reader.cancel();
    });

    await t.step(
      "Last-Event-ID replays what was missed, oldest first, then goes live",
      async () => {
        const stored = await allEventIds(app);
        const reader = new StreamReader(await openStream(app, "", { "last-event-id": stored[0] }));
        const replayed = await reader.events(2);
        assert.deepEqual(replayed.map((event) => event.id), stored.slice(1));
        const b = await createTestPayment(app, offer.qrId);
        const [live] = await reader.events(1);
        assert.equal(JSON.parse(live.body).data.paymentId, b.paymentId);
        await reader.cancel();
      },
    );

    await t.step(
      "a reconnect's Last-Event-ID wins over the startingAfter it was first opened with",
      async () => {
        // A browser's EventSource reconnects to the same URL and adds Last-Event-ID.
        const stored = await allEventIds(app);
        assert.equal(stored.length, 4);
        const reader = new StreamReader(
          await openStream(app, `?startingAfter=${stored[0]}`, { "last-event-id": stored[2] }),
        );
        try {
          const [replayed] = await reader.events(1);
          assert.equal(replayed.id, stored[3]);
          const c = await createTestPayment(app, offer.qrId);
          const [live] = await reader.events(1);
          assert.equal(JSON.parse(live.body).data.paymentId, c.paymentId);
        } finally {
          await reader.cancel();
        }
      },
    );

    await t.step("startingAfter with types= sends only the matching types", async () => {
      const stored = await allEventIds(app);
      const reader = new StreamReader(
        await openStream(app, `?types=payment.succeeded,refund.*&startingAfter=${stored[0]}`),
      );
      const [succeeded] = await reader.events(1);
      assert.equal(succeeded.type, "payment.succeeded");
      await app.request("POST", `/api/v1/payments/${a.paymentId}/refunds`, { amount: 100 });
      await createTestPayment(app, offer.qrId);
      const [refund] = await reader.events(1);
      assert.equal(refund.type, "refund.created");
      await reader.cancel();
    });

    await t.step("bad resume points and types are 400 and open nothing", async () => {
      await expectError(
        await openStream(app, "", { "last-event-id": "evt_unknown" }),
        400,
        "invalid_request",
        "parameter_invalid",
        "Last-Event-ID: no item with id 'evt_unknown' in this list.",
      );
      await expectError(
        await openStream(app, "?types=payment.*,payment.done"),
        400,
        "invalid_request",
        "parameter_invalid",
      );
      assert.equal(app.services.eventStreams.size, 0);
    });
  } finally {
    await app.close();
  }
});

Deno.test("[events] a stream never shows another organisation's events", async () => {
  const app = await makeTestApp();
  try {
    const { key: otherKey } = await createOtherOrganisation(app);
    const asOther = (method: string, path: string, body?: unknown) =>
      app.app.request(path, {
        method,
        headers: { authorization: `Bearer ${otherKey.secret}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const offer = await createTestOffer(app);
    const mine = await createTestPayment(app, offer.qrId);
    const myEvent = (await allEventIds(app))[0];
    const otherOffer = await (await asOther("POST", "/api/v1/qr", {
      name: "Tea",
      amount: 900,
      currency: "PLN",
    })).json();

    const otherStream = new StreamReader(await asOther("GET", "/api/v1/events/stream"));
    const myStream = new StreamReader(await openStream(app, "", { "last-event-id": myEvent }));
    // Another organisation's event id is unknown to this key.
    await expectError(
      await app.app.request("/api/v1/events/stream", {
        headers: { authorization: `Bearer ${otherKey.secret}`, "last-event-id": myEvent },
      }),
      400,
      "invalid_request",
      "parameter_invalid",
    );
    for (let index = 0; index < 3; index++) {
      await createTestPayment(app, offer.qrId);
      await asOther("POST", "/api/v1/payments", { qrId: otherOffer.qrId });
    }
    await app.request("POST", `/api/v1/payments/${mine.paymentId}/cancel`);
    const theirs = await otherStream.events(3);
    const ours = await myStream.events(4);
    assert.ok(theirs.every((event) => JSON.parse(event.body).data.qrId === otherOffer.qrId));
    assert.ok(ours.every((event) => JSON.parse(event.body).data.qrId === offer.qrId));
    assert.equal(ours[3].type, "payment.canceled");
    await otherStream.cancel();
    await myStream.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("[events] a slow reader is cut off at the buffer's bound, not buffered forever", async () => {
  const app = await makeTestApp({ eventStreams: { maxBufferedEvents: 5 } });
  try {
    const offer = await createTestOffer(app);
    const response = await openStream(app);
    const reader = new StreamReader(response);
    assert.deepEqual(await reader.next(), { kind: "comment", text: "connected" });
    // The reader reads nothing more while 12 events commit.
    for (let index = 0; index < 12; index++) await createTestPayment(app, offer.qrId);
    while (app.services.eventStreams.size > 0) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // What the client's own pipeline had already pulled, then the notice, then the end.
    const received: string[] = [];
    let last: SseMessage | null = null;
    for (let message = await reader.next(); message; message = await reader.next()) {
      if (message.kind === "event") received.push(message.id!);
      last = message;
    }
    assert.deepEqual(last, {
      kind: "comment",
      text: "closed: this reader fell too far behind; reconnect with Last-Event-ID",
    });
    const stored = await allEventIds(app);
    assert.ok(received.length < 5, `${received.length} events reached the reader`);
    assert.deepEqual(received, stored.slice(0, received.length));

    // Resuming from the last event it had replays the rest, at the reader's pace.
    const resumeAfter = received.at(-1);
    const resumed = new StreamReader(
      await openStream(app, "", resumeAfter ? { "last-event-id": resumeAfter } : {}),
    );
    if (!resumeAfter) await createTestPayment(app, offer.qrId);
    const events = await resumed.events(resumeAfter ? 12 - received.length : 1);
    assert.deepEqual(
      events.map((event) => event.id),
      resumeAfter ? stored.slice(received.length) : (await allEventIds(app)).slice(12),
    );
    assert.equal(app.services.eventStreams.size, 1);
    await resumed.cancel();
    assert.equal(app.services.eventStreams.size, 0);
  } finally {
    await app.close();
  }
});

Deno.test("[events] one key may hold only so many streams", async () => {
  const app = await makeTestApp({ eventStreams: { maxStreamsPerKey: 2 } });
  try {
    const first = new StreamReader(await openStream(app));
    const second = new StreamReader(await openStream(app));
    const third = await openStream(app);
    await expectError(third, 429, "rate_limit", "too_many_streams");
    assert.equal(third.headers.get("retry-after"), "5");
    await first.cancel();
    const again = new StreamReader(await openStream(app));
    await again.cancel();
    await second.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("[events] the process holds only so many streams, every organisation's", async () => {
  const app = await makeTestApp({ eventStreams: { maxStreams: 2 } });
  try {
    const { key } = await createOtherOrganisation(app);
    const first = new StreamReader(await openStream(app));
    const second = new StreamReader(
      await openStream(app, "", { authorization: `Bearer ${key.secret}` }),
    );
    const third = await openStream(app);
    await expectError(
      third,
      429,
      "rate_limit",
      "too_many_streams",
      "This server already has 2 event streams open, the most it takes; close one and retry.",
    );
    assert.equal(third.headers.get("retry-after"), "5");
    await second.cancel();
    const again = new StreamReader(await openStream(app));
    await again.cancel();
    await first.cancel();
  } finally {
    await app.close();
  }
});

Deno.test("[events] a stream sees events another process commits, through the shared poll", async () => {
  const app = await makeTestApp({ eventStreams: { pollMs: 20 } });
  const other = await openStore<EnvironmentSchema>(app.config.databaseUrl);
  try {
    const reader = new StreamReader(await openStream(app));
    assert.deepEqual(await reader.next(), { kind: "comment", text: "connected" });
    // Written through another connection: this process's commit hook never fires for it.
    const written = await other.write((trx) =>
      recordEvent(trx, {
        orgId: app.orgId,
        type: "payment.created",
        environment: "sandbox",
        createdAt: app.clock.now(),
        data: { paymentId: "pay_fromanotherprocess00000000", version: 1 },
      })
    );
    const [event] = await reader.events(1);
    assert.equal(event.id, written.public_id);
    await reader.cancel();
  } finally {
    await other.close();
    await app.close();
  }
});

/**
 * Heartbeats the reader may still see once the revoked key's cache has lapsed: the key is asked
 * about at every heartbeat, but the reader's pipe may hold one or two checked before the revoke.
 */
const HEARTBEATS_AFTER_REVOKE = 3;

Deno.test("[events] a stream ends at the next heartbeat once its key is revoked elsewhere", async () => {
  const app = await makeTestApp({ eventStreams: { heartbeatMs: 20 } });
  try {
    const reader = new StreamReader(await openStream(app));
    assert.deepEqual(await reader.next(), { kind: "comment", text: "connected" });
    assert.deepEqual(await reader.next(), { kind: "comment", text: "heartbeat" });
    // As another instance would: straight in the database, then the key cache lapses.
    await app.store.write((trx) =>
      trx.updateTable("api_keys").set({ revoked_at: app.clock.now() }).execute()
    );
    app.clock.advance(6_000);
    let message = await reader.next();
    let heartbeats = 0;
    while (message?.kind === "comment" && message.text === "heartbeat") {
      // Bounded: a stream that outlives its key fails here in moments instead of hanging.
      assert.ok(++heartbeats <= HEARTBEATS_AFTER_REVOKE, "the stream outlived its revoked key");
      message = await reader.next();
    }
    assert.deepEqual(message, {
      kind: "comment",
      text: "closed: the API key is no longer allowed to read events",
    });
    assert.equal(await reader.next(), null);
    assert.equal(app.services.eventStreams.size, 0);
  } finally {
    await app.close();
  }
});
