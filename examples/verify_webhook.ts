/**
 * Verifies a Paystead webhook on the receiving side. Dependency-free (Web Crypto only), so it runs
 * unchanged in Deno, Node 20+, Bun, Cloudflare Workers and browsers: copy this file into your
 * receiver. Paystead signs with Standard Webhooks v1, so the `standardwebhooks` package works too.
 *
 *   const event = await verifyWebhook(await request.text(), request.headers, secret);
 *
 * Pass the raw body exactly as received: re-serialised JSON has different bytes and fails.
 */

/** Thrown when a delivery does not carry a valid, fresh signature; answer it with 400. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

/** Options of `verifyWebhook`. */
export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, in seconds; 300 by default. */
  toleranceSeconds?: number;
  /** The current time in epoch milliseconds; `Date.now()` by default. */
  now?: number;
}

const SECRET_PREFIX = "whsec_";
const encoder = new TextEncoder();

function header(headers: Headers | Record<string, string | undefined>, name: string) {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

function base64Bytes(text: string): ArrayBuffer | null {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const buffer = new ArrayBuffer(binary.length);
  const view = new Uint8Array(buffer);
  for (let index = 0; index < binary.length; index++) view[index] = binary.charCodeAt(index);
  return buffer;
}

/**
 * Checks `webhook-signature` against every secret you hold (pass two while you rotate) and the
 * timestamp against the tolerance window, then returns the parsed event. Throws
 * `WebhookVerificationError` otherwise.
 */
export async function verifyWebhook<T = unknown>(
  rawBody: string,
  headers: Headers | Record<string, string | undefined>,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): Promise<T> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError(
      "Missing webhook-id, webhook-timestamp or webhook-signature header.",
    );
  }
  if (!/^\d{1,12}$/.test(timestamp)) {
    throw new WebhookVerificationError("webhook-timestamp is not a Unix time in seconds.");
  }
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError(
      "webhook-timestamp is outside the tolerance window (a replay, or a wrong clock).",
    );
  }
  const candidates = signatures.split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => base64Bytes(entry.slice(3)))
    .filter((bytes): bytes is ArrayBuffer => bytes !== null);
  const signed = encoder.encode(`${id}.${timestamp}.${rawBody}`);
  for (const secret of typeof secrets === "string" ? [secrets] : secrets) {
    const keyBytes = base64Bytes(
      secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    );
    if (!keyBytes || keyBytes.byteLength === 0) {
      throw new WebhookVerificationError("A signing secret is not whsec_ followed by base64.");
    }
    const key = await crypto.subtle.importKey(
      "raw",
      keyBytes,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["verify"],
    );
    for (const candidate of candidates) {
      // subtle.verify compares in constant time.
      if (await crypto.subtle.verify("HMAC", key, candidate, signed)) {
        return JSON.parse(rawBody) as T;
      }
    }
  }
  throw new WebhookVerificationError("No webhook-signature matches a signing secret.");
}
