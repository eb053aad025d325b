/**
 * A least-recently-used cache of at most `max` entries. A Map iterates in insertion order,
 * so re-inserting a key on each read keeps the least recently used entry first.
 */
export class LruCache {
  constructor({ max }) {
    this.max = max;
    this.map = new Map();
  }

  get size() {
    return this.map.size;
  }

  has(key) {
    return this.map.has(key);
  }

  get(key) {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key);
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key, value) {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value);
    return this;
  }

  delete(key) {
    return this.map.delete(key);
  }
}
