import { createHash } from "node:crypto";
import { generateSigningSecret, webhookHeaders } from "../webhooks/signing.ts";
import { ApiCallError, type ApiTarget, authHeaders, callApi, failure } from "./api_client.ts";
import { SseParser } from "./sse.ts";

/** How `listen` runs: where it reads, where it forwards, and where it keeps its state. */
interface ListenOptions extends ApiTarget {
  /** The full URL events are POSTed to; its path and query are kept. */
  forwardTo: string;
  /** Event types or families to forward (`payment.*`); all when absent. */
  events?: string[];
  /** Extra headers for every forwarded request. */
  headers?: Record<string, string>;
  /** The folder holding the secret and the last forwarded event id. */
  stateDir: string;
  /** Sign with this webhook endpoint's secret (`we_...`) instead of listen's own. */
  endpointId?: string;
  print: (line: string) => void;
  /** Aborting stops listening after the event in flight. */
  signal: AbortSignal;
  /** Delays between the attempts of one forward (their count + 1 attempts in all). */
  retryDelaysMs?: number[];
}

/** What `listen` keeps between runs. */
interface ListenState {
  secret: string;
  /** The last forwarded event id, per API host and key. */
  cursors: Record<string, string>;
}

const DEFAULT_RETRY_DELAYS_MS = [500, 1000, 2000, 4000];
const FORWARD_TIMEOUT_MS = 10_000;
const RECONNECT_MAX_MS = 30_000;

/** The file `listen` keeps its state in. */
function statePath(stateDir: string): string {
  return `${stateDir}/listen.json`;
}

async function readState(path: string): Promise<ListenState | null> {
  try {
    return JSON.parse(await Deno.readTextFile(path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Writes the state whole or not at all (a kill -9 leaves the old file), readable by its owner only. */
async function writeState(path: string, state: ListenState): Promise<void> {
  const temporary = `${path}.tmp`;
  await Deno.writeTextFile(temporary, JSON.stringify(state, null, 2) + "\n", { mode: 0o600 });
  await Deno.rename(temporary, path);
}

function cursorKey(target: ApiTarget): string {
  const key = createHash("sha256").update(target.apiKey).digest("hex").slice(0, 16);
  return `${target.host} ${key}`;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

/**
 * Forwards one event: its exact bytes, signed the Standard Webhooks way, retried with backoff
 * a few times. Returns whether the receiver took it; a stop request ends the retries.
 */
async function forward(
  options: ListenOptions,
  secret: string,
  event: { id: string; type: string; body: string },
): Promise<boolean> {
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  for (let attempt = 0;; attempt++) {
    options.print(`--> ${event.type} ${event.id}${attempt > 0 ? ` (retry ${attempt})` : ""}`);
    const started = performance.now();
    try {
      const response = await fetch(options.forwardTo, {
        method: "POST",
        headers: {
          ...options.headers,
          ...webhookHeaders({
            id: event.id,
            timestampSeconds: Math.floor(Date.now() / 1000),
            body: event.body,
            secrets: [secret],
          }),
        },
        body: event.body,
        redirect: "manual",
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      await response.body?.cancel();
      const ms = Math.round(performance.now() - started);
      options.print(`<-- ${response.status} ${ms} ms`);
      if (response.status >= 200 && response.status < 300) return true;
    } catch (error) {
      options.print(`<-- failed: ${(error as Error).message}`);
    }
    if (attempt >= delays.length || options.signal.aborted) {
      options.print(
        `!!! gave up on ${event.id} after ${attempt + 1} attempts; resend it with ` +
          `POST /api/v1/events/${event.id}/resend or recover its time window`,
      );
      return false;
    }
    await sleep(delays[attempt], options.signal);
  }
}

/**
 * Follows the event stream and forwards each event to a local URL, until the signal aborts.
 * The secret and the last forwarded event id are kept in the state folder, so a restart uses
 * the same secret and resumes after the last event it forwarded: nothing is lost while it was
 * down, and the stream replays what was missed oldest first.
 */
export async function listen(options: ListenOptions): Promise<void> {
  await Deno.mkdir(options.stateDir, { recursive: true });
  const path = statePath(options.stateDir);
  const state: ListenState = (await readState(path)) ??
    { secret: generateSigningSecret(), cursors: {} };
  await writeState(path, state);
  const key = cursorKey(options);
  let secret = state.secret;
  if (options.endpointId) {
    const endpoint = encodeURIComponent(options.endpointId);
    ({ secret } = await callApi<{ secret: string }>(
      options,
      "GET",
      `/api/v1/webhook-endpoints/${endpoint}/secret`,
    ));
    options.print(
      `Ready. Signing with the secret of webhook endpoint ${options.endpointId}, as its ` +
        "deliveries are: a receiver set up with that secret verifies these.",
    );
  } else {
    // NOTE: a receiver set up with an endpoint's secret rejects these: say so where it shows.
    options.print(`Ready. Webhook signing secret: ${state.secret} (kept in ${path})`);
    options.print(
      "This is listen's own secret, not a webhook endpoint's: give it to your receiver while " +
        "you test, or pass --endpoint we_... to sign with that endpoint's secret.",
    );
  }
  options.print(`Forwarding events to ${options.forwardTo}; Ctrl-C stops.`);

  const query = options.events ? `?types=${encodeURIComponent(options.events.join(","))}` : "";
  let reconnectMs = 500;
  while (!options.signal.aborted) {
    const cursor = state.cursors[key];
    const reading = new AbortController();
    const stop = () => reading.abort();
    options.signal.addEventListener("abort", stop, { once: true });
    try {
      const response = await fetch(`${options.host}/api/v1/events/stream${query}`, {
        headers: {
          ...authHeaders(options),
          accept: "text/event-stream",
          ...(cursor !== undefined && { "last-event-id": cursor }),
        },
        signal: reading.signal,
      });
      if (!response.ok) {
        const error = await failure(response, "The event stream answered");
        if (error.param === "Last-Event-ID") {
          options.print(`The last forwarded event ${cursor} is unknown here; starting from now.`);
          delete state.cursors[key];
          continue;
        }
        if (response.status !== 429 && response.status < 500) throw error;
        options.print(`${error.message}; retrying in ${reconnectMs} ms`);
      } else {
        options.print(cursor ? `Connected; resuming after ${cursor}.` : "Connected.");
        reconnectMs = 500;
        const parser = new SseParser();
        const decoder = new TextDecoder();
        for await (const chunk of response.body!) {
          for (const message of parser.push(decoder.decode(chunk, { stream: true }))) {
            if (message.kind !== "event" || message.id === null) continue;
            await forward(options, secret, {
              id: message.id,
              type: message.event ?? "",
              body: message.data,
            });
            state.cursors[key] = message.id;
            await writeState(path, state);
            if (options.signal.aborted) break;
          }
          if (options.signal.aborted) break;
        }
        if (!options.signal.aborted) options.print("The stream ended; reconnecting.");
      }
    } catch (error) {
      if (options.signal.aborted) break;
      if (error instanceof ApiCallError) throw error;
      options.print(`Connection lost (${(error as Error).message}); retrying in ${reconnectMs} ms`);
    } finally {
      options.signal.removeEventListener("abort", stop);
      reading.abort();
    }
    await sleep(reconnectMs, options.signal);
    reconnectMs = Math.min(reconnectMs * 2, RECONNECT_MAX_MS);
  }
  options.print("Stopped.");
}
