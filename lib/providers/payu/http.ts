import { type Fetch, ProviderUnavailableError } from "../mod.ts";

export type { Fetch };

/** An answer of PayU: its HTTP status and JSON body (null when the body is not JSON). */
export interface PayuAnswer {
  status: number;
  body: unknown;
}

/**
 * Whether `error` says the connection was never made (refused, no route, unknown host): then
 * nothing reached PayU. Deno's fetch wraps the cause in a TypeError.
 */
function neverConnected(error: unknown): boolean {
  if (error instanceof Deno.errors.ConnectionRefused) return true;
  if (!(error instanceof TypeError)) return false;
  const text = `${error.message} ${String(error.cause ?? "")}`;
  return /\(Connect\)|Connection refused|dns error|failed to lookup address/i.test(text);
}

/**
 * Sends one request to PayU within `timeoutMs`, never following a redirect. Throws
 * `ProviderUnavailableError` when nothing reached PayU; any other failure (a timeout, a reset)
 * leaves the outcome unknown and is thrown as it is.
 */
export async function send(
  fetch: Fetch,
  request: { url: string; method: string; headers: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<PayuAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  // NOTE: raced against the signal too, so a fetch that ignores it (or a body that trickles)
  // still never holds the caller past the timeout.
  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {});
  let response: Response;
  let text: string;
  try {
    response = await Promise.race([
      fetch(
        new Request(request.url, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          redirect: "manual",
          signal,
        }),
      ),
      aborted,
    ]);
    text = await Promise.race([response.text(), aborted]);
  } catch (error) {
    if (neverConnected(error)) {
      throw new ProviderUnavailableError(
        `PayU could not be reached: ${request.method} ${request.url}`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
  let body: unknown = null;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: response.status, body };
}
