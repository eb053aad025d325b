import type { GoalState } from "@loopx/core";
import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPulls, personClient, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * The issue-fix loop end to end, driven through the tick API against the real App and the
 * sandbox: push → the App opens the PR → CI fails → a repair todo; the next tick fixes it on
 * the PR's branch → green → merge gate → a writer requests changes → a review todo, addressed
 * → the owner approves the current head → a person merges → the goal is done, reported and
 * its issue closed by LoopX.
 */
describe("e2e: the issue-fix loop across a linked PR", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("goes from a first push to a merged PR and a closed goal", async () => {
    let verdict: "success" | "failure" = "failure";
    h.sandbox.ci.rule = () => verdict;
    const goal = await h.startGoal("Speed up rendering", ["Cache layout"]);
    const issue = goal.goal.issue.number;
    const load = async () => {
      const s = await h.store.loadGoal(goal.goal.id);
      if (!s) throw new Error("no goal");
      return s;
    };
    const settle = async () => {
      await h.sandbox.idle();
      await h.settle();
    };
    // CI on a new head reaches the App through several webhooks (the run, its suite, LoopX's
    // own check runs); under load the last can land after one settle, so wait a bounded while.
    const settleUntil = async (reached: (s: GoalState) => boolean) => {
      for (let round = 0; round < 6; round++) {
        await settle();
        if (reached(await load())) break;
      }
      return load();
    };

    // 1. The first tick finishes its todo and pushes; the App opens the PR; CI fails → a
    //    repair todo.
    const t1 = await playTick(h, issue, { "src/a.ts": "broken\n" }, { complete: true });
    await settle();
    const pr = (await openPulls(h)).find((p) => p.head.ref === t1.branch);
    if (!pr) throw new Error("no PR was opened");
    let state = await load();
    const repair = state.todos.find((t) => t.kind === "repair");
    expect(repair?.status).toBe("ready");

    // 2. The next tick takes the repair (top priority), on the PR's branch; CI goes green:
    //    the repair is settled and the merge gate opens on that head.
    verdict = "success";
    const t2 = await playTick(h, issue, { "src/a.ts": "fixed\n" });
    expect([t2.todo, t2.branch]).toEqual([repair?.key, t1.branch]);
    state = await settleUntil((s) => s.gates.some((g) => g.scopes.includes("merge")));
    expect(state.todos.find((t) => t.key === repair?.key)?.status).toBe("done");
    const gate = state.gates.find((g) => g.scopes.includes("merge"));
    expect(gate).toMatchObject({ status: "open", pr: { number: pr.number, headSha: t2.sha } });

    // 3. A writer requests changes → a review todo; the next tick addresses it.
    const alice = personClient(h, "alice");
    await alice.rest.pulls.createReview({
      owner: "acme",
      repo: "widgets",
      pull_number: pr.number,
      commit_id: t2.sha,
      event: "REQUEST_CHANGES",
      body: "Name it layoutCache.",
    });
    await settle();
    state = await load();
    const review = state.todos.find((t) => t.kind === "review");
    expect(review?.status).toBe("ready");
    const t3 = await playTick(h, issue, { "src/a.ts": "layoutCache\n" }, { complete: true });
    expect([t3.todo, t3.branch]).toEqual([review?.key, t1.branch]);
    await settle();
    state = await load();
    expect(state.todos.find((t) => t.key === review?.key)?.status).toBe("done");
    // The push moved the head: the merge gate now asks about the new head.
    expect(state.gates.find((g) => g.key === gate?.key)).toMatchObject({
      status: "open",
      pr: { number: pr.number, headSha: t3.sha },
    });

    // 4. The owner approves the current head → the gate is approved; a person merges.
    await alice.rest.pulls.createReview({
      owner: "acme",
      repo: "widgets",
      pull_number: pr.number,
      commit_id: t3.sha,
      event: "APPROVE",
    });
    await settle();
    state = await load();
    expect(state.gates.find((g) => g.key === gate?.key)?.status).toBe("approved");
    expect(h.sandbox.requests().some((r) => r.operationId === "pulls/merge")).toBe(false);
    const { data: merged } = await alice.rest.pulls.merge({
      owner: "acme",
      repo: "widgets",
      pull_number: pr.number,
    });
    await settle();

    // 5. Done: every todo the PR served is complete, the report is posted, the issue closed.
    state = await load();
    expect(state.goal.status).toBe("done");
    expect(state.todos.map((t) => [t.key, t.status])).toEqual(
      state.todos.map((t) => [t.key, "done"]),
    );
    const goalIssue = h.sandbox.issue("acme/widgets", issue);
    expect(goalIssue).toMatchObject({ state: "closed", state_reason: "completed" });
    const report = goalIssue.comments_list.find(
      (c) => readKey(String(c.body ?? "")) === "final_report",
    );
    const text = String(report?.body);
    expect(text).toContain(`#${pr.number} merged (merge ${merged.sha.slice(0, 7)})`);
    // Each tick charged the cap's 30 runner minutes: no jobs API figure stands behind them.
    expect(text).toContain("Ticks: 3; runner minutes: 90; cost: $0.75.");
  }, 240_000);
});
