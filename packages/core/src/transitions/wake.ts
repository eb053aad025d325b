import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { addEffect, begin, emit, isRefused, requireTrusted, resetBackoff } from "./kit.ts";

/**
 * A writer's "run now": clears any backoff wait and dispatches a tick at once. The tick
 * still asks decide(), so a goal with nothing runnable only spends a tiny `ask` job.
 */
export function wakeGoal(state: GoalState, ctx: TransitionContext): TransitionResult {
  const denied = requireTrusted(ctx, "wake the goal");
  if (denied) return denied;
  const d = begin(state, ctx, { statuses: ["active"] });
  if (isRefused(d)) return d;
  resetBackoff(d, "woken");
  emit(d, "goal.woken", {});
  // Explicit, so it is sent even when this tick's automatic wake already went out.
  addEffect(d, {
    kind: "dispatch",
    key: `dispatch:v${state.goal.version + 1}`,
    reason: "a person asked to run now",
    at: ctx.now,
  });
  return commit(d);
}

/**
 * Re-renders the status comment (e.g. after someone edited or deleted it). Changes nothing
 * else; the ledger records who asked.
 */
export function requestStatus(state: GoalState, ctx: TransitionContext): TransitionResult {
  const denied = requireTrusted(ctx, "refresh the status");
  if (denied) return denied;
  const d = begin(state, ctx, { statuses: ["active", "paused", "stopped", "done"] });
  if (isRefused(d)) return d;
  emit(d, "goal.status_requested", {});
  d.status = true;
  return commit(d);
}
