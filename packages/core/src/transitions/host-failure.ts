import { z } from "zod";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { appendEvidence, begin, isRefused, parseInput, refuse } from "./kit.ts";
import { stall } from "./stall.ts";

export const HostFailureInput = z.object({
  /** What failed, for people: e.g. "tick run 123 (attempt 1) ended startup_failure". */
  summary: z.string().trim().min(1).max(500),
  url: z.url().nullable().default(null),
});
export type HostFailureInput = z.input<typeof HostFailureInput>;

/**
 * A tick that died before it claimed anything (bad workflow YAML, a missing secret, a run
 * stuck in the queue): `host_failure` evidence, and the loop backs off as after a stalled
 * tick — otherwise the evidence's own commit would dispatch the same failing run at once.
 * It counts toward asking a person, never toward a replan: no agent ran the plan. The same
 * summary is recorded once, however often the event is delivered.
 */
export function recordHostFailure(
  state: GoalState,
  input: HostFailureInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(HostFailureInput, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx, { statuses: ["active"] });
  if (isRefused(d)) return d;
  if (d.state.evidence.some((e) => e.kind === "host_failure" && e.summary === parsed.summary)) {
    return refuse("duplicate", "This host failure is already recorded.");
  }
  appendEvidence(d, { kind: "host_failure", summary: parsed.summary, url: parsed.url });
  stall(d, parsed.summary, d.ctx.now, { hostFailure: true });
  return commit(d);
}
