import { z } from "zod";
import { WORKFLOW_PATHS_SCOPE } from "../path-rules.ts";
import { Uuid } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { scopeCovers } from "../scope.ts";
import { commit } from "./commit.ts";
import { addEffect, begin, emit, isRefused, parseInput, refuse } from "./kit.ts";

/**
 * The approved gates that let the next push change `.github/**` (the workflows, which run
 * with the repository's secrets). Never a standing grant: each approval covers one push.
 */
export function workflowApprovals(state: GoalState): string[] {
  return state.gates
    .filter(
      (g) => g.status === "approved" && g.scopes.some((s) => scopeCovers(s, WORKFLOW_PATHS_SCOPE)),
    )
    .map((g) => g.key);
}

export const SpendWorkflowApprovalInput = z.object({ tickId: Uuid });
export type SpendWorkflowApprovalInput = z.input<typeof SpendWorkflowApprovalInput>;

/**
 * A tick was granted a push that may change `.github/`: the approvals that allowed it are
 * spent by it (expired, with a receipt), so the next change to the workflows needs a person
 * to look again. Applied with the result that got the grant, in the same transaction.
 */
export function spendWorkflowApproval(
  state: GoalState,
  input: SpendWorkflowApprovalInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(SpendWorkflowApprovalInput, input);
  if (isRefused(parsed)) return parsed;
  if (ctx.actor.kind !== "agent" && ctx.actor.kind !== "app") {
    return refuse("not_authorized", "Only the tick API spends a .github/ approval.");
  }
  const d = begin(state, ctx, { statuses: ["active", "paused", "stopped", "done"] });
  if (isRefused(d)) return d;
  const tick = d.state.ticks.find((t) => t.id === parsed.tickId);
  if (!tick) return refuse("not_found", `There is no tick ${parsed.tickId}.`);
  const keys = workflowApprovals(d.state);
  if (keys.length === 0)
    return refuse("invalid_state", "No approval of .github/ changes is left to spend.");
  for (const gate of d.state.gates) {
    if (!keys.includes(gate.key)) continue;
    gate.status = "expired";
    const reason = `covered tick #${tick.number}'s push of ${tick.todo}; a later change under .github/ needs a new approval`;
    emit(d, "gate.expired", { gate: gate.key, reason, tickId: tick.id });
    addEffect(d, {
      kind: "receipt",
      key: `receipt:gate:${gate.key}:spent`,
      text: `${gate.key}'s approval of ${WORKFLOW_PATHS_SCOPE} ${reason}.`,
    });
  }
  return commit(d);
}
