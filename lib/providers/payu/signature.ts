/**
 * PayU's notification signature: the `OpenPayu-Signature` header
 * `sender=checkout;signature=<hex>;algorithm=<ALG>;content=DOCUMENT`, where
 * signature = hex(hash(rawBody + secondKey)) and ALG is the hash PayU chose (MD5 by default).
 */
import { createHash, timingSafeEqual } from "node:crypto";

/** Hash names PayU puts in `algorithm`, mapped to node:crypto's names. */
const ALGORITHMS: Record<string, string> = {
  "MD5": "md5",
  "SHA": "sha1",
  "SHA1": "sha1",
  "SHA-1": "sha1",
  "SHA256": "sha256",
  "SHA-256": "sha256",
  "SHA384": "sha384",
  "SHA-384": "sha384",
  "SHA512": "sha512",
  "SHA-512": "sha512",
};

/** The algorithm names `signNotification` accepts, as PayU spells them. */
type SignatureAlgorithm = "MD5" | "SHA-1" | "SHA-256" | "SHA-384" | "SHA-512";

/** Signs a notification body the way PayU does; returns the header's value. */
export function signNotification(
  body: string,
  secondKey: string,
  algorithm: SignatureAlgorithm = "MD5",
): string {
  const digest = createHash(ALGORITHMS[algorithm]).update(body + secondKey, "utf8").digest("hex");
  return `sender=checkout;signature=${digest};algorithm=${algorithm};content=DOCUMENT`;
}

/** The header's parts; null when it is not `key=value;...` with one signature and one algorithm. */
export function parseSignatureHeader(
  header: string,
): { signature: string; algorithm: string } | null {
  const parts = new Map<string, string>();
  for (const part of header.split(";")) {
    if (part.trim() === "") continue;
    const at = part.indexOf("=");
    if (at <= 0) return null;
    const key = part.slice(0, at).trim().toLowerCase();
    if (parts.has(key)) return null;
    parts.set(key, part.slice(at + 1).trim());
  }
  const signature = parts.get("signature");
  const algorithm = parts.get("algorithm")?.toUpperCase();
  if (!signature || !algorithm) return null;
  return { signature, algorithm };
}

/**
 * Whether `header` is a valid PayU signature of the exact bytes received. False on anything
 * malformed, an unknown algorithm or an empty key; never throws.
 */
export function verifyNotificationSignature(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secondKey: string,
): Promise<boolean> {
  return Promise.resolve(verify(rawBody, header, secondKey));
}

function verify(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secondKey: string,
): boolean {
  if (!header || secondKey === "") return false;
  const parsed = parseSignatureHeader(header);
  if (!parsed) return false;
  const hash = ALGORITHMS[parsed.algorithm];
  if (!hash || !/^[0-9a-fA-F]+$/.test(parsed.signature)) return false;
  const expected = createHash(hash).update(rawBody).update(secondKey, "utf8").digest();
  const given = Buffer.from(parsed.signature, "hex");
  // NOTE: constant-time comparison, so the time taken leaks nothing about the expected value.
  return given.length === expected.length && timingSafeEqual(given, expected);
}
