/**
 * What every arm does the same way: pick its agent, fill an empty run, and record one agent slice
 * from the agent's outcome (its own account of progress, and the tokens the metering proxy
 * would count) and what reached GitHub.
 */
import type { Agent, AgentOutcome } from "../agent/agent-types.ts";
import { runAgent } from "../agent/run-agent.ts";
import type { ArmContext, ArmRun, SliceRecord } from "./arm-types.ts";

/** The agent this cell runs: the context's, else the bench's scripted one. */
export function agentOf(ctx: ArmContext): Agent {
  return ctx.agent ?? runAgent;
}

export function emptyRun(arm: string): ArmRun {
  return {
    arm,
    slices: [],
    jobs: [],
    pullsOpened: [],
    commentsPosted: 0,
    stoppedAt: null,
    notes: [],
  };
}

export function sliceRecord(at: number, outcome: AgentOutcome, pushedFiles: string[]): SliceRecord {
  return {
    at,
    todo: outcome.todo,
    progressed: outcome.progressed,
    died: outcome.died,
    tokens: outcome.tokens,
    pushedFiles,
  };
}
