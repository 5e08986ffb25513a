import { createHmac, randomBytes } from "node:crypto";

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
