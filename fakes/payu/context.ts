/** What every part of the fake PayU shares, and the shape of its answers. */
import type { ZodError } from "zod";
import { STATUS_CODES, type StatusCode } from "./wire.ts";
import type { Notifier } from "./notifier.ts";
import type { FakeState } from "./state.ts";
import type { FakePayuSwitches } from "./switches.ts";
import type { Timers } from "../shared/timers.ts";

/** The POS and keys the fake accepts; PayU's panel shows the same four values. */
export interface FakePayuCredentials {
  posId: string;
  clientId: string;
  clientSecret: string;
  secondKey: string;
}

/** One fake PayU's state and collaborators. */
export interface FakeContext {
  credentials: FakePayuCredentials;
  state: FakeState;
  timers: Timers;
  notifier: Notifier;
  switches(): FakePayuSwitches;
  now(): number;
  /** Where the fake is reachable, for redirectUri and logos. */
  baseUrl(): string;
  /** Refuses connections for `ms` (closes the listener; in-process, `fetch` throws). */
  refuseFor(ms: number): void;
}

/** An answer before it becomes an HTTP response. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** PayU's error answer: the HTTP status its statusCode goes with, and a status object. */
export function payuError(
  statusCode: StatusCode,
  statusDesc: string,
  extra: { codeLiteral?: string; code?: string; httpStatus?: number } = {},
): Reply {
  return {
    status: extra.httpStatus ?? STATUS_CODES[statusCode],
    body: {
      status: {
        statusCode,
        severity: "ERROR",
        ...(extra.code === undefined ? {} : { code: extra.code }),
        ...(extra.codeLiteral === undefined ? {} : { codeLiteral: extra.codeLiteral }),
        statusDesc,
      },
    },
  };
}

/** PayU's 400 for a body that fails its schema: a missing field, or an invalid one. */
export function validationError(error: ZodError, input: unknown): Reply {
  const issue = error.issues[0];
  const field = issue.path.join(".") || "body";
  const missing = issue.code === "invalid_type" && valueAt(input, issue.path) === undefined;
  return missing
    ? payuError("ERROR_VALUE_MISSING", `Missing required field: ${field}`)
    : payuError("ERROR_VALUE_INVALID", `Invalid value of field: ${field}`);
}

/** PayU's 404 for an order or refund it does not know. */
export function notFound(what: string): Reply {
  return payuError("DATA_NOT_FOUND", `Could not find ${what}`);
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
