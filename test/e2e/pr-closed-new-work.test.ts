import { AWAITING_PULL_REQUEST } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPulls, personClient, playPlanTick, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const repo = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario: the owner closes T1's PR unmerged; the replan keeps T1, and its next slice pushes
 * new work to the same branch. The App does not open a second PR beside the closed one: it
 * reopens its own PR, the goal follows it again, and its merge completes T1.
 */
describe("e2e: new work on a branch whose PR was closed unmerged", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("reopens the closed PR instead of opening a second one", async () => {
    h.sandbox.ci.rule = () => "success";
    const goal = await h.startGoal("Speed up rendering", ["Cache layout"]);
    const issue = goal.goal.issue.number;
    const first = await playTick(h, issue, { "src/a.ts": "1\n" }, { complete: true });
    await h.sandbox.idle();
    await h.settle();
    const [pr] = await openPulls(h);
    if (!pr) throw new Error("no PR was opened");
    const alice = personClient(h, "alice");
    await alice.rest.pulls.update({ ...repo, pull_number: pr.number, state: "closed" });
    await h.settle();

    // The replan slice keeps the plan as it is: it proposes T1 again, which adds nothing (no
    // commits, nothing pushed; a plan proposing no todo at all would be a stall).
    const planned = await playPlanTick(h, issue, {
      done: "Kept T1: the cache needs a smaller key.",
      next: "Redo T1.",
      proposedTodos: [{ title: "Cache layout" }],
    });
    expect(planned).toBe(200);
    await h.settle();

    const from = h.sandbox.requests().length;
    const second = await playTick(h, issue, { "src/a.ts": "2\n" }, { complete: true });
    expect([second.todo, second.branch]).toEqual(["T1", first.branch]);
    await h.sandbox.idle();
    await h.settle();

    const since = h.sandbox.requests().slice(from);
    expect(since.filter((r) => r.operationId === "pulls/create")).toEqual([]);
    const pulls = await openPulls(h);
    expect(pulls.map((p) => [p.number, p.state, p.head.sha])).toEqual([
      [pr.number, "open", second.sha],
    ]);
    let state = await h.store.loadGoal(goal.goal.id);
    expect(state?.pullRequests.map((p) => [p.number, p.state, p.monitor.watching])).toEqual([
      [pr.number, "open", true],
    ]);
    expect(state?.todos.find((t) => t.key === "T1")).toMatchObject({
      status: "blocked",
      blockedReason: AWAITING_PULL_REQUEST,
    });
    // Followed again: green checks ask for the merge of the new head; the merge completes T1.
    const gate = state?.gates.find((g) => g.pr?.number === pr.number && g.status === "open");
    expect(gate?.pr?.headSha).toBe(second.sha);
    const { data: merged } = await alice.rest.pulls.merge({ ...repo, pull_number: pr.number });
    await h.sandbox.idle();
    await h.settle();
    state = await h.store.loadGoal(goal.goal.id);
    const t1 = state?.todos.find((t) => t.key === "T1");
    expect(t1?.status).toBe("done");
    const proof = state?.evidence.filter((e) => t1?.completion?.evidenceIds.includes(e.id));
    expect(proof?.map((e) => e.sha)).toEqual([merged.sha]);
  }, 180_000);
});
