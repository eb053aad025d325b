/**
 * LoopX without its fencing, for the ablation: just before a report job sends its result, the
 * tick it speaks for is made live again whatever became of it — a lease that ran out, a tick
 * the App ended at GitHub's word that its run failed — so the App applies the result and
 * grants its push as for any live tick. The charge the tick's end made (its cap) is taken back,
 * as the result's own charge replaces it. The lease token still has to match: what is ablated
 * is the refusal of a stale holder, not the check of who holds. The rest is LoopX as shipped.
 */
import type { GoalState, TransitionResult } from "@loopx/core";
import type { Store } from "@loopx/store";

/** How long the reopened lease lasts: the report's own calls, not another slice. */
const REOPENED_MS = 10 * 60_000;

/** Reopens `tickId` when it is finished or its lease has run out; false when it was live. */
export async function unfence(store: Store, goalId: string, tickId: string): Promise<boolean> {
  const applied = await store.apply(goalId, (state, now) => reopen(state, tickId, now));
  return applied.ok;
}

function reopen(state: GoalState, tickId: string, now: Date): TransitionResult {
  const at = state.ticks.findIndex((t) => t.id === tickId);
  const tick = state.ticks[at];
  if (tick === undefined) {
    return { ok: false, refusal: { code: "not_found", message: `no tick ${tickId}` } };
  }
  if (tick.finishedAt === null && tick.leaseExpiresAt.getTime() > now.getTime()) {
    return { ok: false, refusal: { code: "duplicate", message: "the tick is live" } };
  }
  // An interrupted tick is ended by LoopX's own stop or pause, not by a stale lease.
  if (tick.failure === "stopped" || tick.failure === "paused") {
    return { ok: false, refusal: { code: "duplicate", message: "the tick was interrupted" } };
  }
  const charged = tick.cost;
  const spent = state.goal.spent;
  const ticks = [...state.ticks];
  ticks[at] = {
    ...tick,
    finishedAt: null,
    outcome: null,
    failure: null,
    cost: null,
    leaseExpiresAt: new Date(now.getTime() + REOPENED_MS),
  };
  const goal = {
    ...state.goal,
    version: state.goal.version + 1,
    spent:
      charged === null
        ? spent
        : {
            usd: Math.max(0, spent.usd - charged.usd),
            tokens: Math.max(0, spent.tokens - charged.tokens),
            runnerMinutes: Math.max(0, spent.runnerMinutes - charged.runnerMinutes),
            ticks: Math.max(0, spent.ticks - 1),
          },
  };
  return { ok: true, state: { ...state, goal, ticks }, events: [], effects: [] };
}
