import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: a goal with `parallel: 3` is dispatched again before its first run claimed a
 * tick. Each dispatch goes into a slot no other pending dispatch went to, each records its
 * own run, and once every free slot has a dispatch pending, nothing more is dispatched.
 */
describe("e2e: parallel dispatches take distinct slots", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  const runsFor = (issue: number) =>
    [...h.sandbox.store.workflowRuns.values()].filter((r) => r.inputs.goal === String(issue));

  it("three dispatches land in slots 1, 2 and 3; a fourth waits for a free slot", async () => {
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "parallel: 3\n" }, "alice");
    const goal = await h.startGoal("Split the parser");
    expect(goal.goal.parallel).toBe(3);
    for (const n of [2, 3, 4]) {
      const queued = await h.store.queueEffects(goal.goal.id, [
        { kind: "dispatch", key: `dispatch:again:${n}`, reason: "due", at: new Date() },
      ]);
      expect(queued).toBeTruthy();
      await h.settle();
    }
    const runs = runsFor(goal.goal.issue.number);
    expect(runs.map((r) => r.inputs.slot).sort()).toEqual(["1", "2", "3"]);
    for (const run of runs) expect(await h.store.goalOfDispatchedRun(run.id)).toBe(goal.goal.id);
  });
});
