import type { HostChecker } from "../address_policy.ts";
import type { ReceiverAnswer } from "./pinned_request.ts";
import { parseRetryAfter } from "./retry.ts";

/** How long an attempt may take, DNS to the last byte read; the contract's 15 s. */
export const ATTEMPT_TIMEOUT_MS = 15_000;
/** How much of a response is kept for the panel (and read at all). */
const RESPONSE_BODY_LIMIT = 1024;

/** Why an attempt failed without a 2xx: a machine-readable code shown next to the message. */
export type AttemptErrorCode =
  | "http_status"
  | "redirect"
  | "timeout"
  | "connection_failed"
  | "dns_failed"
  | "address_not_allowed"
  | "lease_expired";

/** What came of one attempt. `aborted` means the process stopped: the attempt does not count. */
export interface AttemptOutcome {
  kind: "succeeded" | "failed" | "gone" | "aborted";
  responseStatus: number | null;
  responseBody: string | null;
  errorCode: AttemptErrorCode | null;
  errorMessage: string | null;
  retryAfterMs: number | null;
  durationMs: number;
}

/** Everything one attempt needs; the body and headers are sent exactly as given. */
interface AttemptRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /**
   * Under the address policy: checks the host resolves to public addresses only; the attempt
   * then connects to the addresses checked.
   */
  checkHost: HostChecker | null;
  /** Aborted when the process stops. */
  stop: AbortSignal;
  timeoutMs: number;
  /** Epoch ms, for reading an HTTP-date `Retry-After`. */
  now: number;
}

const decoder = new TextDecoder();

async function readBounded(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_BODY_LIMIT) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    // NOTE: never read a receiver's whole answer; cancelling drops the rest (and the connection).
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(bytes.subarray(0, RESPONSE_BODY_LIMIT));
}

function failure(
  code: AttemptErrorCode,
  message: string,
  durationMs: number,
): AttemptOutcome {
  return {
    kind: "failed",
    responseStatus: null,
    responseBody: null,
    errorCode: code,
    errorMessage: message,
    retryAfterMs: null,
    durationMs,
  };
}

/**
 * Makes one delivery attempt: a POST that never follows redirects, reads at most 1 KiB of the
 * answer and gives up after the timeout. 2xx succeeds, 410 means the endpoint is gone, anything
 * else (3xx included) fails. Never throws.
 */
export async function sendAttempt(request: AttemptRequest): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), request.timeoutMs);
  const signal = AbortSignal.any([request.stop, timeout.signal]);
  const aborted = (): AttemptOutcome | null => {
    if (request.stop.aborted) {
      return { ...failure("connection_failed", "Stopped.", elapsed()), kind: "aborted" };
    }
    if (timeout.signal.aborted) {
      return failure(
        "timeout",
        `No complete answer within ${request.timeoutMs / 1000} s.`,
        elapsed(),
      );
    }
    return null;
  };
  try {
    const init = { headers: request.headers, body: request.body, signal };
    let response: ReceiverAnswer;
    if (request.checkHost) {
      const url = new URL(request.url);
      const check = await request.checkHost(url, signal);
      if (!check.ok) return aborted() ?? failure(check.code, check.message, elapsed());
      // NOTE: node:http and node:https (with Node's TLS, sockets, DNS and streams: about a
      // hundred of Deno's modules) load at the first attempt under the address policy, by a
      // string literal that `deno compile` embeds: a process with no endpoint never holds them
      // (issue 34, idle memory). A failed import fails this attempt, which is retried.
      const { postToCheckedAddress } = await import("./pinned_request.ts");
      response = await postToCheckedAddress(url, check.addresses, init);
    } else {
      response = await fetch(request.url, { ...init, method: "POST", redirect: "manual" });
    }
    const responseBody = await readBounded(response.body);
    const status = response.status;
    const base = {
      responseStatus: status,
      responseBody,
      retryAfterMs: null,
      durationMs: elapsed(),
    };
    if (status >= 200 && status < 300) {
      return { ...base, kind: "succeeded", errorCode: null, errorMessage: null };
    }
    if (status === 410) {
      return {
        ...base,
        kind: "gone",
        errorCode: "http_status",
        errorMessage: "410 Gone: the endpoint asked to stop receiving webhooks.",
      };
    }
    const redirect = status >= 300 && status < 400;
    return {
      ...base,
      kind: "failed",
      retryAfterMs: parseRetryAfter(response.headers.get("retry-after"), request.now),
      errorCode: redirect ? "redirect" : "http_status",
      errorMessage: redirect
        ? `${status}: redirects are not followed; register the final URL.`
        : `${status}: a webhook succeeds only with a 2xx answer.`,
    };
  } catch (error) {
    return aborted() ?? failure("connection_failed", (error as Error).message, elapsed());
  } finally {
    clearTimeout(timer);
  }
}
