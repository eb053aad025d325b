/**
 * The oracle arm: the cost floor of `bench:loop`. It runs the agent only when something is to
 * be done, so its slices follow from the task's rules alone: one to plan, each todo's slices,
 * plus one answer per change request and one push per flaky CI run; and it bills nothing but
 * them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blank, runAgent } from "../../bench/loop/agent/run-agent.ts";
import { modelUsd } from "../../bench/loop/arms/metered-slice.ts";
import { oracleArm } from "../../bench/loop/arms/oracle-arm.ts";
import { skillOf } from "../../bench/loop/skill-of.ts";
import { loadTasks } from "../../bench/loop/tasks/load-tasks.ts";
import { startCellWorld } from "../../bench/loop/world/cell-world.ts";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";

const tasks = await loadTasks();
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

describe("the oracle arm", () => {
  it.each(["csv-quoting", "lru-cache-ttl", "utc-date-math", "semver-ranges"])(
    "%s: lands every todo with exactly the slices the task's rules need, one merged PR each",
    async (id) => {
      const task = tasks.find((t) => t.spec.id === id);
      if (!task) throw new Error(`no task ${id}`);
      const world = await startCellWorld({ sandbox, task, repo: `bench/oracle-${id}`, seed: 3 });
      const skill = skillOf(task);
      const run = await oracleArm().run({
        world,
        cell: { task, profile: "competent", fault: "none", seed: 3, horizonHours: 96 },
        skill,
      });
      expect(await world.landed()).toEqual(task.todoOrder());
      const needed =
        1 +
        task.todoOrder().reduce((n, key) => n + task.todo(key).slices, 0) +
        task.spec.review.changeRequests +
        task.spec.ci.failFirst;
      expect(run.slices).toHaveLength(needed);
      // The first slice plans; every other one moves its todo on.
      expect(run.slices[0]?.todo).toBeNull();
      expect(run.slices.slice(1).every((s) => s.progressed && !s.died)).toBe(true);
      // Nothing billed while it waited: every job ran the agent.
      expect(run.jobs.every((j) => j.kind === "agent")).toBe(true);
      expect(run.pullsOpened).toHaveLength(task.todoOrder().length);
      expect(run.stoppedAt).not.toBeNull();
      world.close();
    },
    60_000,
  );

  it("plans again after a planning job that died, and starts no slice once its budget is spent", async () => {
    const task = tasks.find((t) => t.spec.id === "csv-quoting");
    if (!task) throw new Error("no task csv-quoting");
    const world = await startCellWorld({ sandbox, task, repo: "bench/oracle-budget", seed: 3 });
    const skill = skillOf(task);
    let jobs = 0;
    const run = await oracleArm().run({
      world,
      // $0.10 pays for the plan (20,000 tokens, $0.06) and part of the first todo.
      cell: {
        task,
        profile: "competent",
        fault: "none",
        seed: 3,
        horizonHours: 96,
        budgetUsd: 0.1,
      },
      skill,
      agent: (input) => {
        jobs += 1;
        return jobs === 1 ? { ...blank(), tokens: 1_000, died: true } : runAgent(input);
      },
    });
    expect(run.slices.map((s) => [s.todo, s.died])).toEqual([
      [null, true],
      [null, false],
      [task.todo(task.todoOrder()[0]!).title, false],
    ]);
    const usd = run.slices.reduce((n, s) => n + modelUsd(s.tokens), 0);
    expect(usd).toBeLessThanOrEqual(0.1);
    expect(run.notes).toContain(`the budget was spent before ${task.todoOrder()[0]} finished`);
    world.close();
  }, 60_000);
});
