/**
 * A least-recently-used cache of at most `max` entries, each expiring `ttlMs` after it was
 * set (no expiry when ttlMs is omitted). A Map iterates in insertion order, so re-inserting a
 * key on each read keeps the least recently used entry first. `now()` is the clock (ms).
 */
export class LruCache {
  constructor({ max, ttlMs = Number.POSITIVE_INFINITY, now = Date.now }) {
    this.max = max;
    this.ttlMs = ttlMs;
    this.now = now;
    this.map = new Map();
  }

  get size() {
    return this.map.size;
  }

  // The live entry for `key`, dropping it when it has expired.
  entry(key) {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    if (this.now() >= e.expiresAt) {
      this.map.delete(key);
      return undefined;
    }
    return e;
  }

  has(key) {
    return this.entry(key) !== undefined;
  }

  get(key) {
    const e = this.entry(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  /** The value without making it recently used (for metrics and debugging). */
  peek(key) {
    return this.entry(key)?.value;
  }

  set(key, value) {
    this.map.delete(key);
    this.map.set(key, { value, expiresAt: this.now() + this.ttlMs });
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value);
    return this;
  }

  delete(key) {
    return this.map.delete(key);
  }
}
