import { z } from "zod";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { begin, emit, isRefused, parseInput, refuse, requireTrusted } from "./kit.ts";

export const SetHarnessInput = z.object({
  harness: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,63}$/, "a harness name such as claude-code, codex or shell"),
});
export type SetHarnessInput = z.input<typeof SetHarnessInput>;

/**
 * Switches the agent for the next ticks. A tick already running keeps its harness; the
 * continuity (handoffs, notes) is the goal's, so the next agent picks up where it stopped.
 */
export function setHarness(
  state: GoalState,
  input: SetHarnessInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(SetHarnessInput, input);
  if (isRefused(parsed)) return parsed;
  const denied = requireTrusted(ctx, "switch the harness");
  if (denied) return denied;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const before = d.state.goal.harness;
  if (before === parsed.harness) {
    return refuse("invalid_input", `harness: the goal already runs on ${before}.`);
  }
  d.state.goal.harness = parsed.harness;
  emit(d, "goal.harness_changed", { before, after: parsed.harness });
  return commit(d);
}
