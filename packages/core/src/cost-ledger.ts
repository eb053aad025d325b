import type { Cost, CostLimits, SharedAllowance } from "./schemas/budget.ts";
import type { Goal } from "./schemas/goal.ts";

/** A modest default per-tick cap: one slice of a coding agent on a hosted runner. */
export const DEFAULT_TICK_CAP: Cost = Object.freeze({
  usd: 2,
  tokens: 2_000_000,
  runnerMinutes: 30,
});

export type LimitDimension = keyof CostLimits;
export const LIMIT_DIMENSIONS: readonly LimitDimension[] = [
  "usd",
  "tokens",
  "runnerMinutes",
  "ticks",
];

export type Spent = Goal["spent"];

export function addCost(spent: Spent, cost: Cost): Spent {
  return {
    usd: spent.usd + Math.max(0, cost.usd),
    tokens: spent.tokens + Math.max(0, cost.tokens),
    runnerMinutes: spent.runnerMinutes + Math.max(0, cost.runnerMinutes),
    ticks: spent.ticks + 1,
  };
}

/**
 * What the goal may still spend per dimension: the minimum of its own budget left, what the
 * repository and installation have left, and what the caller asked for. Callers can only
 * lower the result — their limit enters the minimum, never replaces it.
 */
export function costLeft(
  goal: Pick<Goal, "budget" | "spent">,
  allowance?: SharedAllowance,
  callerLimits?: CostLimits,
): CostLimits {
  const left: CostLimits = {};
  for (const dim of LIMIT_DIMENSIONS) {
    const candidates: number[] = [];
    const own = goal.budget[dim];
    if (own !== undefined) candidates.push(own - goal.spent[dim]);
    const repo = allowance?.repository?.[dim];
    if (repo !== undefined) candidates.push(repo);
    const inst = allowance?.installation?.[dim];
    if (inst !== undefined) candidates.push(inst);
    const caller = callerLimits?.[dim];
    if (caller !== undefined) candidates.push(caller);
    if (candidates.length > 0) left[dim] = Math.min(...candidates);
  }
  return left;
}

/** Dimensions with nothing left (a limit exists and is used up). */
export function exhaustedDimensions(left: CostLimits): LimitDimension[] {
  return LIMIT_DIMENSIONS.filter((dim) => {
    const v = left[dim];
    return v !== undefined && v <= 0;
  });
}

/**
 * Whether one more tick fits beside `running` live ticks: each of them may still spend up to
 * its cap, so that much of what is left is already committed, and the new tick needs a whole
 * cap of its own in every limited dimension (one tick, for the tick count). Without this, N
 * parallel ticks claimed on the last of a budget could together spend N caps past it.
 */
export function roomBeside(left: CostLimits, running: number, cap: Cost): boolean {
  const perTick: Record<LimitDimension, number> = { ...cap, ticks: 1 };
  return LIMIT_DIMENSIONS.every((dim) => {
    const v = left[dim];
    return v === undefined || v - running * perTick[dim] >= perTick[dim];
  });
}

/**
 * The most one slice may spend now: the tick cap, lowered to what the goal's own budget has
 * left. The metering proxy refuses model calls past it, and a slice that cannot account for
 * itself is charged this much, never a whole cap the budget no longer holds, so no charge
 * takes the ledger past the budget the owners approved.
 */
export function sliceCeiling(goal: Pick<Goal, "budget" | "spent" | "tickCap">): Cost {
  const left = costLeft(goal);
  const bound = (cap: number, dim: keyof Cost) => {
    const l = left[dim];
    return l === undefined ? cap : Math.min(cap, Math.max(0, l));
  };
  return {
    usd: bound(goal.tickCap.usd, "usd"),
    tokens: bound(goal.tickCap.tokens, "tokens"),
    runnerMinutes: bound(goal.tickCap.runnerMinutes, "runnerMinutes"),
  };
}
