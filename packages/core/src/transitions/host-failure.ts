import { z } from "zod";
import { GoalStatus } from "../schemas/goal.ts";
import type { GoalState } from "../schemas/state.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { commit } from "./commit.ts";
import { interruptionOf } from "./interrupt-tick.ts";
import { appendEvidence, begin, emit, isRefused, parseInput, refuse } from "./kit.ts";
import { stall } from "./stall.ts";
import { abandonTick } from "./tick-ledger.ts";

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

export const RunEndedInput = z.object({
  runId: z.number().int().positive(),
  /** GitHub's conclusion of the run: failure, timed_out, cancelled, startup_failure. */
  conclusion: z.string().trim().min(1).max(50),
});
export type RunEndedInput = z.input<typeof RunEndedInput>;

/**
 * GitHub says a tick's workflow run ended, and that run's tick never reported (its report
 * job's runner was lost, or the run was cancelled or timed out before the report): the tick
 * ends now, as when its lease expires, instead of holding its todo until then. Nothing of the
 * run can report any more, so nothing is lost; a re-run's report finds the tick finished.
 */
export function endRunTicks(
  state: GoalState,
  input: RunEndedInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(RunEndedInput, input);
  if (isRefused(parsed)) return parsed;
  const d = begin(state, ctx, { statuses: GoalStatus.options });
  if (isRefused(d)) return d;
  // A tick a stop or pause interrupted has had its lease ended already; it is charged when
  // that old lease runs out, as a stopped goal's run is LoopX's own cancel, not a failure.
  const live = d.state.ticks.filter(
    (t) => t.finishedAt === null && t.run?.id === parsed.runId && interruptionOf(t) === null,
  );
  if (live.length === 0) {
    return refuse(
      "not_found",
      `No tick of workflow run ${parsed.runId} still waits for its report (it reported, or a stop or pause already ended its lease).`,
    );
  }
  for (const tick of live) {
    emit(d, "lease.released", { tickId: tick.id, todo: tick.todo, runEnded: parsed.conclusion });
    abandonTick(
      d,
      tick,
      "host_failure",
      `tick #${tick.number} on ${tick.todo}: its workflow run ${parsed.runId} ended ${parsed.conclusion} before it reported`,
    );
  }
  return commit(d);
}
