import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcilePulls } from "../../app/src/pulls/monitor-pull.ts";
import { firstPull, personClient } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: a repository whose base branch requires no check. CI passes on the PR's head, yet
 * nothing may call the PR green: LoopX asks its owners one question and opens no merge gate.
 * Once the owner requires `ci` with classic branch protection, the same green head is ready.
 */
describe("e2e: green needs a required check", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness({ requiredChecks: [] });
  });
  afterAll(() => h.close());

  it("passing CI with no required check asks once; requiring it opens the merge gate", async () => {
    h.sandbox.ci.rule = () => "success";
    const { goal, tick, pr } = await firstPull(h, "Speed up rendering", ["Cache layout"], {
      "src/layout.ts": "export const cache = 1;\n",
    });
    // CI's checks on the head (LoopX's own gates check there is not CI).
    const checks = [...h.sandbox.store.checkRuns.values()].filter(
      (c) => c.headSha === tick.sha && !c.name.startsWith("LoopX / "),
    );
    expect(checks.map((c) => [c.name, c.conclusion])).toEqual([["ci", "success"]]);

    let state = await h.store.loadGoal(goal.goal.id);
    expect(state?.gates.filter((g) => g.scopes.includes("merge"))).toEqual([]);
    const asked = state?.gates.filter((g) => g.status === "open") ?? [];
    expect(asked.map((g) => g.scopes)).toEqual([[`ci-unrequired:${pr.number}`]]);
    const asking = () =>
      h.sandbox
        .issue("acme/widgets", goal.goal.issue.number)
        .comments_list.filter((c) => String(c.body).includes("requires no checks")).length;
    // The gate's own comment, and the status comment listing it.
    expect(asking()).toBe(2);
    // The backstop reads the same PR again: nothing new is asked.
    expect(await reconcilePulls(h.app.deps, [goal.goal.id])).toBe(0);
    await h.settle();
    expect(asking()).toBe(2);
    const status = () =>
      String(
        h.sandbox
          .issue("acme/widgets", goal.goal.issue.number)
          .comments_list.find((c) => String(c.body).includes("#### Pull requests"))?.body,
      );
    expect(status()).toContain(`#${pr.number} for T1 · open · no required checks: never green`);

    // The owner requires `ci` on main with classic branch protection.
    await personClient(h, "acme").rest.repos.updateBranchProtection({
      owner: "acme",
      repo: "widgets",
      branch: "main",
      required_status_checks: { strict: false, contexts: ["ci"] },
      enforce_admins: null,
      required_pull_request_reviews: null,
      restrictions: null,
    });
    // Protection made GitHub compute the PR's mergeability again, so this reading finds null:
    // that says only that the job started, not that the head GitHub already found mergeable
    // stopped being so. The head is green on a required check now: the merge gate opens.
    expect(await reconcilePulls(h.app.deps, [goal.goal.id])).toBe(1);
    // The next reading has GitHub's answer again, the same: nothing new.
    expect(await reconcilePulls(h.app.deps, [goal.goal.id])).toBe(0);
    await h.settle();
    state = await h.store.loadGoal(goal.goal.id);
    expect(state?.pullRequests[0]?.monitor.required).toEqual(["ci"]);
    expect(state?.gates.map((g) => [g.scopes[0], g.status])).toEqual([
      [`ci-unrequired:${pr.number}`, "expired"],
      ["merge", "open"],
    ]);
    expect(status()).toContain(`#${pr.number} for T1 · open · required checks green`);
  }, 120_000);
});
