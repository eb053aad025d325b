/**
 * Where an ablation of LoopX acts from outside the App, as the arm plays: without leases,
 * every live lease is renewed before any clock moves (hold-leases.ts); without fencing, a
 * report's tick is reopened just before it sends its result (drop-fencing.ts). LoopX as
 * shipped, and the ablations written into its config or options, do nothing here.
 */
import type { Store } from "@loopx/store";
import type { LoopxPart } from "../arm-types.ts";
import { unfence } from "./drop-fencing.ts";
import { holdLeases } from "./hold-leases.ts";

export interface AblationHooks {
  beforeClockMoves(): Promise<void>;
  beforeResult(goalId: string, tickId: string): Promise<void>;
}

export function ablationHooks(
  without: LoopxPart | undefined,
  store: Store,
  goals: readonly { goalId: string }[],
): AblationHooks {
  const goalIds = goals.map((g) => g.goalId);
  return {
    async beforeClockMoves() {
      if (without === "leases") await holdLeases(store, goalIds);
    },
    async beforeResult(goalId, tickId) {
      if (without === "fencing") await unfence(store, goalId, tickId);
    },
  };
}
