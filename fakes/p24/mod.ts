/**
 * A faithful fake of Przelewy24's REST API v1 surface a shop uses (register with its SHA-384
 * sign, BLIK by code, the transaction panel for the other methods, notifications, verify, the
 * lookup by sessionId, payment methods, refunds and the transaction report), built from P24's
 * public documentation, with switches for late, repeated, missing and failing answers.
 * In-process (`createFakeP24`) for tests through `fetch`, or listening (`startFakeP24`) for a
 * real Paystead process and `deno task cli fake-p24`.
 */
import { actAtBank, type BankResult } from "./bank.ts";
import type { FakeP24Credentials, P24Context } from "./context.ts";
import { applySwitches } from "./control.ts";
import { fakeP24App } from "./http.ts";
import { Notifier, type NotifyFetch } from "./notifier.ts";
import {
  type FakeRefund,
  FakeState,
  type FakeTransaction,
  type NotificationAttempt,
  type Verification,
} from "./state.ts";
import { DEFAULT_SWITCHES, type FakeP24Switches, type FakeP24SwitchesPatch } from "./switches.ts";
import { connectionRefused, listen } from "../shared/server.ts";
import { Timers } from "../shared/timers.ts";

export type { FakeP24Credentials } from "./context.ts";
export type { FakeRefund, FakeTransaction, NotificationAttempt, Verification } from "./state.ts";
export type { FakeP24Switches, FakeP24SwitchesPatch } from "./switches.ts";
export type { BankResult } from "./bank.ts";
export { BLIK_OUTCOMES } from "./blik.ts";
export { BLIK_METHOD_ID, METHODS } from "./methods.ts";

/** The fake's default account (P24 publishes no public sandbox account to borrow). */
export const FAKE_P24_ACCOUNT: FakeP24Credentials = {
  merchantId: 271828,
  posId: 271828,
  crc: "f1e2d3c4b5a69788",
  apiKey: "a1b2c3d4e5f60718293a4b5c6d7e8f90",
};

/** How to build a fake P24. */
export interface FakeP24Options extends Partial<FakeP24Credentials> {
  switches?: FakeP24SwitchesPatch;
  /** How notifications reach their URLs; `fetch` by default, an app's handler in-process. */
  notifyFetch?: NotifyFetch;
  /** The fake's own address, for trnRequest links and logos; set by `startFakeP24`. */
  baseUrl?: string;
  now?: () => number;
}

/** A fake P24 and its test controls. */
export interface FakeP24 {
  /** Answers a request as P24 would (and /__fake/... control requests). */
  fetch(request: Request): Promise<Response>;
  readonly credentials: FakeP24Credentials;
  /** Every transaction, oldest first. */
  transactions(): FakeTransaction[];
  /** Every refund, oldest first. */
  refunds(): FakeRefund[];
  /** Every notification attempt, oldest first. */
  notifications(): NotificationAttempt[];
  /** Every transaction/verify call, oldest first. */
  verifications(): Verification[];
  /** The current switches (a copy). */
  switches(): FakeP24Switches;
  /** Changes some switches; throws on an invalid value. */
  set(patch: FakeP24SwitchesPatch): FakeP24Switches;
  /** Pays or declines on the transaction panel, as its buttons do; null for no such session. */
  bank(sessionId: string, action: "pay" | "decline", methodId?: number): Promise<BankResult | null>;
  /** Refuses connections for `ms`: `fetch` throws as for a closed port; a listener closes. */
  refuseFor(ms: number): void;
  /** Resolves once no outcome or first notification is scheduled or running. */
  idle(): Promise<void>;
  /** Stops every timer and retry. */
  close(): void;
}

/** Builds a fake P24 answering through `fetch`, without listening anywhere. */
export function createFakeP24(options: FakeP24Options = {}): FakeP24 {
  return build(options).fake;
}

interface Built {
  fake: FakeP24;
  setBaseUrl(url: string): void;
  setRefuse(refuse: (ms: number) => void): void;
}

function build(options: FakeP24Options): Built {
  const merchantId = options.merchantId ?? FAKE_P24_ACCOUNT.merchantId;
  const credentials: FakeP24Credentials = {
    merchantId,
    // "Shop identification number (defaults to merchant ID)".
    posId: options.posId ??
      (options.merchantId === undefined ? FAKE_P24_ACCOUNT.posId : merchantId),
    crc: options.crc ?? FAKE_P24_ACCOUNT.crc,
    apiKey: options.apiKey ?? FAKE_P24_ACCOUNT.apiKey,
  };
  const switches: FakeP24Switches = structuredClone(DEFAULT_SWITCHES);
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
    fetch: options.notifyFetch ?? ((request) => fetch(request)),
    now,
  });
  const ctx: P24Context = {
    credentials,
    state,
    timers,
    notifier,
    switches: () => switches,
    now,
    baseUrl: () => baseUrl,
    refuseFor: (ms) => refuse(ms),
  };
  const set = (patch: FakeP24SwitchesPatch) => {
    const error = applySwitches(ctx, patch);
    if (error !== null) throw new Error(`Invalid fake Przelewy24 switch: ${error}`);
    return structuredClone(switches);
  };
  if (options.switches) set(options.switches);
  const app = fakeP24App(ctx);
  const fake: FakeP24 = {
    fetch: (request) => {
      if (Date.now() < refusedUntil) return Promise.reject(connectionRefused(request.url));
      return Promise.resolve(app.fetch(request));
    },
    credentials,
    transactions: () => [...state.transactions.values()],
    refunds: () => [...state.refunds],
    notifications: () => [...state.notifications],
    verifications: () => [...state.verifications],
    switches: () => structuredClone(switches),
    set,
    bank: async (sessionId, action, methodId) => {
      const t = state.bySessionId(sessionId);
      return t ? await actAtBank(ctx, t, action, methodId) : null;
    },
    refuseFor: (ms) => refuse(ms),
    idle: () => timers.idle(),
    close: () => timers.close(),
  };
  return { fake, setBaseUrl: (url) => baseUrl = url, setRefuse: (next) => refuse = next };
}

/** A fake P24 listening on a port. */
export interface RunningFakeP24 extends Omit<FakeP24, "close"> {
  /** e.g. `http://127.0.0.1:8791`: P24_API_URL for Paystead. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Starts a fake P24 on `hostname:port` (127.0.0.1 and a free port by default). */
export async function startFakeP24(
  options: FakeP24Options & { port?: number; hostname?: string } = {},
): Promise<RunningFakeP24> {
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
