/**
 * `bench:loop` runs its cells in process; the same tasks, one seed, run through what a user
 * installs must come out the same. Through the action, every tick is the repository's
 * loopx-tick.yml verbatim on the sandbox's runner: the real action bundle in its ask, agent
 * and report jobs, the agent job's jail, and the bench's agent's CLI run by the harness
 * (reading the issue and its PR anonymously, as the jail holds no token). The outcomes
 * compared are what the world and the App recorded: what landed on main, each slice (when,
 * whether it progressed, which files reached its branch), the jobs billed, the PRs, the
 * people's acts. Tokens are not compared: in process they are the agent's modelled spend,
 * through the action what the harness metered (none for a shell command).
 */
import { expect } from "vitest";
import type { ActionHarness } from "../../bench/loop/arms/loopx/action-tick.ts";
import { loopxArm } from "../../bench/loop/arms/loopx-arm.ts";
import { cellMetrics } from "../../bench/loop/cell-metrics.ts";
import { cellOf } from "../../bench/loop/play-cell.ts";
import { skillOf } from "../../bench/loop/skill-of.ts";
import { loadTasks } from "../../bench/loop/tasks/load-tasks.ts";
import { startCellWorld } from "../../bench/loop/world/cell-world.ts";
import { createSandbox } from "../../packages/sandbox/src/index.ts";

async function play(taskId: string, throughAction?: ActionHarness) {
  const task = (await loadTasks()).find((t) => t.spec.id === taskId);
  if (!task) throw new Error(`no task ${taskId}`);
  const sandbox = await createSandbox();
  try {
    const world = await startCellWorld({ sandbox, task, repo: `bench/${taskId}`, seed: 1 });
    try {
      const startedAt = sandbox.clock.now();
      const run = await loopxArm({ throughAction }).run({
        world,
        cell: cellOf(task),
        skill: skillOf(task),
      });
      const metrics = await cellMetrics(world, run, { injected: false, budgetUsd: null });
      const landed = await world.landed();
      return {
        total: task.todoOrder().length,
        landed,
        stoppedAfter: run.stoppedAt === null ? null : run.stoppedAt - startedAt,
        slices: run.slices.map((s) => ({
          after: s.at - startedAt,
          progressed: s.progressed,
          died: s.died,
          pushedFiles: [...s.pushedFiles].sort(),
        })),
        jobs: run.jobs.map((j) => ({ after: j.at - startedAt, kind: j.kind, minutes: j.minutes })),
        pulls: run.pullsOpened,
        comments: metrics.duplicateComments,
        acts: world.person.acts().map((a) => `${a.kind} ${a.as} #${a.target} ${a.outcome}`),
      };
    } finally {
      world.close();
    }
  } finally {
    await sandbox.stop();
  }
}

/** Plays the task in process and through the action, and holds them to the same outcome. */
export async function expectSameOutcome(taskId: string, harness: ActionHarness): Promise<void> {
  const inProcess = await play(taskId);
  const shipped = await play(taskId, harness);
  // The control plane did its job both ways: every todo landed, the goal ended done.
  expect(shipped.landed).toHaveLength(shipped.total);
  expect(shipped.stoppedAfter).not.toBeNull();
  expect(shipped.slices.some((s) => s.pushedFiles.length > 0)).toBe(true);
  expect(shipped).toEqual(inProcess);
}
