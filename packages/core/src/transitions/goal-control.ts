import { LIMIT_DIMENSIONS } from "../cost-ledger.ts";
import type { CostLimits } from "../schemas/budget.ts";
import { GoalStatus } from "../schemas/goal.ts";
import type { ReasonInput, SetBudgetInput } from "../schemas/inputs.ts";
import {
  ReasonInput as ReasonSchema,
  SetBudgetInput as SetBudgetSchema,
} from "../schemas/inputs.ts";
import type { GoalState } from "../schemas/state.ts";
import type { EventType, TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { interruptRunningTicks } from "./interrupt-tick.ts";
import {
  addEffect,
  begin,
  emit,
  isRefused,
  parseInput,
  refuse,
  requireTrusted,
  resetBackoff,
} from "./kit.ts";

function moveStatus(
  state: GoalState,
  input: ReasonInput | undefined,
  ctx: TransitionContext,
  from: readonly GoalStatus[],
  to: GoalStatus,
  event: EventType,
  verb: string,
): TransitionResult {
  const parsed = parseInput(ReasonSchema, input ?? {});
  if (isRefused(parsed)) return parsed;
  const denied = requireTrusted(ctx, `${verb} the goal`);
  if (denied) return denied;
  const d = begin(state, ctx, { statuses: GoalStatus.options });
  if (isRefused(d)) return d;
  if (!from.includes(state.goal.status)) {
    return refuse(
      state.goal.status === "done" ? "goal_inactive" : "invalid_state",
      `The goal is ${state.goal.status}; only a goal that is ${from.join(" or ")} can be ${verb}d.`,
    );
  }
  d.state.goal.status = to;
  d.state.goal.statusReason = parsed.reason;
  emit(d, event, { reason: parsed.reason });
  if (to === "stopped" || to === "paused") interruptRunningTicks(d, to);
  // A writer saying "go on" is fresh input: it ends any stall wait.
  if (to === "active") resetBackoff(d, "resumed");
  return commit(d);
}

export function pauseGoal(
  state: GoalState,
  input: ReasonInput | undefined,
  ctx: TransitionContext,
) {
  return moveStatus(state, input, ctx, ["active"], "paused", "goal.paused", "pause");
}

export function resumeGoal(
  state: GoalState,
  input: ReasonInput | undefined,
  ctx: TransitionContext,
) {
  return moveStatus(state, input, ctx, ["paused", "stopped"], "active", "goal.resumed", "resume");
}

export function stopGoal(state: GoalState, input: ReasonInput | undefined, ctx: TransitionContext) {
  return moveStatus(state, input, ctx, ["active", "paused"], "stopped", "goal.stopped", "stop");
}

export function requestReplan(
  state: GoalState,
  input: ReasonInput | undefined,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(ReasonSchema, input ?? {});
  if (isRefused(parsed)) return parsed;
  const denied = requireTrusted(ctx, "ask for a replan");
  if (denied) return denied;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  d.state.goal.replanRequested = true;
  emit(d, "goal.replan_requested", { reason: parsed.reason });
  resetBackoff(d, "replan requested");
  return commit(d);
}

/**
 * Changes the goal's cost limits. Anyone trusted may lower a limit; raising one (or lifting
 * it) takes a listed owner; nobody may go above the ceiling from `.github/loopx.yml`.
 */
export function setBudget(
  state: GoalState,
  input: SetBudgetInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(SetBudgetSchema, input);
  if (isRefused(parsed)) return parsed;
  const denied = requireTrusted(ctx, "change the budget");
  if (denied) return denied;
  const before = state.goal.budget;
  const after: CostLimits = { ...before };
  const raised: string[] = [];
  const moved: string[] = [];
  let changed = 0;
  for (const dim of LIMIT_DIMENSIONS) {
    const next = parsed.limits[dim];
    if (next === undefined) continue;
    const ceiling = parsed.ceiling[dim];
    if (ceiling !== undefined && next > ceiling) {
      return refuse(
        "invalid_input",
        `limits.${dim}: ${next} is above the ceiling ${ceiling} set in .github/loopx.yml; ask an admin to raise the ceiling first.`,
      );
    }
    const old = before[dim];
    if (old !== undefined && next > old) raised.push(`${dim} ${old} → ${next}`);
    if (old !== next) {
      changed += 1;
      moved.push(`${dim} ${old ?? "unlimited"} → ${next}`);
    }
    after[dim] = next;
  }
  if (changed === 0)
    return refuse(
      "invalid_input",
      "limits: nothing changes; give a new value for usd, tokens, runnerMinutes or ticks.",
    );
  if (raised.length > 0) {
    const actor = ctx.actor;
    const owner =
      actor.kind === "human" && actor.trusted && state.goal.owners.includes(actor.login);
    if (!owner) {
      return refuse(
        "not_authorized",
        `Raising the budget (${raised.join(", ")}) takes a goal owner (${state.goal.owners.map((o) => `@${o}`).join(", ")}); anyone with write access may lower it.`,
      );
    }
  }
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  d.state.goal.budget = after;
  emit(d, "goal.budget_changed", { before, after, act: parsed.act });
  // Who moved the money, from what to what, where the owners read: the raise is a gate's act.
  const who = ctx.actor.kind === "human" ? `@${ctx.actor.login}` : "LoopX";
  addEffect(d, {
    kind: "receipt",
    key: `receipt:budget:v${state.goal.version}`,
    text: `${who} ${raised.length > 0 ? "raised" : "changed"} the budget: ${moved.join(", ")}`.slice(
      0,
      2000,
    ),
  });
  if (raised.length > 0) resetBackoff(d, "budget raised");
  return commit(d);
}
