import { customAlphabet } from "nanoid";

/** Prefixes of every public identifier; the prefix tells a reader what the id names. */
const ID_PREFIXES = {
  offer: "qr",
  payment: "pay",
  paymentAttempt: "att",
  checkoutSession: "cs",
  refund: "re",
  subscription: "sub",
  subscriptionRenewal: "ren",
  event: "evt",
  webhookEndpoint: "we",
  webhookDelivery: "wd",
  webhookEndpointRecord: "wer",
  webhookRecovery: "wrc",
  apiKey: "key",
  request: "req",
  organisation: "org",
  user: "usr",
  invitation: "inv",
  sandboxInbox: "inb",
  customerEmail: "em",
  reconciliation: "rec",
} as const;

type IdKind = keyof typeof ID_PREFIXES;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 24 base62 characters carry about 143 random bits. */
const RANDOM_ID_LENGTH = 24;
const randomBase62 = customAlphabet(BASE62, RANDOM_ID_LENGTH);

/** Returns a new random identifier such as `pay_4f9T...`. */
export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomBase62()}`;
}

/** Returns a random base62 string of the given length, for secrets and tokens. */
export function randomToken(length: number): string {
  return customAlphabet(BASE62, length)();
}
