/**
 * A faithful fake of the PayU REST API v2.1 surface Paystead uses (OAuth, BLIK orders, redirect
 * orders with PayU's pay page, pay methods, refunds, signed notifications), built from PayU's
 * public documentation, with switches for late, repeated, missing and failing answers.
 * In-process (`createFakePayu`) for tests through `fetch`, or listening (`startFakePayu`) for a
 * real Paystead process and `deno task cli fake-payu`.
 */
import { actAtBank, type BankResult } from "./bank.ts";
import type { FakeContext, FakePayuCredentials } from "./context.ts";
import { applySwitches } from "./control.ts";
import { fakePayuApp } from "./http.ts";
import { Notifier, type NotifyFetch } from "./notifier.ts";
import { settleOrder } from "./order_status.ts";
import { settleRefund } from "./refunds.ts";
import { type FakeOrder, type FakeRefund, FakeState, type NotificationAttempt } from "./state.ts";
import { DEFAULT_SWITCHES, type FakePayuSwitches, type FakePayuSwitchesPatch } from "./switches.ts";
import { expireTokens, revokeTokens } from "./tokens.ts";
import { connectionRefused, listen } from "../shared/server.ts";
import { Timers } from "../shared/timers.ts";

export type { FakePayuCredentials } from "./context.ts";
export type { FakeOrder, FakeRefund, NotificationAttempt } from "./state.ts";
export type { FakePayuSwitches, FakePayuSwitchesPatch } from "./switches.ts";
export type { BankResult } from "./bank.ts";

/** PayU's public sandbox test POS (developers.payu.com, "Testing"), the fake's default keys. */
export const PAYU_SANDBOX_POS: FakePayuCredentials = {
  posId: "300746",
  clientId: "300746",
  clientSecret: "2ee86a66e5d97e3fadc400c9f19b065d",
  secondKey: "b6ca15b0d1020e8094d9b5f8d163db54",
};

/** How to build a fake PayU. */
export interface FakePayuOptions extends Partial<FakePayuCredentials> {
  switches?: FakePayuSwitchesPatch;
  /** How notifications reach notify URLs; `fetch` by default, an app's handler in-process. */
  notifyFetch?: NotifyFetch;
  /** The fake's own address, for redirectUri and logos; set by `startFakePayu`. */
  baseUrl?: string;
  now?: () => number;
}

/** A fake PayU and its test controls. */
export interface FakePayu {
  /** Answers a request as PayU would (and /__fake/... control requests). */
  fetch(request: Request): Promise<Response>;
  readonly credentials: FakePayuCredentials;
  /** Every order, oldest first. */
  orders(): FakeOrder[];
  /** Every refund, oldest first. */
  refunds(): FakeRefund[];
  /** Every notification attempt, oldest first. */
  notifications(): NotificationAttempt[];
  /** The current switches (a copy). */
  switches(): FakePayuSwitches;
  /** Changes some switches; throws on an invalid value. */
  set(patch: FakePayuSwitchesPatch): FakePayuSwitches;
  /** Invalidates every token issued so far; returns how many. */
  revokeTokens(): number;
  /** Makes every token issued so far expired; returns how many. */
  expireTokens(): number;
  /** Decides an undecided order now (the customer confirms or refuses); false if decided. */
  decide(orderId: string, status: "COMPLETED" | "CANCELED"): boolean;
  /**
   * Pays or declines a redirect order at the bank, as its page's button does (`method`: the
   * pay wall's choice); null for no such redirect order.
   */
  bank(orderId: string, action: "pay" | "decline", method?: string): BankResult | null;
  /** Decides a PENDING refund now; false if decided. */
  decideRefund(refundId: string, status: "FINALIZED" | "CANCELED"): boolean;
  /** Refuses connections for `ms`: `fetch` throws as for a closed port; a listener closes. */
  refuseFor(ms: number): void;
  /** Resolves once no outcome, notification or retry is scheduled or running. */
  idle(): Promise<void>;
  /** Stops every timer and retry. */
  close(): void;
}

/** Builds a fake PayU answering through `fetch`, without listening anywhere. */
export function createFakePayu(options: FakePayuOptions = {}): FakePayu {
  return build(options).fake;
}

interface Built {
  fake: FakePayu;
  setBaseUrl(url: string): void;
  /** Hands refusing over to a listener. */
  setRefuse(refuse: (ms: number) => void): void;
}

function build(options: FakePayuOptions): Built {
  const credentials: FakePayuCredentials = {
    posId: options.posId ?? PAYU_SANDBOX_POS.posId,
    clientId: options.clientId ?? PAYU_SANDBOX_POS.clientId,
    clientSecret: options.clientSecret ?? PAYU_SANDBOX_POS.clientSecret,
    secondKey: options.secondKey ?? PAYU_SANDBOX_POS.secondKey,
  };
  const switches: FakePayuSwitches = structuredClone(DEFAULT_SWITCHES);
  const state = new FakeState();
  const timers = new Timers();
  const now = options.now ?? Date.now;
  let baseUrl = options.baseUrl ?? "http://127.0.0.1";
  let refusedUntil = 0;
  let refuse = (ms: number): void => {
    refusedUntil = Date.now() + ms;
  };
  const notifier = new Notifier({
    state,
    timers,
    switches: () => switches,
    secondKey: credentials.secondKey,
    fetch: options.notifyFetch ?? ((request) => fetch(request)),
    now,
  });
  const ctx: FakeContext = {
    credentials,
    state,
    timers,
    notifier,
    switches: () => switches,
    now,
    baseUrl: () => baseUrl,
    refuseFor: (ms) => refuse(ms),
  };
  const set = (patch: FakePayuSwitchesPatch) => {
    const error = applySwitches(ctx, patch);
    if (error !== null) throw new Error(`Invalid fake PayU switch: ${error}`);
    return structuredClone(switches);
  };
  if (options.switches) set(options.switches);
  const app = fakePayuApp(ctx);
  const fake: FakePayu = {
    fetch: (request) => {
      if (Date.now() < refusedUntil) return Promise.reject(connectionRefused(request.url));
      return Promise.resolve(app.fetch(request));
    },
    credentials,
    orders: () => [...state.orders.values()],
    refunds: () => [...state.refunds.values()],
    notifications: () => [...state.notifications],
    switches: () => structuredClone(switches),
    set,
    revokeTokens: () => revokeTokens(ctx),
    expireTokens: () => expireTokens(ctx),
    decide: (orderId, status) => settleOrder(ctx, orderId, status, null),
    bank: (orderId, action, method) => {
      const order = state.orders.get(orderId);
      return !order || order.flow === "blik" ? null : actAtBank(ctx, order, action, method);
    },
    decideRefund: (refundId, status) => settleRefund(ctx, refundId, status),
    refuseFor: (ms) => refuse(ms),
    idle: () => timers.idle(),
    close: () => timers.close(),
  };
  return {
    fake,
    setBaseUrl: (url) => baseUrl = url,
    setRefuse: (next) => refuse = next,
  };
}

/** A fake PayU listening on a port. */
export interface RunningFakePayu extends Omit<FakePayu, "close"> {
  /** e.g. `http://127.0.0.1:8790`: PAYU_API_URL for Paystead. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts a fake PayU on `hostname:port` (127.0.0.1 and a free port by default). */
export async function startFakePayu(
  options: FakePayuOptions & { port?: number; hostname?: string } = {},
): Promise<RunningFakePayu> {
  const { fake, setBaseUrl, setRefuse } = build(options);
  const listener = await listen((request) => fake.fetch(request), {
    port: options.port ?? 0,
    hostname: options.hostname ?? "127.0.0.1",
  });
  if (!options.baseUrl) setBaseUrl(listener.url);
  setRefuse((ms) => listener.refuseFor(ms));
  return {
    ...fake,
    url: listener.url,
    port: listener.port,
    close: async () => {
      fake.close();
      await listener.close();
    },
  };
}
