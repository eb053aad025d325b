import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcilePulls } from "../../app/src/pulls/monitor-pull.ts";
import { firstPull, personClient } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: the base branch moves on. Without protection that changes nothing; once branch
 * protection requires an up-to-date branch, GitHub says `behind` and LoopX makes one rebase
 * todo on the PR's branch, as for a conflict.
 */
describe("e2e: a PR behind a protected base gets a rebase todo", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("no todo while the base is unprotected; one rebase todo once it requires up-to-date branches", async () => {
    h.sandbox.ci.rule = () => "success";
    const { goal, tick, pr } = await firstPull(h, "Speed up rendering", ["Cache layout"], {
      "src/a.ts": "1\n",
    });

    // Someone else's change lands on main: the PR is behind, but nothing requires it to catch up.
    h.sandbox.push(h.repo.fullName, "main", { "docs/changes.md": "x\n" }, "alice");
    await h.sandbox.idle();
    await h.settle();
    for (let i = 0; i < 2; i++) await reconcilePulls(h.app.deps, [goal.goal.id]);
    let state = await h.store.loadGoal(goal.goal.id);
    expect(state?.todos.filter((t) => t.kind === "rebase")).toEqual([]);
    expect(state?.pullRequests[0]?.monitor.mergeableState).toBe("clean");

    // The owner requires branches to be up to date before merging.
    await personClient(h, "acme").rest.repos.updateBranchProtection({
      owner: "acme",
      repo: "widgets",
      branch: "main",
      required_status_checks: { strict: true, contexts: [] },
      enforce_admins: null,
      required_pull_request_reviews: null,
      restrictions: null,
    });
    for (let i = 0; i < 3; i++) await reconcilePulls(h.app.deps, [goal.goal.id]);
    await h.settle();

    state = await h.store.loadGoal(goal.goal.id);
    const rebases = state?.todos.filter((t) => t.kind === "rebase") ?? [];
    expect(rebases.map((t) => t.title)).toEqual([
      `Update #${pr.number}'s branch: it is behind its base, which must be merged in first`,
    ]);
    expect(state?.pullRequests[0]?.monitor).toMatchObject({
      mergeable: true,
      mergeableState: "behind",
      todos: [rebases[0]?.key],
    });
    const next = await h.post(
      "/api/v1/ticks",
      { goal: goal.goal.issue.number },
      await h.token(9903),
    );
    expect(next.body).toMatchObject({ run: true, todo: rebases[0]?.key, branch: tick.branch });
  }, 120_000);
});
