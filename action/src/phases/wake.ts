import { WakeResponse } from "@loopx/core";
import type { PhaseContext, PhaseResult } from "../phase-context.ts";

/** The cron backstop: the App dispatches this repository's due goals. */
export async function wake(ctx: PhaseContext): Promise<PhaseResult> {
  const answer = await ctx.api().post("/api/v1/wake", {}, WakeResponse);
  const goals = answer.dispatched.map((n) => `#${n}`).join(", ");
  return {
    summary: answer.dispatched.length
      ? `LoopX wake: dispatched ticks for ${goals}.`
      : "LoopX wake: no goal of this repository is due.",
    outputs: { dispatched: JSON.stringify(answer.dispatched) },
    failure: null,
  };
}
