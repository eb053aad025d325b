/**
 * A tick's report job loses its runner (the `report-lost` cell): the slice ran, nothing
 * reached LoopX, and GitHub failed the run. LoopX as shipped gets the todo back when the
 * tick's lease ends and lands everything with one slice more; without leases, the lost tick
 * holds its todo for good.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Arm } from "../../bench/loop/arms/arm-types.ts";
import { loopxArm } from "../../bench/loop/arms/loopx-arm.ts";
import { skillOf } from "../../bench/loop/skill-of.ts";
import { loadTasks } from "../../bench/loop/tasks/load-tasks.ts";
import { startCellWorld } from "../../bench/loop/world/cell-world.ts";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

async function play(arm: Arm, repo: string, fault: "none" | "report-lost") {
  const task = (await loadTasks()).find((t) => t.spec.id === "csv-quoting");
  if (!task) throw new Error("no csv-quoting task");
  const world = await startCellWorld({ sandbox, task, repo, seed: 1 });
  try {
    const run = await arm.run({
      world,
      cell: { task, profile: "competent", fault, seed: 1, horizonHours: 72 },
      skill: skillOf(task),
    });
    const id = sandbox.repoByFullName(repo).id;
    const failedRuns = [...sandbox.store.workflowRuns.values()].filter(
      (r) => r.repoId === id && r.conclusion === "failure",
    ).length;
    return { run, task, landed: await world.landed(), failedRuns };
  } finally {
    world.close();
  }
}

describe("a report job that loses its runner", () => {
  it("costs LoopX one slice; without leases the lost tick holds its todo to the end", async () => {
    const calm = await play(loopxArm(), "bench/report-calm", "none");
    const shipped = await play(loopxArm(), "bench/report-lost", "report-lost");
    expect(shipped.run.faults).toEqual([expect.stringContaining("lost its runner")]);
    expect(shipped.failedRuns).toBe(1);
    expect(shipped.landed).toEqual(shipped.task.todoOrder());
    expect(shipped.run.slices.length).toBe(calm.run.slices.length + 1);
    // The lost slice is done again: its todo is worked once more after it.
    const lost = shipped.run.slices[1];
    expect(lost?.pushedFiles).toEqual([]);
    expect(shipped.run.slices.slice(2).some((s) => s.todo === lost?.todo)).toBe(true);

    const ablated = await play(loopxArm({ without: "leases" }), "bench/report-held", "report-lost");
    expect(ablated.run.faults).toEqual(shipped.run.faults);
    // No slice after the lost one: its tick still holds the todo, and nothing else may start.
    expect(ablated.run.slices).toHaveLength(2);
    expect(ablated.landed.length).toBeLessThan(ablated.task.todoOrder().length);
  }, 300_000);
});
