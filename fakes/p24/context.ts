/** What every part of the fake Przelewy24 shares, and the shape of its answers. */
import type { Notifier } from "./notifier.ts";
import type { FakeState } from "./state.ts";
import type { FakeP24Switches } from "./switches.ts";
import type { Timers } from "../shared/timers.ts";

/**
 * The account the fake accepts: the merchant and shop (POS) ids, the CRC key signs are made with,
 * and the API key ("secretId", the panel's "klucz do raportów") for HTTP Basic as posId:key.
 */
export interface FakeP24Credentials {
  merchantId: number;
  posId: number;
  crc: string;
  apiKey: string;
}

/** One fake P24's state and collaborators. */
export interface P24Context {
  credentials: FakeP24Credentials;
  state: FakeState;
  timers: Timers;
  notifier: Notifier;
  switches(): FakeP24Switches;
  now(): number;
  /** Where the fake is reachable, for trnRequest links and logos. */
  baseUrl(): string;
  /** Refuses connections for `ms` (closes the listener; in-process, `fetch` throws). */
  refuseFor(ms: number): void;
}

/** An answer before it becomes an HTTP response. */
export interface Reply {
  status: number;
  body: unknown;
}

/** P24's error body: `{error, code}`, the code being the HTTP status. */
export function p24Error(status: number, error: unknown): Reply {
  return { status, body: { error, code: status } };
}

/** A 400 "Invalid input data", with the reason kept for the control API. */
export function invalid(ctx: P24Context, path: string, reason: string): Reply {
  ctx.state.rejections.push({ at: new Date(ctx.now()).toISOString(), path, reason });
  return p24Error(400, "Invalid input data");
}
