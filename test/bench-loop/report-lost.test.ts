/**
 * A tick's report job loses its runner (the `report-lost` cell): the slice ran, nothing
 * reached LoopX, and GitHub failed the run. GitHub's word that the run ended frees the todo:
 * LoopX does the slice again without waiting for the tick's lease, lands everything with one
 * slice more, and plays exactly the same without leases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TickApiSettings } from "../../app/src/api/settings.ts";
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
  it("costs LoopX one slice and no wait for the lease; without leases, the same", async () => {
    const calm = await play(loopxArm(), "bench/report-calm", "none");
    const shipped = await play(loopxArm(), "bench/report-lost", "report-lost");
    expect(shipped.run.faults).toEqual([expect.stringContaining("lost its runner")]);
    expect(shipped.failedRuns).toBe(1);
    expect(shipped.landed).toEqual(shipped.task.todoOrder());
    expect(shipped.run.slices.length).toBe(calm.run.slices.length + 1);
    // The lost slice is done again, sooner than its tick's lease would have ended.
    const [lost, redo] = [shipped.run.slices[1], shipped.run.slices[2]];
    expect(lost?.pushedFiles).toEqual([]);
    expect(redo?.todo).toBe(lost?.todo);
    const lease = TickApiSettings.parse({ audience: "x" }).leaseTtlMinutes * 60_000;
    expect((redo?.at ?? Infinity) - (lost?.at ?? 0)).toBeLessThan(lease);

    const ablated = await play(loopxArm({ without: "leases" }), "bench/report-held", "report-lost");
    expect(ablated.run.faults).toEqual(shipped.run.faults);
    expect(ablated.landed).toEqual(shipped.landed);
    // The same slices, the same minutes after the first: the lease never came into it.
    const timeline = (r: typeof shipped) =>
      r.run.slices.map((x) => [x.todo, Math.round((x.at - (r.run.slices[0]?.at ?? 0)) / 60_000)]);
    expect(timeline(ablated)).toEqual(timeline(shipped));
  }, 300_000);
});
