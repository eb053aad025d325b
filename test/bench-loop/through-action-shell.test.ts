/**
 * The quick pair of `bench:loop` through the shipped tick workflow and action, the agent's CLI
 * as the shell harness's command: the same outcome as in process (through-action.ts says what
 * is compared). A cell whose outcome could not match (another profile draws per tick in
 * process and per cell through the action) is refused before anything runs.
 */
import { describe, expect, it } from "vitest";
import { loopxArm } from "../../bench/loop/arms/loopx-arm.ts";
import { cellOf, QUICK_TASKS, skillsOf } from "../../bench/loop/play-cell.ts";
import { loadTasks } from "../../bench/loop/tasks/load-tasks.ts";
import { startCellWorld } from "../../bench/loop/world/cell-world.ts";
import { createSandbox } from "../../packages/sandbox/src/index.ts";
import { expectSameOutcome } from "./through-action.ts";

describe("bench:loop through the action, shell", () => {
  it.each(QUICK_TASKS)(
    "%s: the in-process outcome",
    (taskId) => expectSameOutcome(taskId, "shell"),
    600_000,
  );

  it("refuses a cell it could not play the same, before installing anything", async () => {
    const task = (await loadTasks()).find((t) => t.spec.id === "csv-quoting");
    if (!task) throw new Error("no csv-quoting task");
    const sandbox = await createSandbox();
    try {
      const world = await startCellWorld({ sandbox, task, repo: "bench/refused", seed: 1 });
      const cell = cellOf(task, "none", "flaky");
      await expect(
        loopxArm({ throughAction: "shell" }).run({ world, cell, ...skillsOf(cell) }),
      ).rejects.toThrow(/competent scripted agent and no fault only \(this cell: flaky/);
      expect(sandbox.store.workflowRuns.size).toBe(0);
      expect(await world.mainTree()).toEqual(task.repoFiles());
      world.close();
    } finally {
      await sandbox.stop();
    }
  });
});
