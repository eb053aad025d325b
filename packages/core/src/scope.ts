import type { Gate } from "./schemas/gate.ts";

/**
 * The scopes that would cover `required`: itself and every prefix ending before a `:`
 * (`deploy:production:eu` is covered by `deploy:production` and `deploy`). Looking these up
 * in a set keeps coverage O(depth) instead of comparing against every gate.
 */
export function coveringScopes(required: string): readonly string[] {
  const cached = coveringCache.get(required);
  if (cached) return cached;
  const out = [required];
  let i = required.lastIndexOf(":");
  while (i > 0) {
    out.push(required.slice(0, i));
    i = required.lastIndexOf(":", i - 1);
  }
  // Scopes repeat across todos and calls; a bounded memo keeps decide() allocation-free here.
  if (coveringCache.size >= COVERING_CACHE_MAX) coveringCache.clear();
  coveringCache.set(required, out);
  return out;
}

const COVERING_CACHE_MAX = 10_000;
const coveringCache = new Map<string, readonly string[]>();

/** Whether a gate scope covers a required scope: equal, or a prefix ending at `:`. */
export function scopeCovers(gateScope: string, required: string): boolean {
  return required === gateScope || required.startsWith(`${gateScope}:`);
}

/**
 * What the gates and standing approvals say about scopes, precomputed once per decide().
 * Approved gates and `grantedScopes` grant; open and rejected gates block what is not granted.
 */
export interface ScopeIndex {
  granted: Set<string>;
  /** scope → keys of open or rejected gates that hold it (unresolved authority). */
  blocking: Map<string, string[]>;
}

export function buildScopeIndex(
  gates: readonly Gate[],
  grantedScopes: readonly string[],
): ScopeIndex {
  const granted = new Set<string>(grantedScopes);
  const blocking = new Map<string, string[]>();
  for (const gate of gates) {
    if (gate.status === "approved") {
      for (const s of gate.scopes) granted.add(s);
    } else if (gate.status === "open" || gate.status === "rejected") {
      for (const s of gate.scopes) {
        const keys = blocking.get(s);
        if (keys) keys.push(gate.key);
        else blocking.set(s, [gate.key]);
      }
    }
  }
  return { granted, blocking };
}

export function isScopeGranted(index: ScopeIndex, required: string): boolean {
  for (const s of coveringScopes(required)) if (index.granted.has(s)) return true;
  return false;
}

/**
 * Keys of the unresolved gates that block a todo needing `requiredScopes` (empty: not blocked).
 * A scope already granted is never blocked, even when a rejected gate also covers it.
 */
const NONE: readonly string[] = Object.freeze([]);

export function blockingGatesFor(
  index: ScopeIndex,
  requiredScopes: readonly string[],
): readonly string[] {
  if (index.blocking.size === 0 || requiredScopes.length === 0) return [];
  let keys: string[] | null = null;
  for (const required of requiredScopes) {
    const covering = coveringScopes(required);
    let granted = false;
    for (const s of covering) if (index.granted.has(s)) granted = true;
    if (granted) continue;
    for (const s of covering) {
      const gateKeys = index.blocking.get(s);
      if (!gateKeys) continue;
      keys ??= [];
      for (const k of gateKeys) if (!keys.includes(k)) keys.push(k);
    }
  }
  return keys ?? NONE;
}
