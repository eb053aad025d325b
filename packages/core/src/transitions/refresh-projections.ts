import { z } from "zod";
import { ShortText } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { addEffect, begin, emit, isRefused, parseInput } from "./kit.ts";

const RefreshInput = z.object({
  reason: ShortText.min(1),
  body: z.boolean().default(false),
  status: z.boolean().default(false),
  /** Writes LoopX's check runs again even though the state did not move them (a permission came). */
  checks: z.boolean().default(false),
  /** A receipt comment to post with it (e.g. "the app is back; nothing resumed by itself"). */
  receipt: z.object({ key: z.string().min(1), text: z.string().max(2000) }).optional(),
});

/**
 * Re-renders GitHub from the state without changing the plan: someone without authority
 * ticked a box or edited the managed block, so the block is rendered again (the revert). It
 * is a transition, not a bare outbox row, so the version moves and an in-flight write of the
 * previous version cannot mark the re-render as already done. Anyone's edit may cause it.
 */
export function refreshProjections(
  state: GoalState,
  input: z.input<typeof RefreshInput>,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(RefreshInput, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  d.checklist = parsed.body;
  d.status = parsed.status;
  if (parsed.checks) addEffect(d, { kind: "check_runs", key: "check_runs" });
  if (parsed.receipt) addEffect(d, { kind: "receipt", ...parsed.receipt });
  emit(d, "goal.projections_refreshed", {
    reason: parsed.reason,
    body: parsed.body,
    status: parsed.status,
  });
  return commit(d);
}
