/**
 * What every arm writes the same way: an empty run to fill, and the record of one agent slice
 * from the agent's outcome (its own account of progress, and the tokens the metering proxy
 * would count) and what reached GitHub.
 */
import type { AgentOutcome } from "../agent/agent-types.ts";
import type { ArmRun, SliceRecord } from "./arm-types.ts";

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
