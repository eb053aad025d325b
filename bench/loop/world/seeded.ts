/**
 * Seeded draws for the scripted person. Its own copy of mulberry32 rather than the agent's:
 * the world and the agent under test must not share state or code paths, so a change to the
 * agent's randomness can never move the person's latencies.
 */

/** mulberry32: a 32-bit state PRNG, stable across platforms; enough for latencies. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the parts, with a separator so ["ab", "c"] and ["a", "bc"] differ. */
export function hash32(parts: readonly string[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    for (let i = 0; i < part.length; i++) {
      h ^= part.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    h ^= 0xff;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * The `n`th (0-based) draw of a kind, in whole minutes within `[lo, hi]`. Keyed by kind and
 * index rather than drawn from one stream, so the third review waits as long in every arm
 * whatever the arm made the person do in between.
 */
export function drawMinutes(seed: number, kind: string, n: number, [lo, hi]: [number, number]) {
  const u = mulberry32(hash32([String(seed), kind, String(n)]))();
  return lo + Math.floor(u * (hi - lo + 1));
}
