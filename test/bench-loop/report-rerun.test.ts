/**
 * A tick's report job loses its runner, and an hour later the maintainer clicks "Re-run failed
 * jobs" (the `report-rerun` cell): the report job runs again with the first attempt's result,
 * lease token and bundle, after LoopX has ended that tick at GitHub's word and done its slice
 * again. LoopX refuses the stale result, so nothing it carries reaches the todo's branch.
 * Without fencing the App applies it, and its push lands on the branch the successor has
 * pushed since, on top of the successor's commit.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Arm } from "../../bench/loop/arms/arm-types.ts";
import { RERUN_AFTER_MINUTES } from "../../bench/loop/arms/loopx/report-faults.ts";
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

async function play(arm: Arm, repo: string) {
  const task = (await loadTasks()).find((t) => t.spec.id === "utc-date-math");
  if (!task) throw new Error("no utc-date-math task");
  const world = await startCellWorld({ sandbox, task, repo, seed: 1 });
  try {
    const run = await arm.run({
      world,
      cell: { task, profile: "competent", fault: "report-rerun", seed: 1, horizonHours: 72 },
      skill: skillOf(task),
    });
    // The lost slice is the second; the re-run carries its commit, named by its tick.
    const lost = run.slices[1];
    if (!lost?.todo) throw new Error("the second slice worked no todo");
    // Every commit in the repository, read from its git: its subject and date.
    const log = execFileSync(
      "git",
      ["--git-dir", sandbox.gitDir(repo), "log", "--all", "--format=%ct%x09%s"],
      { encoding: "utf8" },
    );
    const commits = log
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [at = "", ...subject] = line.split("\t");
        return { at: Number(at) * 1000, message: subject.join("\t") };
      });
    // What reached a branch when the maintainer re-ran the job: pushes are instant here.
    const reranAt = lost.at + RERUN_AFTER_MINUTES * 60_000;
    const atRerun = commits.filter((c) => Math.abs(c.at - reranAt) < 60_000);
    return { run, task, lost, atRerun, landed: await world.landed() };
  } finally {
    world.close();
  }
}

describe("a failed report job that a person re-runs after LoopX moved on", () => {
  it("is refused by LoopX; without fencing its stale push lands on the successor's branch", async () => {
    const shipped = await play(loopxArm(), "bench/rerun-fenced");
    expect(shipped.run.faults).toEqual([
      expect.stringContaining("lost its runner"),
      expect.stringContaining("the App refused its result, as its tick had ended"),
    ]);
    expect(shipped.landed).toEqual(shipped.task.todoOrder());
    // The slice was done again before the re-run, and the re-run pushed nothing.
    const redo = shipped.run.slices[2];
    expect(redo?.todo).toBe(shipped.lost.todo);
    expect(redo?.at ?? Infinity).toBeLessThan(shipped.lost.at + RERUN_AFTER_MINUTES * 60_000);
    const ablated = await play(loopxArm({ without: "fencing" }), "bench/rerun-unfenced");
    expect(ablated.run.faults[0]).toContain("lost its runner");
    expect(ablated.run.faults[1]).toContain("the App applied its result");
    expect(ablated.landed).toEqual(shipped.landed);
    // The same slices in both: the difference is what reached the branch afterwards.
    expect(ablated.run.slices.map((s) => s.todo)).toEqual(shipped.run.slices.map((s) => s.todo));
    // Here a successor todo pushed to the lost slice's branch after the redo, so the stale
    // tree differs from the branch's head: the push rewrites the open pull request's files.
    expect(ablated.run.faults[1]).toMatch(/its push changed .* \(pull request #\d+ open\)/);
    expect(shipped.atRerun).toEqual([]);
    // One commit of the lost slice's todo, on top of the commits its successor pushed since.
    expect(ablated.atRerun).toEqual([
      { at: expect.any(Number), message: expect.stringMatching(/^T\d+: slice /) },
    ]);
  }, 300_000);
});
