/**
 * Sends the fake's notifications as P24 does: JSON POSTs, each carrying its own `sign`. The
 * transaction notification to urlStatus is sent again while the transaction is not verified
 * ("subsequent notifications ... unless the correct transaction verification will take place");
 * BLIK and refund notifications until the receiver answers 2xx. The switches add a delay,
 * duplicates, reordering (urlStatus before the BLIK result) and dropping.
 */
import type { FakeState } from "./state.ts";
import type { FakeP24Switches } from "./switches.ts";
import type { Timers } from "../shared/timers.ts";

/** How the fake reaches notification URLs: `fetch`, or an app's handler in-process. */
export type NotifyFetch = (request: Request) => Promise<Response>;

const NOTIFY_TIMEOUT_MS = 10_000;

/** A notification to send. */
export interface Message {
  url: string;
  kind: "status" | "blik" | "refund";
  sessionId: string;
  body: string;
  /** Whether to try again after an attempt: while unverified (status), or until 2xx. */
  again(answer: number | null): boolean;
}

/** Sends notifications; one per fake. */
export class Notifier {
  constructor(
    private readonly deps: {
      state: FakeState;
      timers: Timers;
      switches: () => FakeP24Switches;
      fetch: NotifyFetch;
      now: () => number;
    },
  ) {}

  /**
   * Sends `messages` (of one event, in P24's order) after `delayMs` (the notification delay by
   * default), one after the other, reversed when reorderNotifications is on.
   */
  send(messages: Message[], delayMs?: number): void {
    const switches = this.deps.switches();
    if (switches.dropNotifications) {
      for (const message of messages) this.#record(message, null, "dropped");
      return;
    }
    const ordered = switches.reorderNotifications ? [...messages].reverse() : messages;
    const copies = switches.duplicateNotifications ? 2 : 1;
    this.deps.timers.after(delayMs ?? switches.notifyDelayMs, async () => {
      for (const message of ordered) {
        for (let i = 0; i < copies; i++) await this.#attempt(message, 0);
      }
    });
  }

  /** Resolves after the first attempt of each message (a customer who waits for the result). */
  async sendNow(messages: Message[]): Promise<void> {
    const switches = this.deps.switches();
    if (switches.dropNotifications) {
      for (const message of messages) this.#record(message, null, "dropped");
      return;
    }
    for (const message of messages) {
      await this.deps.timers.track(() => this.#attempt(message, 0));
    }
  }

  async #attempt(message: Message, attempt: number): Promise<void> {
    let answer: number | null = null;
    try {
      const response = await this.deps.fetch(
        new Request(message.url, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: message.body,
          redirect: "manual",
          signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
        }),
      );
      answer = response.status;
      await response.body?.cancel();
    } catch {
      answer = null;
    }
    const ok = answer !== null && answer >= 200 && answer < 300;
    this.#record(message, answer, ok ? "delivered" : "failed");
    const delays = this.deps.switches().notifyRetryDelaysMs;
    if (attempt < delays.length && message.again(answer)) {
      this.deps.timers.after(delays[attempt], async () => {
        if (message.again(null)) await this.#attempt(message, attempt + 1);
      }, { background: true });
    }
  }

  #record(
    message: Message,
    answer: number | null,
    outcome: "delivered" | "failed" | "dropped",
  ): void {
    this.deps.state.notifications.push({
      url: message.url,
      kind: message.kind,
      sessionId: message.sessionId,
      body: message.body,
      answer,
      outcome,
      at: new Date(this.deps.now()).toISOString(),
    });
  }
}
