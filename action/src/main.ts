import type { ActionInput } from "./inputs.ts";
import type { PhaseContext, PhaseResult } from "./phase-context.ts";
import { agent } from "./phases/agent.ts";
import { ask } from "./phases/ask.ts";
import { report } from "./phases/report.ts";
import { wake } from "./phases/wake.ts";

const PHASES: Record<ActionInput["phase"], (ctx: PhaseContext) => Promise<PhaseResult>> = {
  wake,
  ask,
  agent,
  report,
};

const WOULD: Record<ActionInput["phase"], string> = {
  wake: "ask the App to dispatch this repository's due goals",
  ask: "ask the App whether to run a slice, and write the brief and lease files",
  agent: "run one bounded harness slice on the todo branch and write the result and bundle",
  report: "send the result, push the todo branch with the granted token, and revoke it",
};

/** One phase of a tick; a dry run explains what it would do and touches nothing. */
export async function main(ctx: PhaseContext): Promise<PhaseResult> {
  const { input } = ctx;
  if (input["dry-run"]) {
    const target = input.goal === undefined ? "" : ` for goal #${input.goal}`;
    return {
      summary: `LoopX ${input.phase}${target}: dry run, nothing was sent (would ${WOULD[input.phase]}; audience "${input.audience}").`,
      outputs: { run: "false", phase: input.phase },
      failure: null,
    };
  }
  const result = await PHASES[input.phase](ctx);
  return { ...result, outputs: { ...result.outputs, phase: input.phase } };
}
