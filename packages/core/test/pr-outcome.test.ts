import { describe, expect, it } from "vitest";
import { analyseFrontier } from "../src/frontier.ts";
import {
  approveGate,
  CI_GRACE_MS,
  MAX_REPAIR_ATTEMPTS,
  observePullRequest,
  type PrObservation,
  PullRequest,
  prOutcome,
  requestPullRequest,
  todoBranch,
} from "../src/index.ts";
import { needsPullRequest } from "../src/transitions/await-pull-request.ts";
import { APP, ctx, expectOk, expectRefused, OWNER, result, state, T0, todo } from "./fixtures.ts";
import { failing, HEAD, linked, NEXT, pr, REVIEW, ready } from "./pr-fixtures.ts";

const red = [{ name: "ci", status: "failure", url: "https://ci.example/1" }];
const green = [{ name: "ci", status: "success" }];

describe("prOutcome: one outcome per PR, in precedence order", () => {
  const rows: { name: string; pr: PullRequest; kind: string }[] = [
    {
      name: "merged beats stale review data and red checks",
      pr: pr({ state: "merged" }, { checks: red, changesRequested: REVIEW }),
      kind: "merged",
    },
    { name: "closed unmerged", pr: pr({ state: "closed" }, { checks: red }), kind: "closed" },
    {
      name: "failing checks beat changes requested",
      pr: pr({}, { checks: red, changesRequested: REVIEW, mergeable: false }),
      kind: "repair",
    },
    {
      name: "a failure on an older head says nothing about this one",
      pr: pr({}, { checks: red, checksSha: NEXT }),
      kind: "quiet",
    },
    {
      name: "after the repair limit, a person is asked",
      pr: pr({}, { checks: red, repairAttempts: MAX_REPAIR_ATTEMPTS }),
      kind: "repairs_exhausted",
    },
    {
      name: "changes requested beat a conflicted branch",
      pr: pr({}, { checks: green, changesRequested: REVIEW, mergeable: false }),
      kind: "review",
    },
    {
      name: "review waits when threads are resolved and the head moved past it",
      pr: pr(
        { headSha: NEXT },
        { checks: green, checksSha: NEXT, changesRequested: REVIEW, threadsResolved: true },
      ),
      kind: "quiet",
    },
    {
      name: "resolved threads on the reviewed head still need work",
      pr: pr({}, { checks: green, changesRequested: REVIEW, threadsResolved: true }),
      kind: "review",
    },
    {
      name: "dirty branch → rebase",
      pr: pr({}, { checks: green, mergeable: false, mergeableState: "dirty" }),
      kind: "rebase",
    },
    {
      name: "behind a base that must be merged in first (strict protection) → rebase",
      pr: pr({}, { checks: green, mergeable: true, mergeableState: "behind" }),
      kind: "rebase",
    },
    {
      name: "a behind branch still waits for red checks to be repaired first",
      pr: pr({}, { checks: [{ name: "ci", status: "failure" }], mergeableState: "behind" }),
      kind: "repair",
    },
    { name: "draft asks its owner", pr: pr({}, { checks: green, draft: true }), kind: "draft" },
    {
      name: "mergeable not computed yet → wait",
      pr: pr({}, { checks: green, mergeable: null }),
      kind: "quiet",
    },
    {
      name: "pending checks → quiet",
      pr: pr({}, { checks: [{ name: "ci", status: "pending" }] }),
      kind: "quiet",
    },
    { name: "no checks reported yet → quiet", pr: pr(), kind: "quiet" },
    { name: "green and mergeable → ready", pr: pr({}, { checks: green }), kind: "ready" },
    {
      name: "green checks with no required set are not green: the owners are asked",
      pr: pr({}, { checks: green, required: [] }),
      kind: "ci_question",
    },
    {
      name: "a required set not read yet → quiet, never ready",
      pr: pr({}, { checks: green, required: null }),
      kind: "quiet",
    },
    {
      name: "a neutral required check is not success",
      pr: pr({}, { checks: [{ name: "ci", status: "neutral" }] }),
      kind: "ci_question",
    },
    {
      name: "a skipped required check is not success",
      pr: pr({}, { checks: [{ name: "ci", status: "skipped" }] }),
      kind: "ci_question",
    },
    {
      name: "a [skip ci] head is never ready, even with green checks",
      pr: pr({}, { checks: green, skipCi: true }),
      kind: "ci_question",
    },
    {
      name: "a green check that is not the required one is not green",
      pr: pr({}, { checks: [{ name: "lint", status: "success" }] }),
      kind: "quiet",
    },
    {
      name: "runs waiting for approval on the head → a gate",
      pr: pr({}, { checks: [{ name: "ci", status: "action_required", runId: 7 }] }),
      kind: "ci_approval",
    },
  ];
  for (const row of rows) {
    it(row.name, () => expect(prOutcome(row.pr, T0).kind).toBe(row.kind));
  }

  it("no required check reported ten minutes after the head appeared: CI did not run", () => {
    const silent = pr({}, { checks: [{ name: "lint", status: "success" }] });
    expect(prOutcome(silent, new Date(T0.getTime() + CI_GRACE_MS - 1)).kind).toBe("quiet");
    const late = prOutcome(silent, new Date(T0.getTime() + CI_GRACE_MS));
    expect(late.kind === "ci_question" && late.verdict).toEqual({
      kind: "ci_did_not_run",
      missing: ["ci"],
    });
    // A required run still in progress is not "did not run", however long it takes.
    const slow = pr({}, { checks: [{ name: "ci", status: "pending" }] });
    expect(prOutcome(slow, new Date(T0.getTime() + 10 * CI_GRACE_MS)).kind).toBe("quiet");
  });
});

describe("observePullRequest", () => {
  it("review feedback becomes a review todo with the review as fenced data", () => {
    const r = expectOk(
      observePullRequest(
        linked(),
        {
          number: 5,
          state: "open",
          headSha: HEAD,
          mergeable: true,
          checks: { sha: HEAD, list: [{ name: "ci", status: "success" }] },
          changesRequested: REVIEW,
        },
        ctx(T0, APP),
      ),
    );
    const review = r.state.todos.find((t) => t.kind === "review");
    expect(review?.title).toBe("Address @writer's review on #5");
    expect(review?.detail).toMatch(/UNTRUSTED DATA[^\n]*\n```text\nRename foo\. Ignore previous/);
  });

  it("a ready PR opens one merge gate bound to its head; not when config says no gate", () => {
    const r = expectOk(observePullRequest(linked(), ready, ctx(T0, APP)));
    const gates = r.state.gates.filter((g) => g.scopes.includes("merge"));
    expect(gates).toHaveLength(1);
    expect(gates[0]?.pr).toEqual({ number: 5, headSha: HEAD, seenAt: null });
    expect(r.effects.some((e) => e.kind === "review_request")).toBe(true);
    const none = expectOk(
      observePullRequest(linked(), { ...ready, mergeGate: false }, ctx(T0, APP)),
    );
    expect(none.state.gates).toHaveLength(0);
  });

  it("the merge gate covers the scopes its `when: merge` rule names: work needing them waits for it", () => {
    const base = linked();
    const deploying = {
      ...base,
      todos: [...base.todos, todo("T9", { requiredScopes: ["deploy:production"] })],
    };
    const r = expectOk(
      observePullRequest(deploying, { ...ready, mergeScopes: ["deploy"] }, ctx(T0, APP)),
    ).state;
    const gate = r.gates.find((g) => g.pr?.number === 5);
    expect(gate?.scopes).toEqual(["merge", "deploy"]);
    const key = gate?.key ?? "";
    expect(analyseFrontier(r, T0).blocked.map((t) => t.key)).toEqual(["T9"]);
    const approved = expectOk(approveGate(r, { gate: key, headSha: HEAD }, ctx(T0, OWNER))).state;
    expect(analyseFrontier(approved, T0).runnable.map((t) => t.key)).toContain("T9");
  });

  it("a merge gate asked while the PR was ready expires when the same head turns red", () => {
    const gated = expectOk(observePullRequest(linked(), ready, ctx(T0, APP))).state;
    expect(gated.gates.filter((g) => g.status === "open").map((g) => g.scopes)).toEqual([
      ["merge"],
    ]);
    // A commit status on the same head goes red after the gate opened.
    const red = expectOk(observePullRequest(gated, failing(HEAD, "lint"), ctx(T0, APP))).state;
    expect(red.gates.find((g) => g.scopes.includes("merge"))?.status).toBe("expired");
    expect(red.todos.filter((t) => t.kind === "repair")).toHaveLength(1);
    // An approval that comes too late finds no open gate to resolve.
    expect(expectRefused(approveGate(red, { gate: "G1" }, ctx(T0, OWNER))).code).toBe(
      "invalid_state",
    );
    // A change request on the same head leaves the question open: the review todo's push
    // moves it to the head that answers the review.
    const reviewed = expectOk(
      observePullRequest(gated, { ...ready, changesRequested: REVIEW }, ctx(T0, APP)),
    ).state;
    expect(reviewed.gates.find((g) => g.scopes.includes("merge"))?.status).toBe("open");
  });

  it("a reading that found mergeability not yet computed, landing last, keeps the head's known answer", () => {
    // Two handlers read the PR at once: the glance after GitHub's job answered, the CI
    // completion's full read before it. The glance lands first.
    const glance: PrObservation = {
      number: 5,
      state: "open",
      headSha: HEAD,
      mergeable: true,
      mergeableState: "clean",
    };
    const known = expectOk(observePullRequest(linked(), glance, ctx(T0, APP))).state;
    expect(known.gates).toHaveLength(0);
    const late = { ...ready, mergeable: null, mergeableState: "unknown" };
    const r = expectOk(observePullRequest(known, late, ctx(T0, APP)));
    expect(r.state.pullRequests[0]?.monitor).toMatchObject({
      mergeable: true,
      mergeableState: "clean",
    });
    expect(
      r.state.gates.filter((g) => g.scopes.includes("merge") && g.status === "open"),
    ).toHaveLength(1);
    // A later head is another question: its first null reading stands until GitHub answers.
    const moved = expectOk(
      observePullRequest(r.state, { ...late, headSha: NEXT, checks: undefined }, ctx(T0, APP)),
    ).state;
    expect(moved.pullRequests[0]?.monitor.mergeable).toBeNull();
    // And a real answer always replaces the known one (the base moved on and conflicts).
    const dirty = expectOk(
      observePullRequest(
        known,
        { ...glance, mergeable: false, mergeableState: "dirty" },
        ctx(T0, APP),
      ),
    ).state;
    expect(dirty.pullRequests[0]?.monitor.mergeable).toBe(false);
  });

  it("a draft asks its owner once", () => {
    const obs: PrObservation = {
      number: 5,
      state: "open",
      headSha: HEAD,
      draft: true,
      mergeable: true,
    };
    const r = expectOk(observePullRequest(linked(), obs, ctx(T0, APP)));
    expect(r.state.gates.map((g) => g.scopes)).toEqual([["draft:5"]]);
    expect(expectRefused(observePullRequest(r.state, obs, ctx(T0, APP))).code).toBe("duplicate");
  });

  it("closed unmerged ends the watch and asks for a replan", () => {
    const r = expectOk(
      observePullRequest(linked(), { number: 5, state: "closed", headSha: HEAD }, ctx(T0, APP)),
    );
    expect(r.state.pullRequests[0]?.monitor.watching).toBe(false);
    expect(r.state.goal.replanRequested).toBe(true);
    expect(
      expectRefused(
        observePullRequest(r.state, { number: 5, state: "closed", headSha: HEAD }, ctx(T0, APP)),
      ).code,
    ).toBe("invalid_state");
  });

  it("a merge completes the todo it served; the last one finishes the goal with a report", () => {
    const s = state({
      todos: [todo("T1")],
      pullRequests: [pr({}, { checks: green })],
    });
    const r = expectOk(
      observePullRequest(
        s,
        { number: 5, state: "merged", headSha: HEAD, mergeCommitSha: "feedface12" },
        ctx(T0, APP),
      ),
    );
    const t1 = r.state.todos[0];
    expect(t1?.status).toBe("done");
    expect(t1?.completion?.continuation).toEqual({ kind: "no_followup", reason: "merged in #5" });
    expect(r.state.goal.status).toBe("done");
    expect(r.effects.map((e) => e.kind)).toContain("close_issue");
    const report = r.effects.find((e) => e.kind === "receipt" && e.key === "final_report");
    expect(report?.kind === "receipt" ? report.text : "").toContain("#5 merged (merge feedfac)");
  });

  it("people cannot report PR state", () => {
    const human = { kind: "human" as const, login: "writer", trusted: true };
    expect(expectRefused(observePullRequest(linked(), failing(), ctx(T0, human))).code).toBe(
      "not_authorized",
    );
  });
});

describe("todoBranch", () => {
  it("a monitor todo of LoopX's own PR works on the PR's branch; others on their own", () => {
    const s = linked({ todos: ["T2"] });
    expect(todoBranch(s, "T2")).toBe("loopx/42-T1");
    expect(todoBranch(s, "T1")).toBe("loopx/42-T1");
    const foreign = state({
      todos: [todo("T1"), todo("T2")],
      pullRequests: [
        PullRequest.parse({ ...pr(), headRef: "feature", monitor: { todos: ["T2"] } }),
      ],
    });
    expect(todoBranch(foreign, "T2")).toBe("loopx/42-T2");
  });

  it("a linked PR named like LoopX's branch (a fork's can be) is still not LoopX's own", () => {
    // `/loopx link` of mallory's fork PR from `mallory:loopx/42-T1`, closed since.
    const forked = (prState: "open" | "closed") =>
      state({
        todos: [todo("T1"), todo("T2")],
        pullRequests: [
          PullRequest.parse({ ...pr({ todo: null, state: prState }), monitor: { todos: ["T2"] } }),
        ],
      });
    // Its repair works on a branch of its own, never on acme's loopx/42-T1 …
    expect(todoBranch(forked("open"), "T2")).toBe("loopx/42-T2");
    // … T1's commits still need LoopX's own PR …
    const commits = result({ commits: [{ sha: "c".repeat(40), message: "T1" }] });
    const t1 = forked("open").todos[0];
    if (!t1) throw new Error("no T1");
    expect(needsPullRequest(forked("open"), t1, commits)).toBe(true);
    // … and the fork PR being closed does not stop LoopX from opening it.
    const asked = requestPullRequest(
      forked("closed"),
      { todo: "T1", branch: "loopx/42-T1", headSha: "c".repeat(40) },
      ctx(T0, APP),
    );
    expect(expectOk(asked).effects.map((e) => e.kind)).toContain("open_pull_request");
  });
});

describe("observePullRequest closes its own questions", () => {
  it("a draft marked ready expires the draft question", () => {
    const obs: PrObservation = {
      number: 5,
      state: "open",
      headSha: HEAD,
      draft: true,
      mergeable: true,
    };
    const asked = expectOk(observePullRequest(linked(), obs, ctx(T0, APP))).state;
    const ready = expectOk(observePullRequest(asked, { ...obs, draft: false }, ctx(T0, APP)));
    expect(ready.state.gates.map((g) => [g.scopes, g.status])).toEqual([[["draft:5"], "expired"]]);
    expect(ready.events.map((e) => e.type)).toContain("gate.expired");
  });

  it("green checks expire the 'repairs exhausted' question", () => {
    let s = linked();
    for (const sha of ["1111111", "2222222", "3333333", "4444444"]) {
      s = expectOk(observePullRequest(s, failing(sha), ctx(T0, APP))).state;
    }
    const green: PrObservation = {
      number: 5,
      state: "open",
      headSha: "5555555",
      mergeable: true,
      checks: { sha: "5555555", list: [{ name: "ci", status: "success" }] },
    };
    const r = expectOk(observePullRequest(s, green, ctx(T0, APP)));
    expect(r.state.gates.find((g) => g.scopes.includes("repair:5"))?.status).toBe("expired");
    // Nothing is left to repair: the question stopped the repair todo, green closed the question.
    const open = r.state.todos.filter(
      (t) => t.kind === "repair" && t.status !== "done" && t.status !== "dropped",
    );
    expect(open).toEqual([]);
  });
});
