import type { GoalState } from "./schemas/state.ts";
import type { Tick } from "./schemas/tick.ts";
import type { Claim } from "./schemas/todo.ts";

/** A lease is live strictly before its expiry; at or after it, the claim is dead. */
export function isLeaseLive(claim: Claim | null, now: Date): claim is Claim {
  return claim !== null && claim.leaseExpiresAt.getTime() > now.getTime();
}

/**
 * The ticks still running: those whose todo's claim is live. A tick that was interrupted or
 * finished has let its claim go, whatever its own lease said.
 */
export function runningTicks(state: Pick<GoalState, "todos" | "ticks">, now: Date): Tick[] {
  const holding = new Set(
    state.todos.filter((t) => isLeaseLive(t.claim, now)).map((t) => t.claim?.tickId),
  );
  return state.ticks.filter((t) => holding.has(t.id));
}
