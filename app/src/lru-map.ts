/** A map of at most `limit` entries: reading or writing one makes it the newest. */
export interface LruMap<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
}

/** At most `limit` entries, the least recently used dropped first. */
export function createLruMap<V>(limit: number): LruMap<V> {
  const kept = new Map<string, V>();
  return {
    get(key) {
      const hit = kept.get(key);
      if (hit !== undefined) {
        kept.delete(key);
        kept.set(key, hit);
      }
      return hit;
    },
    set(key, value) {
      kept.delete(key);
      kept.set(key, value);
      for (const oldest of kept.keys()) {
        if (kept.size <= limit) break;
        kept.delete(oldest);
      }
    },
    delete: (key) => {
      kept.delete(key);
    },
  };
}
