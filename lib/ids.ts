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

/**
 * Kinds written with every payment and event. Their ids begin with the time they were made, so a
 * new row's entry in the id's index lands at the index's end, on the page the last one went to,
 * instead of on a random page of it: a create wrote about 5.5 pages to the WAL, now 2.6
 * (docs/performance.md).
 */
const TIME_ORDERED_KINDS: ReadonlySet<IdKind> = new Set([
  "payment",
  "checkoutSession",
  "refund",
  "subscriptionRenewal",
  "event",
  "webhookDelivery",
  "customerEmail",
]);

/** In ASCII order, so ids of the same length sort as their digits do. */
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 24 base62 characters carry about 143 random bits. */
const RANDOM_ID_LENGTH = 24;
const randomBase62 = customAlphabet(BASE62, RANDOM_ID_LENGTH);
/** 22 base62 characters, the contract's least, carry about 131 random bits. */
const ORDERED_RANDOM_LENGTH = 22;
const orderedRandomBase62 = customAlphabet(BASE62, ORDERED_RANDOM_LENGTH);
/** Milliseconds since 1970 in 8 base62 digits last until the year 8888. */
const TIME_DIGITS = 8;

/**
 * Returns a new identifier such as `qr_4f9T...`: 24 random characters after the prefix, or, for a
 * time-ordered kind, the time in milliseconds (8 characters) and then 22 random ones.
 */
export function newId(kind: IdKind): string {
  if (TIME_ORDERED_KINDS.has(kind)) {
    return `${ID_PREFIXES[kind]}_${timeDigits(Date.now())}${orderedRandomBase62()}`;
  }
  return `${ID_PREFIXES[kind]}_${randomBase62()}`;
}

function timeDigits(ms: number): string {
  let digits = "";
  for (let i = 0; i < TIME_DIGITS; i++) {
    digits = BASE62[ms % 62] + digits;
    ms = Math.floor(ms / 62);
  }
  return digits;
}

/** Returns a random base62 string of the given length, for secrets and tokens. */
export function randomToken(length: number): string {
  return customAlphabet(BASE62, length)();
}
