import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** Standard Webhooks' prefix of a signing secret. */
export const SECRET_PREFIX = "whsec_";

/** Returns a new signing secret: `whsec_` and the base64 of 32 random bytes. */
export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64");
}

/** One `v1,<base64 HMAC-SHA256>` over `{id}.{timestamp}.{body}` with a secret's decoded bytes. */
export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  const digest = createHmac("sha256", key).update(`${id}.${timestampSeconds}.`).update(body)
    .digest("base64");
  return `v1,${digest}`;
}

/**
 * The headers of one delivery attempt (Standard Webhooks v1). During a secret rotation both
 * secrets sign, newest first, so a receiver holding either one accepts the delivery.
 */
export function webhookHeaders(input: {
  id: string;
  timestampSeconds: number;
  body: string;
  secrets: readonly string[];
}): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "Paystead-Webhooks/1",
    "webhook-id": input.id,
    "webhook-timestamp": String(input.timestampSeconds),
    "webhook-signature": input.secrets
      .map((secret) => sign(secret, input.id, input.timestampSeconds, input.body)).join(" "),
  };
}

/** How far a receiver lets `webhook-timestamp` be from now (Standard Webhooks' 5 minutes). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

/**
 * Checks a received delivery as a receiver would (the sandbox inbox): why its signature does not
 * verify with any of `secrets` at `now`, or null when it does. Merchants' copy of this check is
 * examples/verify_webhook.ts; this one reuses `sign`, so signing and checking cannot drift apart.
 */
export function signatureProblem(
  body: string,
  headers: Headers,
  secrets: readonly string[],
  now: number,
): string | null {
  const id = headers.get("webhook-id");
  const timestamp = headers.get("webhook-timestamp");
  const signatures = headers.get("webhook-signature");
  if (!id || !timestamp || !signatures) {
    return "Missing webhook-id, webhook-timestamp or webhook-signature header.";
  }
  if (!/^\d{1,12}$/.test(timestamp)) return "webhook-timestamp is not a Unix time in seconds.";
  if (Math.abs(Math.floor(now / 1000) - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) {
    return "webhook-timestamp is outside the tolerance window (a replay, or a wrong clock).";
  }
  const given = signatures.split(" ").map((entry) => Buffer.from(entry));
  for (const secret of secrets) {
    const expected = Buffer.from(sign(secret, id, Number(timestamp), body));
    if (
      given.some((entry) => entry.length === expected.length && timingSafeEqual(entry, expected))
    ) {
      return null;
    }
  }
  return "No webhook-signature matches a signing secret.";
}
