import { runningTicks } from "./lease.ts";
import { matchesGlob } from "./path-rules.ts";
import { TickSlot } from "./schemas/primitives.ts";
import type { GoalState } from "./schemas/state.ts";
import type { Todo } from "./schemas/todo.ts";

const WILD = /[*?]/;

/**
 * Whether two globs can match one path. Exact for a literal path; for two patterns it asks
 * only whether their literal prefixes agree, so it may say yes where no path matches both —
 * erring that way only keeps two todos from running together.
 */
export function globsOverlap(a: string, b: string): boolean {
  const aWild = WILD.exec(a);
  const bWild = WILD.exec(b);
  if (!aWild) return matchesGlob(a, b);
  if (!bWild) return matchesGlob(b, a);
  const pa = a.slice(0, aWild.index);
  const pb = b.slice(0, bWild.index);
  return pa.startsWith(pb) || pb.startsWith(pa);
}

/** `deploy` and `deploy:production` overlap: a gate on one would cover the other. */
function scopesOverlap(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}:`) || b.startsWith(`${a}:`);
}

/**
 * Whether two todos may not run at once: a todo that declares no paths may touch anything,
 * and two that share a path or a scope would race on it.
 */
export function todosOverlap(
  a: Pick<Todo, "paths" | "requiredScopes">,
  b: Pick<Todo, "paths" | "requiredScopes">,
): boolean {
  if (a.paths.length === 0 || b.paths.length === 0) return true;
  if (a.requiredScopes.some((s) => b.requiredScopes.some((t) => scopesOverlap(s, t)))) return true;
  return a.paths.some((p) => b.paths.some((q) => globsOverlap(p, q)));
}

/** The paths of `changed` that fall under another running todo's declared globs, with whose. */
export function pathsHeldBy(
  changed: readonly string[],
  others: readonly Pick<Todo, "key" | "paths">[],
): { path: string; todo: string }[] {
  const held: { path: string; todo: string }[] = [];
  for (const path of changed) {
    const other = others.find((o) => o.paths.some((g) => matchesGlob(path, g)));
    if (other) held.push({ path, todo: other.key });
  }
  return held;
}

/**
 * The slot a new tick of this goal should run in: "" while the goal runs one tick at a time,
 * else the lowest of "1".."parallel" no live lease holds; null when every slot is taken.
 */
export function freeTickSlot(state: GoalState, now: Date): TickSlot | null {
  if (state.goal.parallel <= 1) return "";
  return freeTickSlots(state, now)[0] ?? null;
}

/** Every slot of "1".."parallel" no live lease holds, lowest first ([""] at parallel 1). */
export function freeTickSlots(state: GoalState, now: Date): TickSlot[] {
  if (state.goal.parallel <= 1) return [""];
  const taken = new Set(runningTicks(state, now).map((t) => t.slot));
  const free: TickSlot[] = [];
  for (let n = 1; n <= state.goal.parallel; n++) {
    const slot = TickSlot.parse(String(n));
    if (!taken.has(slot)) free.push(slot);
  }
  return free;
}
