/**
 * What every arm does the same way: pick its agent, fill an empty run, and record one agent slice
 * from the agent's outcome (its own account of progress, and the tokens the metering proxy
 * would count) and what reached GitHub.
 */
import type { Agent, AgentOutcome, Skill } from "../agent/agent-types.ts";
import { memoryTree } from "../agent/memory-tree.ts";
import { blank, runAgent } from "../agent/run-agent.ts";
import type { LoadedTask } from "../tasks/load-tasks.ts";
import type { ArmContext, ArmRun, SliceRecord } from "./arm-types.ts";

/** The agent job a `runner-killed` cell loses: the first after the plan's, in every arm. */
export const KILLED_JOB = 2;

/**
 * The agent this cell runs: the context's, else the bench's scripted one. Call it once per
 * run: in a `runner-killed` cell it counts the arm's agent jobs, and the runner of job
 * KILLED_JOB dies mid-slice — the tokens are spent, everything the agent wrote is lost with
 * the runner's disk, and no result is written — and `run` records the fault.
 */
export function agentOf(ctx: ArmContext, run: ArmRun): Agent {
  const agent = ctx.agent ?? runAgent;
  if (ctx.cell.fault !== "runner-killed") return agent;
  let jobs = 0;
  return async (input) => {
    jobs += 1;
    if (jobs !== KILLED_JOB) return agent(input);
    run.faults.push(`agent job ${jobs} killed mid-slice`);
    const scratch = memoryTree(input.tree.list().map((p) => [p, input.tree.read(p) ?? ""]));
    const outcome = await agent({ ...input, tree: scratch });
    return {
      ...blank(),
      todo: outcome.todo,
      tokens: outcome.tokens,
      died: true,
      summary: "the runner was killed mid-slice",
    };
  };
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
    faults: [],
    unrecovered: [],
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

/** The cell's objectives with the agent's skill for each: the task's, then a pair's partner. */
export function objectivesOf(ctx: ArmContext): { task: LoadedTask; skill: Skill }[] {
  const { cell } = ctx;
  const partner =
    cell.partner && ctx.partnerSkill ? [{ task: cell.partner, skill: ctx.partnerSkill }] : [];
  return [{ task: cell.task, skill: ctx.skill }, ...partner];
}
