import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcilePulls } from "../../app/src/pulls/monitor-pull.ts";
import { firstPull } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: the base requires nothing, `checks: [e2e]` in .github/loopx.yml does. CI reports
 * `ci` success and `e2e` neutral: neutral is not success, so LoopX asks instead of opening
 * the merge gate. A writer's `[skip ci]` push then leaves the head without checks: never green.
 */
describe("e2e: checks: in loopx.yml, neutral results and [skip ci]", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness({ requiredChecks: [] });
  });
  afterAll(() => h.close());

  it("a neutral required check asks; a [skip ci] head asks again; neither is green", async () => {
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "checks: [e2e]\n" }, "alice");
    h.sandbox.ci.checks = ["ci", "e2e"];
    h.sandbox.ci.rule = ({ check }) => (check === "e2e" ? "neutral" : "success");
    const { goal, pr, tick } = await firstPull(h, "Speed up rendering", ["Cache layout"], {
      "src/layout.ts": "export const cache = 1;\n",
    });
    let state = await h.store.loadGoal(goal.goal.id);
    const watched = state?.pullRequests[0];
    expect(watched?.monitor.required).toEqual(["e2e"]);
    expect(watched?.monitor.checks.map((c) => [c.name, c.status])).toEqual([
      ["ci", "success"],
      ["e2e", "neutral"],
    ]);
    expect(state?.gates.map((g) => [g.scopes[0], g.status])).toEqual([[`ci:${pr.number}`, "open"]]);
    expect(state?.gates[0]?.question).toContain("e2e (neutral)");

    // A writer pushes to the PR's branch with [skip ci]: CI does not run on the new head.
    const head = h.sandbox.push(
      "acme/widgets",
      tick.branch,
      { "src/layout.ts": "2\n" },
      "alice",
      "Tweak [skip ci]",
    );
    await h.sandbox.idle();
    await h.settle();
    await reconcilePulls(h.app.deps, [goal.goal.id]);
    await h.settle();
    state = await h.store.loadGoal(goal.goal.id);
    const moved = state?.pullRequests[0]?.monitor;
    expect(state?.pullRequests[0]?.headSha).toBe(head);
    expect(moved?.skipCi).toBe(true);
    expect(moved?.checks).toEqual([]);
    // The neutral question was about the old head; the new one asks about the skip.
    expect(state?.gates.map((g) => [g.scopes[0], g.status])).toEqual([
      [`ci:${pr.number}`, "expired"],
      [`ci:${pr.number}`, "open"],
    ]);
    expect(state?.gates[1]?.question).toContain("skip CI");
    expect(state?.gates.some((g) => g.scopes.includes("merge"))).toBe(false);
  }, 120_000);
});
