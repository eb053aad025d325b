/**
 * GitHub Actions down for an hour and a half while a goal works (the `actions-outage` cell):
 * every tick run dispatched meanwhile fails before it reaches LoopX. LoopX as shipped waits
 * longer after each failure and is still running when Actions is back; the ablation without
 * backoff spends its stalled ticks at once and ends up asking a person.
 */
import { BACKOFF_LADDER_MINUTES, STALLED_TICKS_ASK_HUMAN } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Arm, ArmRun } from "../../bench/loop/arms/arm-types.ts";
import { OUTAGE_MINUTES } from "../../bench/loop/arms/loopx/actions-outage.ts";
import { loopxArm } from "../../bench/loop/arms/loopx-arm.ts";
import { skillOf } from "../../bench/loop/skill-of.ts";
import { loadTasks } from "../../bench/loop/tasks/load-tasks.ts";
import { startCellWorld } from "../../bench/loop/world/cell-world.ts";
import { RepoRest } from "../../bench/loop/world/rest.ts";
import { createSandbox, type Sandbox } from "../../packages/sandbox/src/index.ts";

const MINUTE = 60_000;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await createSandbox();
});
afterAll(async () => {
  await sandbox?.stop();
});

/** The arm on csv-quoting through the outage: its run, what landed, the failed runs' times. */
async function throughOutage(arm: Arm, repo: string) {
  const task = (await loadTasks()).find((t) => t.spec.id === "csv-quoting");
  if (!task) throw new Error("no csv-quoting task");
  const world = await startCellWorld({ sandbox, task, repo, seed: 1 });
  try {
    const run: ArmRun = await arm.run({
      world,
      cell: { task, profile: "competent", fault: "actions-outage", seed: 1, horizonHours: 72 },
      skill: skillOf(task),
    });
    const id = sandbox.repoByFullName(repo).id;
    const failed = [...sandbox.store.workflowRuns.values()]
      .filter((r) => r.repoId === id && r.conclusion === "failure")
      .map((r) => r.updatedAt)
      .sort((a, b) => a - b);
    const rest = new RepoRest(sandbox.url, repo, world.token("maintainer"));
    const comments = await rest.comments(1);
    return { run, task, landed: await world.landed(), failed, comments };
  } finally {
    world.close();
  }
}

/** Time between one failed run and the next. */
const gapsOf = (times: number[]) => times.slice(1).map((t, i) => t - (times[i] ?? t));

/**
 * The owners' notices that runs failing before they reach LoopX need a person (kernel:
 * stall.ts), not the status comment that also says so.
 */
const aboutStalls = (c: { body?: string | null }) =>
  c.body?.includes("needs you.**") === true &&
  c.body.includes(`${STALLED_TICKS_ASK_HUMAN} tick runs in a row failed before they reached LoopX`);

describe("an outage of GitHub Actions", () => {
  it("LoopX backs off through it and lands every todo; without backoff it gives up", async () => {
    const shipped = await throughOutage(loopxArm(), "bench/outage-backoff");
    expect(shipped.landed).toEqual(shipped.task.todoOrder());
    expect(shipped.run.unrecovered).toEqual([]);
    expect(shipped.run.faults).toEqual([expect.stringContaining(`down ${OUTAGE_MINUTES} min`)]);
    // Each failure waited at least its rung of the ladder, and the last one fell inside the
    // outage: fewer failures than it takes to ask a person.
    expect(shipped.failed.length).toBeGreaterThan(1);
    expect(shipped.failed.length).toBeLessThan(STALLED_TICKS_ASK_HUMAN);
    gapsOf(shipped.failed).forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual((BACKOFF_LADDER_MINUTES[i] ?? 0) * MINUTE);
    });
    expect(shipped.comments.filter(aboutStalls)).toEqual([]);

    const ablated = await throughOutage(loopxArm({ without: "backoff" }), "bench/outage-none");
    // No wait after a failure: each next run comes sooner than the ladder's first rung, until
    // the stalls ask a person.
    expect(ablated.failed).toHaveLength(STALLED_TICKS_ASK_HUMAN);
    for (const gap of gapsOf(ablated.failed)) {
      expect(gap).toBeLessThan((BACKOFF_LADDER_MINUTES[0] ?? 0) * MINUTE);
    }
    // Asked once; what follows over the days left are reminders of that one question.
    const [asked, ...reminders] = ablated.comments.filter(aboutStalls);
    expect(asked?.body).toContain("**LoopX needs you.**");
    for (const r of reminders) expect(r.body).toContain("**Reminder — LoopX still needs you.**");
    expect(ablated.landed.length).toBeLessThan(ablated.task.todoOrder().length);
    expect(ablated.run.unrecovered).toEqual(["the goal was not done when the run ended"]);
  }, 300_000);
});
