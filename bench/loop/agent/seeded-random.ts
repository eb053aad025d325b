/**
 * Deterministic draws for the agent's profiles. Math.random would make two runs of the same
 * arm differ for reasons that are not the control plane's.
 */

/** mulberry32: a 32-bit state PRNG; good enough for coin flips, and stable across platforms. */
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

/**
 * A slice's seed in a workflow run: the given one mixed with the run's id and attempt, so each
 * run of a workflow draws anew and a rerun of the same attempt draws the same; outside a run,
 * the given one.
 */
export function workflowRunSeed(seed: number, run: { id?: string; attempt?: string }): number {
  return run.id ? hash32([String(seed), run.id, run.attempt ?? "1"]) : seed;
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
