import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcilePulls } from "../../app/src/pulls/monitor-pull.ts";
import { firstPull } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: the App's PR starts to conflict with its base → once GitHub has computed
 * mergeability (it starts unknown, and LoopX waits for it), one rebase todo on the PR's branch.
 */
describe("e2e: a conflicted PR gets a rebase todo", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("waits for mergeability, then makes one rebase todo", async () => {
    h.sandbox.ci.rule = () => "success";
    const { goal, tick, pr } = await firstPull(h, "Speed up rendering", ["Cache layout"], {
      "src/a.ts": "1\n",
    });

    h.sandbox.setConflict(h.repo.fullName, pr.number, true);
    for (let i = 0; i < 3; i++) await reconcilePulls(h.app.deps, [goal.goal.id]);
    await h.settle();

    const state = await h.store.loadGoal(goal.goal.id);
    const rebases = state?.todos.filter((t) => t.kind === "rebase") ?? [];
    expect(rebases.map((t) => t.title)).toEqual([
      `Update #${pr.number}'s branch: it conflicts with its base`,
    ]);
    expect(state?.pullRequests[0]?.monitor).toMatchObject({
      mergeable: false,
      todos: [rebases[0]?.key],
    });
    // The rebase runs before tasks, on the PR's branch.
    const next = await h.post(
      "/api/v1/ticks",
      { goal: goal.goal.issue.number },
      await h.token(9902),
    );
    expect(next.body).toMatchObject({ run: true, todo: rebases[0]?.key, branch: tick.branch });
  }, 120_000);
});
