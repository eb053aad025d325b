import { randomUUID } from "node:crypto";
import { approveGate, openGate, ResultResponse } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import {
  botComments,
  comment,
  goal,
  openTestGate,
  startGoalWithPull,
} from "../support/goal-steps.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { askRun, reportResult } from "../support/tick-calls.ts";

const repo = { owner: "acme", repo: "widgets" } as const;

/**
 * An approval covers what its author saw. The agent (or anyone who can push to the PR)
 * moves the head under an open gate, and a maintainer's `/loopx approve G1`, written about
 * the old head, reaches LoopX after the push (GitHub delivered it late): it must not approve
 * the head nobody looked at. Time passes on the sandbox's clock, as it does on GitHub's.
 */
describe("hostile: a gate's approval is bound to the head it names", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  let pr: number;
  let head: string;
  const later = (seconds: number) => h.sandbox.clock.advance(seconds * 1000);
  const g1 = async () => (await goal(h, goalId)).gates.find((g) => g.key === "G1");

  beforeAll(async () => {
    h = await startHarness();
    await h.app.reconcile();
    ({ number, goalId, pr, first: head } = await startGoalWithPull(h));
    await openTestGate(h, goalId, {
      question: "May I merge the fix?",
      scopes: ["merge"],
      pr: { number: pr, headSha: head },
    });
  });
  afterAll(() => h.close());

  it("a push moves an open gate to the new head with a new comment naming it", async () => {
    await later(30);
    head = h.sandbox.push("acme/widgets", "loopx/1-T1", { "fix.txt": "two\n" }, "wendy");
    await h.settle();
    expect((await g1())?.pr?.headSha).toBe(head);
    const moved = (await botComments(h, number)).filter(
      (c) => c.key === `gate:G1:reopened:${head.slice(0, 12)}`,
    );
    expect(moved).toHaveLength(1);
    expect(moved[0]?.body).toContain(head.slice(0, 12));
  });

  it("an approval written before a push but delivered after it is refused, naming the head", async () => {
    await later(30);
    // alice approves what she saw; GitHub's delivery of her comment is lost for now.
    h.sandbox.faults.webhook({ mode: "drop", event: "issue_comment.created", times: 1 });
    const { data } = await h
      .as("alice")
      .rest.issues.createComment({ ...repo, issue_number: number, body: "/loopx approve G1" });
    await h.settle();
    expect((await g1())?.status).toBe("open");
    // Then the head moves, and GitHub tells LoopX (the synchronize arrives first).
    await later(30);
    head = h.sandbox.push("acme/widgets", "loopx/1-T1", { "fix.txt": "three\n" }, "wendy");
    await h.settle();
    // Now the lost comment comes back through the reconciler.
    expect((await h.app.reconcile()).recorded).toBeGreaterThanOrEqual(1);
    await h.settle();
    expect((await g1())?.status).toBe("open");
    const reply = (await botComments(h, number)).find((c) => c.key === `reply:comment:${data.id}`);
    expect(reply?.body).toContain(head.slice(0, 12));
  });

  it("an edited comment never approves", async () => {
    await later(30);
    const { data } = await h
      .as("alice")
      .rest.issues.createComment({ ...repo, issue_number: number, body: "Looking at it now." });
    await h.settle();
    await later(5);
    await h
      .as("alice")
      .rest.issues.updateComment({ ...repo, comment_id: data.id, body: "/loopx approve G1" });
    await h.settle();
    expect((await g1())?.status).toBe("open");
  });

  it("a new comment written after GitHub reported the head approves that head", async () => {
    await later(30);
    await comment(h, "alice", number, "/loopx approve G1");
    expect(await g1()).toMatchObject({ status: "approved", pr: { headSha: head } });
  });
});

/**
 * A `write:.github` approval lets ONE push change `.github/` (the workflows that run with
 * the repository's secrets): the tick whose push it covered spends it, and the next tick's
 * push of workflow files is refused again until someone approves anew.
 */
describe("hostile: a write:.github approval covers one head", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("the first push after the approval may touch .github/, the next may not", async () => {
    const goal = await h.startGoal("Fix the CI workflow", ["Repair ci.yml"]);
    const ctx = (now: Date) => ({
      actor: { kind: "human" as const, login: "alice", trusted: true },
      now,
      newId: randomUUID,
    });
    const opened = await h.store.apply(goal.goal.id, (s, now) =>
      openGate(
        s,
        { question: "May the agent edit .github/?", scopes: ["write:.github"] },
        ctx(now),
      ),
    );
    if (!opened.ok) throw new Error(opened.refusal.message);
    const approved = await h.store.apply(goal.goal.id, (s, now) =>
      approveGate(s, { gate: "G1" }, ctx(now)),
    );
    if (!approved.ok) throw new Error(approved.refusal.message);

    const tick = async (run: number, sha: string) => {
      const claim = await askRun(h, goal.goal.issue.number, run);
      const reported = await reportResult(h, claim, run, {
        outcome: "progress",
        commits: [{ sha, message: "Edit .github/workflows/ci.yml" }],
        handoff: { done: "Edited ci.yml", next: "More", questions: [] },
      });
      expect(reported.status).toBe(200);
      return ResultResponse.parse(reported.body).push;
    };
    expect((await tick(6601, "1".repeat(40)))?.allowWorkflowPaths).toBe(true);
    expect((await tick(6602, "2".repeat(40)))?.allowWorkflowPaths).toBe(false);
    const state = await h.store.loadGoal(goal.goal.id);
    expect(state?.gates.find((g) => g.key === "G1")?.status).not.toBe("approved");
  });
});
