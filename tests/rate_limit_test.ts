import assert from "node:assert/strict";
import { ManualClock } from "../lib/clock.ts";
import { TokenBucketLimiter } from "../lib/rate_limit.ts";

Deno.test("[rate limit] a bucket allows its burst, then refills at the rate", () => {
  const clock = new ManualClock();
  const limiter = new TokenBucketLimiter({ perSecond: 4, burst: 4, clock });
  for (let i = 0; i < 4; i++) assert.deepEqual(limiter.take("k"), { allowed: true });
  assert.deepEqual(limiter.take("k"), { allowed: false, retryAfterMs: 250 });
  assert.deepEqual(limiter.take("other"), { allowed: true });
  clock.advance(100);
  assert.deepEqual(limiter.take("k"), { allowed: false, retryAfterMs: 150 });
  clock.advance(150);
  assert.deepEqual(limiter.take("k"), { allowed: true });
  clock.advance(10_000);
  for (let i = 0; i < 4; i++) assert.deepEqual(limiter.take("k"), { allowed: true });
  assert.equal(limiter.take("k").allowed, false);
});

Deno.test("[rate limit] a clock stepping back takes no tokens", () => {
  const clock = new ManualClock();
  const limiter = new TokenBucketLimiter({ perSecond: 2, burst: 2, clock });
  assert.deepEqual(limiter.take("k"), { allowed: true });
  clock.advance(-86_400_000);
  assert.deepEqual(limiter.take("k"), { allowed: true });
  assert.deepEqual(limiter.take("k"), { allowed: false, retryAfterMs: 500 });
  clock.advance(500);
  assert.deepEqual(limiter.take("k"), { allowed: true });
});
