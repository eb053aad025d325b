import { approveGate, MAX_INITIAL_TODOS, pauseGoal } from "@loopx/core";
import { describe, expect, it } from "vitest";
import { ctx, expectOk, gate, state, todo, WRITER } from "../../../packages/core/test/fixtures.ts";
import {
  planClosed,
  planReopened,
  planSubIssueClosed,
  planUnlabeled,
} from "../../src/issues/plan-issue-state.ts";
import { type LabelFacts, planStart } from "../../src/issues/plan-start.ts";
import { planReview, type ReviewFacts } from "../../src/pulls/plan-review.ts";

const ISSUE = { owner: "acme", repo: "widgets", number: 42 };
const REPO = { id: 10, fullName: "acme/widgets" };

describe("planStart: who may start a goal", () => {
  const facts = (over: Partial<LabelFacts> = {}): LabelFacts => ({
    issue: ISSUE,
    repo: REPO,
    onPullRequest: false,
    added: "loopx",
    goalLabel: "loopx",
    sender: "writer",
    trusted: true,
    existing: null,
    openTodos: 3,
    ...over,
  });

  it("a writer's label on an issue without a goal starts one", () => {
    expect(planStart(facts())).toEqual({ kind: "create" });
  });

  it("an outsider's label starts nothing: one reply per person, on an issue with no goal", () => {
    const plan = planStart(facts({ sender: "stranger", trusted: false }));
    expect(plan).toMatchObject({ kind: "ignore" });
    if (plan.kind !== "ignore") return;
    expect(plan.effects).toEqual([
      expect.objectContaining({
        kind: "reply",
        key: "label-refused:stranger",
        issue: ISSUE,
        to: { repoId: 10, login: "stranger" },
      }),
    ]);
  });

  it("another label, or a pull request, is not a goal's", () => {
    expect(planStart(facts({ added: "bug" }))).toMatchObject({ kind: "ignore", effects: [] });
    expect(planStart(facts({ onPullRequest: true }))).toMatchObject({
      kind: "ignore",
      effects: [],
    });
  });

  it("relabelling resumes a paused goal, never a second one; an active goal stays as it is", () => {
    const paused = expectOk(pauseGoal(state(), { reason: "x" }, ctx(undefined, WRITER))).state;
    const plan = planStart(facts({ existing: paused }));
    if (plan.kind !== "apply") throw new Error("expected a resume");
    const r = expectOk(plan.transition(paused, ctx(undefined, plan.actor)));
    expect(r.state.goal.status).toBe("active");
    expect(planStart(facts({ existing: state() }))).toMatchObject({ kind: "ignore", effects: [] });
  });

  it("a task list over the most a goal starts with starts nothing and says so", () => {
    const plan = planStart(facts({ openTodos: MAX_INITIAL_TODOS + 1 }));
    expect(plan.kind).toBe("ignore");
    if (plan.kind !== "ignore") return;
    expect(plan.effects).toEqual([
      expect.objectContaining({ kind: "reply", key: "task-list-too-long:42" }),
    ]);
    expect(planStart(facts({ openTodos: MAX_INITIAL_TODOS }))).toEqual({ kind: "create" });
  });

  it("a task-list item whose paths are not the repository's starts nothing and says why", () => {
    const why = '"Copy it paths: /etc/**": "/etc/**" is not a path in this repository';
    const plan = planStart(facts({ pathsProblem: why }));
    expect(plan.kind).toBe("ignore");
    if (plan.kind !== "ignore") return;
    expect(plan.effects).toEqual([
      expect.objectContaining({
        kind: "reply",
        key: "task-list-paths:42",
        body: expect.stringMatching(/is not a path in this repository.*Nothing was started/),
      }),
    ]);
    expect(planStart(facts({ pathsProblem: null }))).toEqual({ kind: "create" });
  });
});

describe("planReopened", () => {
  it("a reopened stopped or done goal is not resumed; one ask per state, keyed by its version", () => {
    const stopped = state({}, { status: "stopped", version: 7 });
    const plan = planReopened({ issue: ISSUE, repoId: 10, sender: "writer", goal: stopped });
    expect(plan.effects).toEqual([expect.objectContaining({ kind: "reply", key: "reopened:v7" })]);
    const done = planReopened({
      issue: ISSUE,
      repoId: 10,
      sender: "w",
      goal: state({}, { status: "done" }),
    });
    expect(done.effects[0]?.kind === "reply" && done.effects[0].body).toContain("finished");
    expect(planReopened({ issue: ISSUE, repoId: 10, sender: "w", goal: state() }).effects).toEqual(
      [],
    );
    expect(planReopened({ issue: ISSUE, repoId: 10, sender: "w", goal: null }).effects).toEqual([]);
  });
});

describe("planClosed and planUnlabeled", () => {
  it("anyone's close stops an active or paused goal; LoopX's own close, or a finished goal, nothing", () => {
    const plan = planClosed({ goal: state(), sender: "tom", byLoopx: false });
    if (plan.kind !== "apply") throw new Error("a close stops the goal");
    expect(plan.actor).toEqual({ kind: "system", reason: "issue closed by @tom" });
    expect(expectOk(plan.transition(state(), ctx(undefined, plan.actor))).state.goal.status).toBe(
      "stopped",
    );
    expect(planClosed({ goal: state(), sender: "loopx[bot]", byLoopx: true })).toMatchObject({
      kind: "ignore",
    });
    const done = state({}, { status: "done" });
    expect(planClosed({ goal: done, sender: "tom", byLoopx: false })).toMatchObject({
      kind: "ignore",
      why: "goal already done",
    });
  });

  it("only a writer removing the goal label pauses the goal", () => {
    const facts = { goal: state(), removed: "loopx", goalLabel: "loopx", sender: "wendy" };
    const plan = planUnlabeled({ ...facts, trusted: true });
    if (plan.kind !== "apply") throw new Error("a writer's unlabel pauses");
    expect(expectOk(plan.transition(state(), ctx(undefined, plan.actor))).state.goal.status).toBe(
      "paused",
    );
    expect(planUnlabeled({ ...facts, trusted: false })).toMatchObject({
      kind: "ignore",
      effects: [],
    });
    expect(planUnlabeled({ ...facts, removed: "bug", trusted: true }).kind).toBe("ignore");
    expect(planUnlabeled({ ...facts, goal: null, trusted: true }).kind).toBe("ignore");
  });
});

describe("planSubIssueClosed: who may settle a todo by closing its sub-issue", () => {
  const sub = { ...ISSUE, number: 43 };
  const withSub = state({ todos: [todo("T1", { subIssue: { id: 4300, number: 43 } })] });
  const base = {
    issue: sub,
    repoId: 10,
    goal: withSub,
    todo: "T1",
    sender: { login: "writer", type: "User" },
    byLoopx: false,
    trusted: true,
    stateReason: "completed",
  };

  it("a writer's close as completed settles the todo; as not planned, drops it", () => {
    const done = planSubIssueClosed(base);
    if (done.kind !== "apply") throw new Error("expected a transition");
    expect(
      expectOk(done.transition(withSub, ctx(undefined, done.actor))).state.todos[0]?.status,
    ).toBe("done");
    const dropped = planSubIssueClosed({ ...base, stateReason: "not_planned" });
    if (dropped.kind !== "apply") throw new Error("expected a transition");
    expect(
      expectOk(dropped.transition(withSub, ctx(undefined, dropped.actor))).state.todos[0]?.status,
    ).toBe("dropped");
  });

  it("an outsider's close leaves the todo, with one reply per person; a bot's, none; LoopX's own, nothing", () => {
    const outsider = planSubIssueClosed({
      ...base,
      sender: { login: "stranger", type: "User" },
      trusted: false,
    });
    expect(outsider.kind).toBe("ignore");
    expect(outsider.effects).toEqual([
      expect.objectContaining({
        kind: "reply",
        key: "sub-issue-close-refused:stranger",
        issue: sub,
      }),
    ]);
    const bot = planSubIssueClosed({
      ...base,
      sender: { login: "x[bot]", type: "Bot" },
      trusted: false,
    });
    expect(bot).toMatchObject({ kind: "ignore", effects: [] });
    expect(planSubIssueClosed({ ...base, byLoopx: true })).toMatchObject({
      kind: "ignore",
      effects: [],
    });
  });
});

describe("planReview: what an approving review resolves", () => {
  const head = "a".repeat(40);
  const REVIEW_URL = "https://github.com/acme/widgets/pull/7#pullrequestreview-55";
  const bound = state({
    gates: [gate("G1", ["merge"], { pr: { number: 7, headSha: head, seenAt: null } })],
  });
  const facts = (over: Partial<ReviewFacts> = {}): ReviewFacts => ({
    pull: { ...ISSUE, number: 7 },
    repo: REPO,
    reviewId: 55,
    state: "approved",
    reviewer: { login: "writer", type: "User" },
    goals: [bound],
    trusted: true,
    reviewed: head,
    head,
    act: REVIEW_URL,
    ...over,
  });

  it("a writer's approval of the current head approves the bound gate, with no reply", () => {
    const plan = planReview(facts());
    if (plan.kind !== "approve") throw new Error("expected approvals");
    const [only] = plan.plans;
    if (only?.plan.kind !== "apply") throw new Error("expected a transition");
    expect(only.plan.effects).toEqual([]);
    const r = expectOk(only.plan.transition(bound, ctx(undefined, only.plan.actor)));
    expect(r.state.gates[0]?.status).toBe("approved");
    // The receipt names the head approved and links to the review that approved it.
    const approved = r.events.find((e) => e.type === "gate.approved");
    expect(approved?.data).toMatchObject({ head, act: REVIEW_URL });
  });

  it("a second approval of an approved gate says nothing; another refusal is answered", () => {
    const plan = planReview(facts());
    if (plan.kind !== "approve" || plan.plans[0]?.plan.kind !== "apply") throw new Error("plan");
    const { refused } = plan.plans[0].plan;
    expect(refused?.({ code: "duplicate", message: "already" })).toEqual([]);
    expect(refused?.({ code: "invalid_state", message: "no" })).toEqual([
      expect.objectContaining({ kind: "reply", key: "reply:review:55", lane: "loopx" }),
    ]);
    // The kernel itself refuses a gate approved already.
    const approved = expectOk(
      approveGate(bound, { gate: "G1", headSha: head, note: null }, ctx(undefined, WRITER)),
    ).state;
    expect(plan.plans[0].plan.transition(approved, ctx(undefined, WRITER)).ok).toBe(false);
  });

  it("a stale review keeps the gate open and says what would count", () => {
    const plan = planReview(facts({ reviewed: "b".repeat(40) }));
    expect(plan.kind).toBe("ignore");
    if (plan.kind !== "ignore") return;
    expect(plan.plan.effects).toEqual([
      expect.objectContaining({ kind: "reply", key: "reply:review:55", lane: "loopx" }),
    ]);
  });

  it("an outsider's approval resolves nothing: answered from the outsiders' allowance", () => {
    const plan = planReview(
      facts({ reviewer: { login: "stranger", type: "User" }, trusted: false }),
    );
    if (plan.kind !== "ignore") throw new Error("an outsider approves nothing");
    expect(plan.plan.effects).toEqual([
      expect.objectContaining({
        kind: "reply",
        lane: "outsider",
        to: { repoId: 10, login: "stranger" },
      }),
    ]);
  });

  it("a bot's approval, a comment review, or a PR with no bound gate: silence", () => {
    for (const over of [
      { reviewer: { login: "ci[bot]", type: "Bot" }, trusted: true },
      { state: "commented" },
      { goals: [] },
    ]) {
      const plan = planReview(facts(over));
      expect(plan).toMatchObject({ kind: "ignore", plan: { effects: [] } });
    }
  });
});
