/**
 * A token bucket: holds up to `capacity` tokens and refills `refillPerSec` tokens a second.
 * Time comes from `now()` (milliseconds) so callers and tests control the clock.
 */
export class TokenBucket {
  constructor({ capacity, refillPerSec, now = Date.now }) {
    this.capacity = capacity;
    this.refillPerSec = refillPerSec;
    this.now = now;
    this.tokens = capacity;
    this.last = now();
  }

  refill() {
    const t = this.now();
    const elapsedSec = (t - this.last) / 1000;
    this.tokens = Math.min(this.capacity, this.tokens + elapsedSec * this.refillPerSec);
    this.last = t;
  }

  /** Takes `n` tokens when there are enough; says whether it did. */
  tryTake(n = 1) {
    this.refill();
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }

  /** Milliseconds until `tryTake(n)` would succeed: 0 when it would now. */
  waitTime(n = 1) {
    this.refill();
    const missing = n - this.tokens;
    if (missing <= 0) return 0;
    if (this.refillPerSec === 0) return Number.POSITIVE_INFINITY;
    return Math.ceil((missing / this.refillPerSec) * 1000);
  }
}
