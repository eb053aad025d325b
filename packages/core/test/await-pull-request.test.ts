/**
 * A todo whose slice finished with commits on its own branch is delivered by its PR's merge,
 * not by the agent's word: the goal must not be done (and refuse the push) before that PR exists.
 */
import { describe, expect, it } from "vitest";
import {
  AWAITING_PULL_REQUEST,
  applyTickResult,
  claimTodo,
  completeTodoByHuman,
  decide,
  linkSubIssue,
  observePullRequest,
  recordBranchInBase,
  recordPushRefused,
  requestPullRequest,
  settleTodoFromSubIssue,
  trackPullRequest,
} from "../src/index.ts";
import type { GoalState } from "../src/schemas/state.ts";
import {
  APP,
  at,
  claimInput,
  ctx,
  expectOk,
  expectRefused,
  idFactory,
  lease1,
  minutes,
  result,
  state,
  T0,
  todo,
  WRITER,
} from "./fixtures.ts";

const HEAD = "a".repeat(40);
const MERGE = "b".repeat(40);
const AGENT = { kind: "agent" as const, tickId: lease1.tickId, harness: "shell" };

/** The goal's only todo, T1, finished by tick 501 with one commit and no follow-up. */
function finishedWithCommit(): GoalState {
  const s = state({ todos: [todo("T1")] });
  const claimed = expectOk(claimTodo(s, claimInput(1), ctx())).state;
  const done = result({
    outcome: "completed",
    commits: [{ sha: HEAD, message: "Fix the parser" }],
    continuation: { kind: "no_followup", reason: "the bug is fixed" },
  });
  return expectOk(applyTickResult(claimed, { ...lease1, result: done }, ctx(at(minutes(5))))).state;
}

function linked(s: GoalState): GoalState {
  const branch = `loopx/${s.goal.issue.number}-T1`;
  const asked = expectOk(
    requestPullRequest(s, { todo: "T1", branch, headSha: HEAD }, ctx(at(minutes(6)), APP)),
  ).state;
  return expectOk(
    trackPullRequest(
      asked,
      { number: 7, todo: "T1", headRef: branch, headSha: HEAD },
      ctx(at(minutes(7)), APP),
    ),
  ).state;
}

/** GitHub says #7 merged as MERGE (or, below, closed unmerged). */
function merged7(s: GoalState): GoalState {
  const observed = { number: 7, state: "merged" as const, headSha: HEAD, mergeCommitSha: MERGE };
  return expectOk(
    observePullRequest(s, observed, ctx(at(minutes(30)), APP, { newId: idFactory(9) })),
  ).state;
}
function closed7(s: GoalState, head = HEAD, when = minutes(30)): GoalState {
  const observed = { number: 7, state: "closed" as const, headSha: head };
  return expectOk(observePullRequest(s, observed, ctx(at(when), APP))).state;
}

/** Tick 502 claims T1 again and completes it with `commits`. */
function completedAgain(s: GoalState, commits: { sha: string; message: string }[], when: number) {
  const second = claimInput(2);
  const claimed = expectOk(claimTodo(s, second, ctx(at(when)))).state;
  const done = result({ outcome: "completed", commits, continuation: { kind: "goal_active" } });
  const lease = { tickId: second.tickId, leaseToken: second.leaseToken };
  return expectOk(
    applyTickResult(
      claimed,
      { ...lease, result: done },
      ctx(at(when + minutes(1)), APP, { newId: idFactory(3) }),
    ),
  ).state;
}

describe("a completion with commits waits for its pull request", () => {
  it("keeps the todo open and the goal active until the PR exists, so the push is accepted", () => {
    const s = finishedWithCommit();
    const t1 = s.todos.find((t) => t.key === "T1");
    expect(t1?.status).toBe("blocked");
    expect(t1?.blockedReason).toBe(AWAITING_PULL_REQUEST);
    expect(t1?.completion).toBeNull();
    expect(s.goal.status).toBe("active");
    expect(decide(s, at(minutes(5)), "a").route).toBe("wait");
    // The goal still takes the push: the App can queue the PR.
    const branch = `loopx/${s.goal.issue.number}-T1`;
    const asked = expectOk(
      requestPullRequest(s, { todo: "T1", branch, headSha: HEAD }, ctx(at(minutes(6)), APP)),
    );
    expect(asked.effects.some((e) => e.kind === "open_pull_request")).toBe(true);
  });

  it("the merge completes the todo with the merge commit as evidence, and the goal is done", () => {
    const s = linked(finishedWithCommit());
    expect(s.goal.status).toBe("active");
    const merged = merged7(s);
    const t1 = merged.todos.find((t) => t.key === "T1");
    expect(t1?.status).toBe("done");
    const evidence = merged.evidence.filter((e) => t1?.completion?.evidenceIds.includes(e.id));
    expect(evidence.map((e) => e.sha)).toEqual([MERGE]);
    expect(merged.goal.status).toBe("done");
  });

  it("a PR closed unmerged reopens the todo and requests a replan", () => {
    const s = linked(finishedWithCommit());
    const closed = closed7(s);
    expect(closed.todos.find((t) => t.key === "T1")?.status).toBe("ready");
    expect(closed.goal.replanRequested).toBe(true);
    expect(closed.goal.status).toBe("active");
  });

  it("a refused push reopens the todo (no PR will ever open) and records why", () => {
    const s = finishedWithCommit();
    const r = expectOk(
      recordPushRefused(
        s,
        { todo: "T1", headSha: HEAD, summary: "push refused: touches .github/workflows/ci.yml" },
        ctx(at(minutes(6)), AGENT),
      ),
    ).state;
    expect(r.todos.find((t) => t.key === "T1")?.status).toBe("ready");
    expect(r.evidence.at(-1)).toMatchObject({ kind: "log", sha: HEAD, todo: "T1" });
    expect(r.goal.backoff.stalledTicks).toBe(1);
  });

  it("a person cannot record a refused push", () => {
    const s = finishedWithCommit();
    const input = { todo: "T1", headSha: HEAD, summary: "push refused" };
    expect(expectRefused(recordPushRefused(s, input, ctx(at(minutes(6)), WRITER))).code).toBe(
      "not_authorized",
    );
  });

  it("a follow-up slice on the open PR's branch completes at once: the open PR keeps the goal", () => {
    const s = linked(finishedWithCommit());
    const review = todo("T2", { kind: "review", origin: "pr-monitor" });
    const pr = s.pullRequests[0];
    if (!pr) throw new Error("the PR should be tracked");
    const withReview: GoalState = {
      ...s,
      todos: [...s.todos, review],
      pullRequests: [{ ...pr, monitor: { ...pr.monitor, todos: ["T2"] } }],
      goal: { ...s.goal, counters: { ...s.goal.counters, todo: 3 } },
    };
    const second = claimInput(2, { todo: "T2" });
    const claimed = expectOk(claimTodo(withReview, second, ctx(at(minutes(8))))).state;
    const r = expectOk(
      applyTickResult(
        claimed,
        {
          tickId: second.tickId,
          leaseToken: second.leaseToken,
          result: result({
            todo: "T2",
            outcome: "completed",
            commits: [{ sha: "c".repeat(40), message: "Address the review" }],
            continuation: { kind: "goal_active" },
          }),
        },
        ctx(at(minutes(9))),
      ),
    ).state;
    expect(r.todos.find((t) => t.key === "T2")?.status).toBe("done");
    expect(r.goal.status).toBe("active");
  });

  it("a later slice finishing a todo whose PR is already open waits for that PR, too", () => {
    // T1's first slice pushed (progress): its PR is open, T1 still runs.
    const first = result({ commits: [{ sha: HEAD, message: "Start the parser fix" }] });
    const claimed = expectOk(claimTodo(state({ todos: [todo("T1")] }), claimInput(1), ctx())).state;
    const progressed = expectOk(
      applyTickResult(claimed, { ...lease1, result: first }, ctx(at(minutes(5)))),
    ).state;
    const open = linked(progressed);
    expect(open.todos[0]?.status).toBe("ready");
    for (const commits of [[{ sha: "c".repeat(40), message: "Finish it" }], []]) {
      const r = completedAgain(open, commits, minutes(8));
      expect(r.todos[0]).toMatchObject({ status: "blocked", blockedReason: AWAITING_PULL_REQUEST });
      expect(r.todos[0]?.completion).toBeNull();
    }
  });

  it("a writer's tick of a todo whose PR is open waits for the merge; a second tick is refused", () => {
    // Waiting for a PR not opened yet: a tick does not stand in for the merge either.
    const unopened = completeTodoByHuman(finishedWithCommit(), { todo: "T1" }, ctx(T0, WRITER));
    expect(expectRefused(unopened)).toMatchObject({ code: "duplicate" });
    expect(expectRefused(unopened).message).toContain("its pull request to merge");
    const s = linked(finishedWithCommit());
    const reopened = { ...s, todos: s.todos.map((t) => ({ ...t, status: "ready" as const })) };
    const ticked = expectOk(
      completeTodoByHuman(reopened, { todo: "T1" }, ctx(at(minutes(8)), WRITER)),
    );
    expect(ticked.state.todos[0]).toMatchObject({
      status: "blocked",
      blockedReason: AWAITING_PULL_REQUEST,
      completion: null,
    });
    expect(ticked.events.map((e) => e.type)).toContain("todo.awaiting_pull_request");
    expect(ticked.events.map((e) => e.type)).not.toContain("todo.completed");
    const twice = completeTodoByHuman(ticked.state, { todo: "T1" }, ctx(at(minutes(9)), WRITER));
    expect(expectRefused(twice)).toMatchObject({ code: "duplicate" });
    expect(expectRefused(twice).message).toContain("#7");
  });

  it("a sub-issue closed while the todo's PR is open: waits; the merge completes it", () => {
    const s = linked(finishedWithCommit());
    const withSub = expectOk(
      linkSubIssue(s, { todo: "T1", id: 900, number: 90 }, ctx(at(minutes(8)), APP)),
    ).state;
    const closed = expectOk(
      settleTodoFromSubIssue(
        withSub,
        { todo: "T1", outcome: "completed" },
        ctx(at(minutes(9)), WRITER),
      ),
    ).state;
    expect(closed.todos[0]?.status).toBe("blocked");
    const merged = merged7(closed);
    expect(merged.todos[0]?.status).toBe("done");
    expect(merged.goal.status).toBe("done");
  });

  it("commits pushed after a writer ticked the todo open no PR (it would undo the tick)", () => {
    const claimed = expectOk(claimTodo(state({ todos: [todo("T1")] }), claimInput(1), ctx())).state;
    const ticked = expectOk(
      completeTodoByHuman(claimed, { todo: "T1" }, ctx(at(minutes(2)), WRITER)),
    ).state;
    const late = result({ commits: [{ sha: HEAD, message: "Late work" }] });
    const reported = expectOk(
      applyTickResult(ticked, { ...lease1, result: late }, ctx(at(minutes(5)))),
    ).state;
    expect(reported.todos[0]?.status).toBe("done");
    const branch = `loopx/${reported.goal.issue.number}-T1`;
    const asked = requestPullRequest(
      reported,
      { todo: "T1", branch, headSha: HEAD },
      ctx(at(minutes(6)), APP),
    );
    expect(expectRefused(asked)).toMatchObject({ code: "invalid_state" });
    const tracked = trackPullRequest(
      reported,
      { number: 7, todo: "T1", headRef: branch, headSha: HEAD },
      ctx(at(minutes(7)), APP),
    );
    expect(expectRefused(tracked).code).toBe("invalid_state");
  });

  it("GitHub seeing the branch already in main completes the waiting todo with that head", () => {
    const s = finishedWithCommit();
    const branch = `loopx/${s.goal.issue.number}-T1`;
    const input = { todo: "T1", branch, headSha: HEAD, base: "main" };
    expect(expectRefused(recordBranchInBase(s, input, ctx(at(minutes(6)), WRITER))).code).toBe(
      "not_authorized",
    );
    const r = expectOk(
      recordBranchInBase(s, input, ctx(at(minutes(6)), APP, { newId: idFactory(8) })),
    );
    const t1 = r.state.todos[0];
    expect(t1?.status).toBe("done");
    const proof = r.state.evidence.filter((e) => t1?.completion?.evidenceIds.includes(e.id));
    expect(proof.map((e) => [e.kind, e.sha])).toEqual([["commit", HEAD]]);
    expect(t1?.completion?.continuation.kind).toBe("no_followup");
    expect(r.state.goal.status).toBe("done");
    expect(expectRefused(recordBranchInBase(r.state, input, ctx(at(minutes(7)), APP))).code).toBe(
      "goal_inactive",
    );
    // While the todo's own PR is open, only that PR's merge completes it.
    const open = expectOk(recordBranchInBase(linked(s), input, ctx(at(minutes(8)), APP))).state;
    expect(open.todos[0]?.status).toBe("blocked");
    expect(expectRefused(recordBranchInBase(open, input, ctx(at(minutes(9)), APP))).code).toBe(
      "duplicate",
    );
  });

  it("new work after its PR closed unmerged waits for the PR the App reopens, which is followed again", () => {
    const s = linked(finishedWithCommit());
    const closed = closed7(s);
    expect(closed.pullRequests[0]?.monitor.watching).toBe(false);
    // The replan kept T1 (the close asked for one): its next slice works on the same branch.
    const replanned = { ...closed, goal: { ...closed.goal, replanRequested: false } };
    const NEW = "d".repeat(40);
    const finished = completedAgain(replanned, [{ sha: NEW, message: "Try again" }], minutes(31));
    expect(finished.todos[0]).toMatchObject({
      status: "blocked",
      blockedReason: AWAITING_PULL_REQUEST,
    });
    const branch = `loopx/${s.goal.issue.number}-T1`;
    const asked = requestPullRequest(
      finished,
      { todo: "T1", branch, headSha: NEW },
      ctx(at(minutes(36)), APP),
    );
    expect(expectOk(asked).effects.map((e) => e.kind)).toContain("open_pull_request");
    const reopened = expectOk(
      trackPullRequest(
        expectOk(asked).state,
        { number: 7, todo: "T1", headRef: branch, headSha: NEW },
        ctx(at(minutes(37)), APP),
      ),
    ).state;
    expect(reopened.pullRequests).toHaveLength(1);
    expect(reopened.pullRequests[0]).toMatchObject({ state: "open", headSha: NEW });
    expect(reopened.pullRequests[0]?.monitor.watching).toBe(true);
    expect(reopened.pullRequests[0]?.monitor.fingerprints).not.toContain("pr:7:closed");
    // Closed again: the kernel acts on it again.
    const again2 = closed7(reopened, NEW, minutes(40));
    expect(again2.todos[0]?.status).toBe("ready");
  });

  it("a merged PR never carries new work: tracking it again is refused", () => {
    const s = linked(finishedWithCommit());
    const merged = merged7(s);
    const branch = `loopx/${s.goal.issue.number}-T1`;
    const input = { number: 7, todo: "T1", headRef: branch, headSha: "d".repeat(40) };
    const refused = trackPullRequest(
      { ...merged, goal: { ...merged.goal, status: "active" } },
      input,
      ctx(at(minutes(31)), APP),
    );
    expect(expectRefused(refused).code).toBe("invalid_state");
  });

  it("a completion without commits is done at once", () => {
    const s = state({ todos: [todo("T1")] });
    const claimed = expectOk(claimTodo(s, claimInput(1), ctx())).state;
    const done = result({
      outcome: "completed",
      continuation: { kind: "no_followup", reason: "nothing to change" },
    });
    const r = expectOk(applyTickResult(claimed, { ...lease1, result: done }, ctx(at(minutes(5)))));
    expect(r.state.todos[0]?.status).toBe("done");
    expect(r.state.goal.status).toBe("done");
  });
});
