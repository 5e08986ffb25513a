import type { Clock } from "./clock.ts";

/** The outcome of taking a token: allowed, or refused with how long until one is available. */
type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Token buckets per key (an API key, a client address): each holds up to `burst` tokens and
 * refills at `perSecond`. In memory, per process: N instances allow N times the rate.
 */
export class TokenBucketLimiter {
  readonly #perSecond: number;
  readonly #burst: number;
  readonly #clock: Clock;
  readonly #maxKeys: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: { perSecond: number; burst?: number; clock: Clock; maxKeys?: number }) {
    this.#perSecond = options.perSecond;
    this.#burst = options.burst ?? options.perSecond;
    this.#clock = options.clock;
    this.#maxKeys = options.maxKeys ?? 100_000;
  }

  /** Takes one token for `key` if there is one. */
  take(key: string): RateDecision {
    const now = this.#clock.now();
    let bucket = this.#buckets.get(key);
    if (bucket) {
      // A clock that steps back (NTP, a test clock) refills nothing rather than taking tokens.
      const refill = (Math.max(0, now - bucket.updatedAt) / 1000) * this.#perSecond;
      bucket.tokens = Math.min(this.#burst, bucket.tokens + refill);
      bucket.updatedAt = now;
    } else {
      // A full bucket is the same as no bucket, so idle keys can be forgotten when memory runs out.
      if (this.#buckets.size >= this.#maxKeys) this.#buckets.clear();
      bucket = { tokens: this.#burst, updatedAt: now };
      this.#buckets.set(key, bucket);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    return {
      allowed: false,
      retryAfterMs: Math.ceil(((1 - bucket.tokens) / this.#perSecond) * 1000),
    };
  }
}
