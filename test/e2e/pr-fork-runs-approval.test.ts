import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcilePulls } from "../../app/src/pulls/monitor-pull.ts";
import { personClient } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const o = { owner: "acme", repo: "widgets" } as const;
const CI_WORKFLOW = `name: CI
on: pull_request
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: echo ok
`;

/**
 * Scenario: a first-time contributor's fork PR on a public repository, linked to a goal. Its
 * workflow runs wait as `action_required`: LoopX opens a gate instead of reading the PR as
 * anything but waiting, and a writer's approval makes the App approve the runs through
 * GitHub's endpoint (allowed for fork PRs), with a reply saying so.
 */
describe("e2e: runs waiting for approval on a fork PR", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("become a gate; a writer's approval approves them through the API", async () => {
    h.sandbox.store.repo(h.repo.id).private = false;
    h.sandbox.push("acme/widgets", "main", { ".github/workflows/ci.yml": CI_WORKFLOW }, "alice");
    const goal = await h.startGoal("Take mallory's fix", ["Review it"]);
    const issue = goal.goal.issue.number;

    h.sandbox.createUser("mallory");
    const mallory = personClient(h, "mallory");
    const fork = (await mallory.rest.repos.createFork(o)).data;
    h.sandbox.push(fork.full_name, "fix", { "src/fix.ts": "1\n" }, "mallory");
    h.sandbox.runner.enabled = true;
    const pr = (
      await mallory.rest.pulls.create({ ...o, title: "Fix", head: "mallory:fix", base: "main" })
    ).data;
    await h.sandbox.idle();
    h.sandbox.runner.enabled = false;
    const waiting = [...h.sandbox.store.workflowRuns.values()].filter(
      (r) => r.event === "pull_request" && r.headSha === pr.head.sha,
    );
    expect(waiting.map((r) => r.conclusion)).toEqual(["action_required"]);
    const [run] = waiting;
    if (!run) throw new Error("no waiting run");

    const alice = personClient(h, "alice");
    await alice.rest.issues.createComment({
      ...o,
      issue_number: issue,
      body: `/loopx link #${pr.number}`,
    });
    await h.settle();
    await reconcilePulls(h.app.deps, [goal.goal.id]);
    await h.settle();
    let state = await h.store.loadGoal(goal.goal.id);
    const gate = state?.gates.find((g) => g.scopes.includes(`ci-approval:${pr.number}`));
    expect(gate?.status).toBe("open");
    expect(gate?.question).toContain("wait for approval (CI)");
    expect(state?.gates.filter((g) => g.scopes.includes("merge"))).toEqual([]);
    // Reading the PR approved nothing: only a person's act may.
    expect(h.sandbox.requests().some((r) => r.operationId === "actions/approve-workflow-run")).toBe(
      false,
    );

    await alice.rest.issues.createComment({
      ...o,
      issue_number: issue,
      body: `/loopx approve ${gate?.key}`,
    });
    await h.settle();
    state = await h.store.loadGoal(goal.goal.id);
    expect(state?.gates.find((g) => g.key === gate?.key)?.status).toBe("approved");
    const approvals = h.sandbox
      .requests()
      .filter((r) => r.operationId === "actions/approve-workflow-run");
    expect(approvals.map((r) => [r.path.endsWith(`/runs/${run.id}/approve`), r.status])).toEqual([
      [true, 201],
    ]);
    expect(h.sandbox.store.workflowRuns.get(run.id)?.conclusion).toBeNull();
    const replies = h.sandbox
      .issue("acme/widgets", issue)
      .comments_list.filter((c) => String(c.body).includes("LoopX approved the 1 workflow run"));
    expect(replies).toHaveLength(1);
  }, 120_000);
});
