import { TokenBucket } from "./token-bucket.mjs";

/**
 * One token bucket per key (a user, an IP), created on first use. A bucket that has refilled
 * to capacity is no different from a new one, so `prune()` may drop it to bound memory.
 */
export class KeyedLimiter {
  constructor({ capacity, refillPerSec, now = Date.now }) {
    this.options = { capacity, refillPerSec, now };
    // Built once so bad options fail here rather than on the first request.
    new TokenBucket(this.options);
    this.buckets = new Map();
  }

  bucket(key) {
    let b = this.buckets.get(key);
    if (!b) {
      b = new TokenBucket(this.options);
      this.buckets.set(key, b);
    }
    return b;
  }

  tryTake(key, n = 1) {
    return this.bucket(key).tryTake(n);
  }

  waitTime(key, n = 1) {
    return this.bucket(key).waitTime(n);
  }

  get size() {
    return this.buckets.size;
  }

  /** Drops every bucket that is full again; returns how many it dropped. */
  prune() {
    let dropped = 0;
    for (const [key, b] of this.buckets) {
      b.refill();
      if (b.tokens >= b.capacity) {
        this.buckets.delete(key);
        dropped += 1;
      }
    }
    return dropped;
  }
}
