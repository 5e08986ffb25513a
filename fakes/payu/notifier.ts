/**
 * Sends the fake's notifications to each order's notifyUrl the way PayU does: JSON signed with
 * the second key in OpenPayu-Signature, sent again until the receiver answers 200. The
 * switches add duplicates, reordering (PENDING after the final status) and dropping.
 */
import { signatureHeader } from "./signature.ts";
import { FINAL_ORDER_STATUSES, type OrderNotification, type OrderStatus } from "./wire.ts";
import {
  type FakeOrder,
  type FakeRefund,
  type FakeState,
  propertiesOf,
  toRefundNotification,
  toWireOrder,
} from "./state.ts";
import type { FakePayuSwitches } from "./switches.ts";
import type { Timers } from "../shared/timers.ts";

/** How the fake reaches notify URLs: `fetch`, or an app's handler in-process. */
export type NotifyFetch = (request: Request) => Promise<Response>;

const NOTIFY_TIMEOUT_MS = 10_000;

interface Message {
  url: string;
  kind: "order" | "refund";
  orderId: string;
  status: string;
  body: string;
}

/** Sends notifications; one per fake PayU. */
export class Notifier {
  /** PENDING notifications held back by reorderNotifications, per order. */
  #held = new Map<string, Message[]>();

  constructor(
    private readonly deps: {
      state: FakeState;
      timers: Timers;
      switches: () => FakePayuSwitches;
      secondKey: string;
      fetch: NotifyFetch;
      now: () => number;
    },
  ) {}

  /** Notifies the order's current status (a snapshot: later changes do not alter it). */
  order(order: FakeOrder): void {
    if (!order.notifyUrl) return;
    const notification: OrderNotification = {
      order: toWireOrder(order),
      ...(order.localReceiptDateTime === null
        ? {}
        : { localReceiptDateTime: order.localReceiptDateTime }),
      ...(propertiesOf(order) === undefined ? {} : { properties: propertiesOf(order) }),
    };
    this.#dispatch({
      url: order.notifyUrl,
      kind: "order",
      orderId: order.orderId,
      status: order.status,
      body: JSON.stringify(notification),
    });
  }

  /** Notifies a refund's current status. */
  refund(refund: FakeRefund, order: FakeOrder): void {
    if (!order.notifyUrl) return;
    this.#dispatch({
      url: order.notifyUrl,
      kind: "refund",
      orderId: order.orderId,
      status: refund.status,
      body: JSON.stringify(toRefundNotification(refund, order)),
    });
  }

  #dispatch(message: Message): void {
    const switches = this.deps.switches();
    if (switches.dropNotifications) {
      this.#record(message, "", null, "dropped");
      return;
    }
    const copies = switches.duplicateNotifications ? 2 : 1;
    if (switches.reorderNotifications && message.kind === "order") {
      if (!FINAL_ORDER_STATUSES.includes(message.status as OrderStatus)) {
        this.#held.set(message.orderId, [...(this.#held.get(message.orderId) ?? []), message]);
        return;
      }
      const held = this.#held.get(message.orderId) ?? [];
      this.#held.delete(message.orderId);
      this.deps.timers.after(0, async () => {
        await this.#attempt(message, 0);
        for (const late of held) for (let i = 0; i < copies; i++) void this.#start(late);
        for (let i = 1; i < copies; i++) void this.#start(message);
      });
      return;
    }
    for (let i = 0; i < copies; i++) void this.#start(message);
  }

  #start(message: Message): Promise<void> {
    return this.deps.timers.track(() => this.#attempt(message, 0));
  }

  /** One delivery attempt; schedules the next one unless the receiver answered 200. */
  async #attempt(message: Message, attempt: number): Promise<void> {
    const signature = signatureHeader(
      message.body,
      this.deps.secondKey,
      this.deps.switches().signatureAlgorithm,
    );
    let answer: number | null = null;
    try {
      const response = await this.deps.fetch(
        new Request(message.url, {
          method: "POST",
          headers: {
            "content-type": "application/json;charset=UTF-8",
            "openpayu-signature": signature,
            "x-openpayu-signature": signature,
          },
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
    this.#record(message, signature, answer, answer === 200 ? "delivered" : "failed");
    const delays = this.deps.switches().notifyRetryDelaysMs;
    if (answer !== 200 && attempt < delays.length) {
      this.deps.timers.after(delays[attempt], () => this.#attempt(message, attempt + 1));
    }
  }

  #record(
    message: Message,
    signature: string,
    answer: number | null,
    outcome: "delivered" | "failed" | "dropped",
  ): void {
    this.deps.state.notifications.push({
      url: message.url,
      kind: message.kind,
      orderId: message.orderId,
      status: message.status,
      body: message.body,
      signature,
      answer,
      outcome,
      at: new Date(this.deps.now()).toISOString(),
    });
  }
}
