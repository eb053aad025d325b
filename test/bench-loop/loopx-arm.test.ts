/**
 * LoopX as shipped, as a `bench:loop` arm: the real App on a cell's sandbox, its scheduler's
 * dispatches played as the tick workflow's jobs, the scripted people reviewing, answering
 * gates and merging, the clocks jumping to what is due next. One plain task, a competent
 * agent, no fault: the goal is planned from the objective alone and its work reaches main
 * through gates and merges. Ending the goal with one merge per todo is not reached yet (the
 * todo below says why), so the arm is not in `bench:loop`'s table.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loopxArm } from "../../bench/loop/arms/loopx-arm.ts";
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
  it("plans csv-quoting and lands its three todos on main", async () => {
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
    // Every todo's hidden test passes on main. Not yet one merge each: the fixed agent writes a
    // todo's files whole, so a later todo's branch carries the earlier todos' work too.
    expect(landed).toEqual(["t1", "t2", "t3"]);
    // No todo branch got a second pull request.
    const heads = await pullHeads(world, run.pullsOpened);
    expect(new Set(heads).size).toBe(heads.length);
    expect(run.pullsOpened.length).toBeGreaterThan(0);
    for (const job of run.jobs) {
      expect(Number.isInteger(job.minutes)).toBe(true);
      expect(job.minutes).toBeGreaterThanOrEqual(1);
    }
    // What landed reached main through the maintainer's merges, after the gate was answered.
    const merges = acts.filter((a) => a.kind === "merge" && a.outcome === "done");
    expect(merges.length).toBeGreaterThanOrEqual(1);
    expect(acts.some((a) => a.kind === "answer" && a.outcome === "done")).toBe(true);
  }, 240_000);

  // The todos' branches all start from main and the agent writes each todo's files whole, so
  // after the first merge the other PRs conflict and their todos wait on rebases the agent
  // cannot make; replanning then re-proposes finished todos the agent's branch notes forgot.
  // Needed: an agent that applies each todo as its own change and can rebase.
  it.todo("ends the goal done with one merge per landed todo");
});

const PullHead = z.object({ head: z.object({ ref: z.string() }) });

/** The head branch of each pull request, as GitHub lists it. */
async function pullHeads(world: CellWorld, pulls: number[]): Promise<string[]> {
  const rest = new RepoRest(world.sandbox.url, world.repo, world.token("maintainer"));
  const heads: string[] = [];
  for (const n of pulls) heads.push((await rest.call("GET", `/pulls/${n}`, PullHead)).head.ref);
  return heads;
}
