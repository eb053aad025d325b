import { decide } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPulls, personClient, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/** Scenario: a person closes the App's PR without merging → the watch ends, the goal replans. */
describe("e2e: a PR closed unmerged", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("ends its watch and asks the goal for a replan", async () => {
    const goal = await h.startGoal("Speed up rendering", ["Cache layout"]);
    const tick = await playTick(h, goal.goal.issue.number, { "src/a.ts": "1\n" });
    await h.settle();
    const pr = (await openPulls(h)).find((p) => p.head.ref === tick.branch);
    if (!pr) throw new Error("no PR was opened");
    await personClient(h, "alice").rest.pulls.update({
      owner: "acme",
      repo: "widgets",
      pull_number: pr.number,
      state: "closed",
    });
    await h.settle();

    const state = await h.store.loadGoal(goal.goal.id);
    if (!state) throw new Error("no goal");
    expect(state.pullRequests.map((p) => [p.state, p.monitor.watching])).toEqual([
      ["closed", false],
    ]);
    expect(state.goal.replanRequested).toBe(true);
    expect(state.evidence.some((e) => e.summary === `#${pr.number} closed without merging`)).toBe(
      true,
    );
    expect(decide(state, new Date(), "test").route).toBe("replan");
  }, 120_000);
});
