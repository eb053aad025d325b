import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPulls, personClient, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: a tick's PR goes green → a `merge` gate bound to its head (LoopX never merges) →
 * the owner approves the current head → a person merges → the todo completes with the merge
 * commit as evidence, the goal is done, a final report is posted and LoopX closes the issue.
 */
describe("e2e: merge gate, merge, completion", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("a green PR opens the merge gate; a human merge finishes the goal with a final report", async () => {
    h.sandbox.ci.rule = () => "success";
    const goal = await h.startGoal("Speed up rendering", ["Cache layout"]);
    const issue = goal.goal.issue.number;
    const tick = await playTick(h, issue, { "src/layout.ts": "export const cache = 1;\n" });
    await h.sandbox.idle();
    await h.settle();
    const pr = (await openPulls(h)).find((p) => p.head.ref === tick.branch);
    if (!pr) throw new Error("no PR was opened");

    let state = await h.store.loadGoal(goal.goal.id);
    const gates = state?.gates.filter((g) => g.scopes.includes("merge")) ?? [];
    expect(gates.map((g) => [g.status, g.pr])).toEqual([
      ["open", { number: pr.number, headSha: tick.sha, seenAt: null }],
    ]);
    // LoopX asked, and did not merge.
    expect(h.sandbox.pull("acme/widgets", pr.number)).toMatchObject({ merged: false });
    expect(h.sandbox.requests().some((r) => r.operationId === "pulls/merge")).toBe(false);

    const alice = personClient(h, "alice");
    await alice.rest.pulls.createReview({
      owner: "acme",
      repo: "widgets",
      pull_number: pr.number,
      commit_id: tick.sha,
      event: "APPROVE",
    });
    await h.settle();
    state = await h.store.loadGoal(goal.goal.id);
    expect(state?.gates.find((g) => g.key === gates[0]?.key)?.status).toBe("approved");

    const { data: merged } = await alice.rest.pulls.merge({
      owner: "acme",
      repo: "widgets",
      pull_number: pr.number,
    });
    await h.sandbox.idle();
    await h.settle();

    state = await h.store.loadGoal(goal.goal.id);
    expect(state?.goal.status).toBe("done");
    expect(state?.pullRequests.map((p) => [p.number, p.state, p.monitor.watching])).toEqual([
      [pr.number, "merged", false],
    ]);
    const t1 = state?.todos.find((t) => t.key === "T1");
    expect(t1?.status).toBe("done");
    const proof = state?.evidence.find((e) => e.id === t1?.completion?.evidenceIds[0]);
    expect(proof).toMatchObject({ kind: "pr", sha: merged.sha });

    const goalIssue = h.sandbox.issue("acme/widgets", issue);
    expect(goalIssue).toMatchObject({ state: "closed", state_reason: "completed" });
    const report = goalIssue.comments_list.find(
      (c) => readKey(String(c.body ?? "")) === "final_report",
    );
    const text = String(report?.body);
    expect(text).toContain(`Goal #${issue} is done`);
    expect(text).toContain("T1 Cache layout");
    expect(text).toContain(`#${pr.number} merged (merge ${merged.sha.slice(0, 7)})`);
    // Each tick charged the cap's 30 runner minutes: no jobs API figure stands behind them.
    expect(text).toContain("Ticks: 1; runner minutes: 30; cost: $0.25.");
  }, 120_000);
});
