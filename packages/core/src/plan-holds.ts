import type { Gate } from "./schemas/gate.ts";
import type { GoalState } from "./schemas/state.ts";

const HELD_SCOPE = /^plan:(T[1-9][0-9]*)$/;

/** The scope a plan gate holds one proposed todo by: `plan:T3`. */
export const planScope = (todoKey: string) => `plan:${todoKey}`;

/**
 * The todos a plan gate holds, or null when the gate is not one. A plan gate is LoopX's own:
 * no todo asked for it and no PR binds it (an agent's gate request always names its todo),
 * and each of its scopes names one held todo, so what a writer approves is exactly what the
 * gate listed when they read it.
 */
export function planGateHolds(gate: Gate): string[] | null {
  if (gate.todo !== null || gate.pr !== null) return null;
  const keys = gate.scopes.map((s) => HELD_SCOPE.exec(s)?.[1]);
  return keys.every((k) => k !== undefined) ? keys : null;
}

/** The goal's open plan gate, if any (there is at most one). */
export function openPlanGate(state: GoalState): Gate | undefined {
  return state.gates.find((g) => g.status === "open" && planGateHolds(g) !== null);
}
