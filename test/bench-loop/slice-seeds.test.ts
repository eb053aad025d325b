/**
 * Every arm's agent jobs draw from the same seeds, job by job (common random numbers): a cell's
 * flaky or dying agent has the same luck whichever control plane runs it.
 */
import { describe, expect, it } from "vitest";
import type { AgentInput } from "../../bench/loop/agent/agent-types.ts";
import { memoryTree } from "../../bench/loop/agent/memory-tree.ts";
import { blank } from "../../bench/loop/agent/run-agent.ts";
import { workflowRunSeed } from "../../bench/loop/agent/seeded-random.ts";
import { agentOf, emptyRun, sliceSeed } from "../../bench/loop/arms/arm-run.ts";
import type { FaultName } from "../../bench/loop/arms/arm-types.ts";
import { cellOf } from "../../bench/loop/play-cell.ts";
import { loadTasks } from "../../bench/loop/tasks/load-tasks.ts";

/** Three jobs of one arm on a cell, each with its own prompt: the seeds the agent was given. */
async function seedsOf(arm: string, seed: number, fault: FaultName = "none"): Promise<number[]> {
  const [task] = await loadTasks();
  if (!task) throw new Error("no task");
  const seen: number[] = [];
  const record = (input: AgentInput) => {
    seen.push(input.seed);
    return blank();
  };
  const agent = agentOf({ ...cellOf(task, fault, "flaky"), seed }, emptyRun(arm), record);
  for (const prompt of [`${arm} plans`, `${arm} works`, `${arm} works again`]) {
    await agent({
      prompt,
      tree: memoryTree(),
      tools: { issueComments: () => [], pull: () => null },
      skill: { plan: [], discoveries: [] },
      profile: "flaky",
    });
  }
  return seen;
}

describe("the seeds of a cell's agent jobs", () => {
  it("in a workflow run, mix in the run: each run draws anew, a rerun of it the same", () => {
    const a = workflowRunSeed(3, { id: "101" });
    expect(workflowRunSeed(3, { id: "101", attempt: "1" })).toBe(a);
    expect(workflowRunSeed(3, { id: "102" })).not.toBe(a);
    expect(workflowRunSeed(3, { id: "101", attempt: "2" })).not.toBe(a);
    expect(workflowRunSeed(4, { id: "101" })).not.toBe(a);
    expect(workflowRunSeed(3, {})).toBe(3);
  });

  it("are the same job by job in every arm, and differ from job to job and cell to cell", async () => {
    const loopx = await seedsOf("loopx", 1);
    expect(loopx).toEqual([1, 2, 3].map((n) => sliceSeed(1, n)));
    expect(await seedsOf("b1", 1)).toEqual(loopx);
    expect(new Set(loopx).size).toBe(3);
    const other = await seedsOf("loopx", 2);
    expect(other.some((s, i) => s === loopx[i])).toBe(false);
    // A killed runner's job is still a job: the count goes on after it.
    expect(await seedsOf("oracle", 1, "runner-killed")).toEqual(loopx);
  });
});
