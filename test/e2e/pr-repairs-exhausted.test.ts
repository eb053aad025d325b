import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPulls, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: CI keeps failing. Each repair tick pushes the PR's own branch (no second PR);
 * after three repairs the fourth failure asks the owner instead of a fourth repair, and the
 * repair todo stops.
 */
describe("e2e: three failed repairs ask the owner", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("repairs on the PR's branch, at most three times, then a question gate", async () => {
    h.sandbox.ci.rule = () => "failure";
    const goal = await h.startGoal("Speed up rendering", ["Cache layout"]);
    const issue = goal.goal.issue.number;

    const first = await playTick(h, issue, { "src/a.ts": "0\n" }, { complete: true });
    await h.sandbox.idle();
    await h.settle();
    for (let i = 1; i <= 3; i++) {
      const repair = await playTick(h, issue, { "src/a.ts": `${i}\n` });
      // A repair works where the failure is: on the PR's branch.
      expect(repair.branch).toBe(first.branch);
      await h.sandbox.idle();
      await h.settle();
    }

    const pulls = (await openPulls(h)).filter((p) => p.head.ref.startsWith(`loopx/${issue}-`));
    expect(pulls.map((p) => p.head.ref)).toEqual([first.branch]);
    const number = pulls[0]?.number ?? 0;
    const state = await h.store.loadGoal(goal.goal.id);
    // One repair todo serves the PR: each failing head updated it, three ticks worked it, and
    // the question stopped it (another slice would fail CI the same way).
    const repairs = state?.todos.filter((t) => t.kind === "repair") ?? [];
    expect(repairs.map((t) => [t.status, t.attempts])).toEqual([["dropped", 3]]);
    expect(state?.pullRequests[0]?.monitor.repairAttempts).toBe(3);
    const asks = state?.gates.filter((g) => g.scopes.includes(`repair:${number}`)) ?? [];
    expect(asks.map((g) => g.status)).toEqual(["open"]);
    expect(asks[0]?.question).toContain("after 3 repair attempts");
    const comment = h.sandbox
      .issue("acme/widgets", issue)
      .comments_list.find((c) => readKey(String(c.body ?? "")) === `gate:${asks[0]?.key}:opened`);
    expect(comment).toBeDefined();
  }, 120_000);
});
