/**
 * How PayU signs a notification (developers.payu.com, "Notifications"): the header
 * `OpenPayu-Signature: sender=checkout;signature=<hex>;algorithm=<ALG>;content=DOCUMENT`, where
 * signature = hex(ALG(body + second key)).
 */
import { createHash } from "node:crypto";

/** The hashes PayU may choose for a POS, by the name it writes in `algorithm`. */
export const SIGNATURE_ALGORITHMS = {
  "MD5": "md5",
  "SHA-1": "sha1",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
} as const;
export type SignatureAlgorithm = keyof typeof SIGNATURE_ALGORITHMS;

/** The OpenPayu-Signature header value for `body`. */
export function signatureHeader(
  body: string,
  secondKey: string,
  algorithm: SignatureAlgorithm,
): string {
  const digest = createHash(SIGNATURE_ALGORITHMS[algorithm]).update(body + secondKey, "utf8")
    .digest("hex");
  return `sender=checkout;signature=${digest};algorithm=${algorithm};content=DOCUMENT`;
}
