/**
 * A least-recently-used cache of at most `max` entries, each expiring `ttlMs` after it was
 * set (no expiry when ttlMs is omitted). A Map iterates in insertion order, so re-inserting a
 * key on each read keeps the least recently used entry first. `now()` is the clock (ms).
 * `onEvict(key, value, reason)` hears of entries the cache drops by itself ("capacity",
 * "expired"), so callers can release what the values hold; `delete()` is not reported.
 */
export class LruCache {
  constructor({
    max,
    ttlMs = Number.POSITIVE_INFINITY,
    now = Date.now,
    onEvict,
    onError = (error) => console.error("LruCache onEvict failed:", error),
  }) {
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`max must be a positive integer, got ${max}`);
    }
    if (!(ttlMs > 0)) throw new RangeError(`ttlMs must be a positive number, got ${ttlMs}`);
    if (onEvict !== undefined && typeof onEvict !== "function") {
      throw new TypeError("onEvict must be a function");
    }
    this.max = max;
    this.ttlMs = ttlMs;
    this.now = now;
    this.onEvict = onEvict;
    this.onError = onError;
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
      this.notify(key, e.value, "expired");
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
    if (this.map.size > this.max) {
      const [oldKey, old] = this.map.entries().next().value;
      this.map.delete(oldKey);
      this.notify(oldKey, old.value, "capacity");
    }
    return this;
  }

  // Runs once the cache is consistent again. A listener's bug must not turn the get() or set()
  // that triggered it into a failure, so its error goes to onError instead of the caller.
  notify(key, value, reason) {
    if (this.onEvict === undefined) return;
    try {
      this.onEvict(key, value, reason);
    } catch (error) {
      this.onError(error);
    }
  }

  delete(key) {
    return this.map.delete(key);
  }
}
