/** When a transition decided on a windowed aggregate must decide again on the whole one. */
import type { GoalState, TransitionResult } from "@loopx/core";

/**
 * Whether a transition on a windowed aggregate may have needed something the window left
 * out: it found nothing by a key (which may name a finished todo, gate or PR), whether it
 * refused or went on without it; or an open todo now waits on a todo or PR its state does
 * not hold (only finished ones are left out). Either way the store decides again on the
 * whole aggregate.
 */
export function reachedPastWindow(result: TransitionResult): boolean {
  if (!result.ok) return result.refusal.code === "not_found";
  if (result.unresolved !== undefined && result.unresolved.length > 0) return true;
  const { todos, pullRequests } = result.state;
  let keys: Set<string> | null = null;
  let prs: Set<number> | null = null;
  for (const todo of todos) {
    const rw = todo.resumeWhen;
    if (rw === null || todo.status === "done" || todo.status === "dropped") continue;
    if (rw.kind === "todo_done") {
      keys ??= new Set(todos.map((t) => t.key));
      if (!keys.has(rw.todo)) return true;
    } else if (rw.kind === "pr_merged") {
      prs ??= new Set(pullRequests.map((p) => p.number));
      if (!prs.has(rw.pr)) return true;
    }
  }
  return false;
}

/**
 * Whether the transition gave loaded todos positions they did not hold between them (a
 * move renumbers the whole plan). Exchanging positions among loaded todos, or placing a new
 * one past the lowest or highest (both always loaded), cannot meet a position a todo left
 * out of the window holds; any other new position might, so the store decides again on the
 * whole aggregate.
 */
export function movedPastWindow(before: GoalState, result: TransitionResult): boolean {
  if (!result.ok) return false;
  const held = new Map<string, number>();
  for (const t of before.todos) held.set(t.key, t.position);
  const was: number[] = [];
  const now: number[] = [];
  for (const t of result.state.todos) {
    const old = held.get(t.key);
    if (old === undefined || old === t.position) continue;
    was.push(old);
    now.push(t.position);
  }
  if (now.length === 0) return false;
  was.sort((a, b) => a - b);
  now.sort((a, b) => a - b);
  return now.some((p, i) => p !== was[i]);
}
