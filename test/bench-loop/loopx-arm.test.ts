/**
 * LoopX as shipped, as a `bench:loop` arm: the real App on a cell's sandbox, its scheduler's
 * dispatches played as the tick workflow's jobs, the scripted people reviewing and merging, the
 * clocks jumping to what is due next. One plain task, a competent agent, no fault: the goal is
 * planned from the objective alone, each todo reaches main through its own reviewed and merged
 * PR, and the goal ends done.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { FILE_TOKENS, OVERSPEND, SLICE_TOKENS } from "../../bench/loop/agent/run-agent.ts";
import type { Arm } from "../../bench/loop/arms/arm-types.ts";
import { loopxArm } from "../../bench/loop/arms/loopx-arm.ts";
import { modelUsd } from "../../bench/loop/arms/metered-slice.ts";
import { skillOf } from "../../bench/loop/skill-of.ts";
import { loadTasks } from "../../bench/loop/tasks/load-tasks.ts";
import { type CellWorld, startCellWorld } from "../../bench/loop/world/cell-world.ts";
import { RepoRest } from "../../bench/loop/world/rest.ts";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

describe("the loopx arm", () => {
  it("plans csv-quoting and lands each todo through its own merged PR", async () => {
    const task = (await loadTasks()).find((t) => t.spec.id === "csv-quoting");
    if (!task) throw new Error("no csv-quoting task");
    const world: CellWorld = await startCellWorld({
      sandbox,
      task,
      repo: "bench/csv-quoting",
      seed: 1,
    });
    const run = await loopxArm().run({
      world,
      cell: { task, profile: "competent", fault: "none", seed: 1, horizonHours: 72 },
      skill: skillOf(task),
    });
    const landed = await world.landed();
    const acts = world.person.acts();
    world.close();
    // The first slice plans: the agent proposes the todos.
    expect(run.slices[0]?.todo).toBeNull();
    expect(landed).toEqual(task.todoOrder());
    expect(run.stoppedAt).not.toBeNull();
    // One PR per todo, each on its own branch, each merged by the maintainer: the todos all
    // change src/csv.mjs, so each waited for the one before it to merge instead of conflicting.
    expect(run.pullsOpened).toHaveLength(task.todoOrder().length);
    const heads = await pullHeads(world, run.pullsOpened);
    expect(new Set(heads).size).toBe(heads.length);
    const merges = acts.filter((a) => a.kind === "merge" && a.outcome === "done");
    expect(merges).toHaveLength(task.todoOrder().length);
    // The reviewer's approvals answered the merge gates: nobody typed /loopx approve.
    expect(acts.filter((a) => a.kind === "answer")).toEqual([]);
    for (const job of run.jobs) {
      expect(Number.isInteger(job.minutes)).toBe(true);
      expect(job.minutes).toBeGreaterThanOrEqual(1);
    }
  }, 240_000);

  it("holds an overspending agent to the goal's budget, then pauses and dispatches nothing", async () => {
    const { run } = await overspendOnThreeDollars(loopxArm(), "bench/csv-budget");
    const spent = run.slices.reduce((n, s) => n + modelUsd(s.tokens), 0);
    // The plan (no file) and the first todo (the parser and its test) fit in $3; the third
    // slice is stopped short of what is left, and charged the rest: no fourth starts.
    const plan = SLICE_TOKENS * OVERSPEND;
    const first = (SLICE_TOKENS + 2 * FILE_TOKENS) * OVERSPEND;
    expect(run.slices.map((s) => s.tokens).slice(0, 2)).toEqual([plan, first]);
    expect(run.slices).toHaveLength(3);
    expect(spent).toBeLessThanOrEqual(3);
    const last = run.slices.at(-1);
    expect(last?.progressed).toBe(false);
    // Paused: no tick was dispatched after the slice that reached the budget.
    expect(run.jobs.filter((j) => j.at > (last?.at ?? 0))).toEqual([]);
    expect(run.stoppedAt).toBeNull();
  }, 240_000);

  it("without its budgets (the ablation), lets the same agent spend past what was approved", async () => {
    const arm = loopxArm({ without: "budgets" });
    const { run, config } = await overspendOnThreeDollars(arm, "bench/csv-unbudgeted");
    expect(arm.name).toBe("loopx-without-budgets");
    expect(config).not.toContain("budgets:");
    const spent = run.slices.reduce((n, s) => n + modelUsd(s.tokens), 0);
    expect(spent).toBeGreaterThan(3);
    expect(run.slices.length).toBeGreaterThan(3);
  }, 240_000);
});

/** The overspending agent on csv-quoting, whose owners approved $3, played by `arm`. */
async function overspendOnThreeDollars(arm: Arm, repo: string) {
  const task = (await loadTasks()).find((t) => t.spec.id === "csv-quoting");
  if (!task) throw new Error("no csv-quoting task");
  const world = await startCellWorld({ sandbox, task, repo, seed: 1 });
  try {
    const run = await arm.run({
      world,
      cell: {
        task,
        profile: "overspending",
        fault: "none",
        seed: 1,
        horizonHours: 72,
        budgetUsd: 3,
      },
      skill: skillOf(task),
    });
    return { run, config: (await world.mainTree()).get(".github/loopx.yml") ?? "" };
  } finally {
    world.close();
  }
}

const PullHead = z.object({ head: z.object({ ref: z.string() }) });

/** The head branch of each pull request, as GitHub lists it. */
async function pullHeads(world: CellWorld, pulls: number[]): Promise<string[]> {
  const rest = new RepoRest(world.sandbox.url, world.repo, world.token("maintainer"));
  const heads: string[] = [];
  for (const n of pulls) heads.push((await rest.call("GET", `/pulls/${n}`, PullHead)).head.ref);
  return heads;
}
