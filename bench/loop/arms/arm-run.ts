/**
 * What every arm does the same way: pick its agent, fill an empty run, and record one agent slice
 * from the agent's outcome (its own account of progress, and the tokens the metering proxy
 * would count) and what reached GitHub.
 */
import type { Agent, AgentOutcome, Skill, SliceAgent } from "../agent/agent-types.ts";
import { memoryTree } from "../agent/memory-tree.ts";
import { blank, runAgent } from "../agent/run-agent.ts";
import { hash32 } from "../agent/seeded-random.ts";
import type { LoadedTask } from "../tasks/load-tasks.ts";
import type { ArmContext, ArmRun, CellSpec, SliceRecord } from "./arm-types.ts";

/** The agent job a `runner-killed` cell loses: the first after the plan's, in every arm. */
export const KILLED_JOB = 2;

/** The seed of a cell's n-th agent slice (from 1), the same in every arm. */
export function sliceSeed(cellSeed: number, n: number): number {
  return hash32(["slice", String(cellSeed), String(n)]);
}

/**
 * The agent this cell runs: the context's, else the bench's scripted one. Call it once per
 * agent job. The n-th job of a cell gets the same seed in every arm (common random numbers:
 * a flaky agent is confused on the same jobs whichever control plane runs it). In a
 * `runner-killed` cell the runner of job KILLED_JOB dies mid-slice — the tokens are spent,
 * everything the agent wrote is lost with the runner's disk, and no result is written — and
 * `run` records the fault.
 */
export function agentOf(cell: CellSpec, run: ArmRun, agent: Agent = runAgent): SliceAgent {
  let jobs = 0;
  return async (slice) => {
    jobs += 1;
    const input = { ...slice, seed: sliceSeed(cell.seed, jobs) };
    if (cell.fault !== "runner-killed" || jobs !== KILLED_JOB) return agent(input);
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
