/**
 * What the PR monitor queues for a PR's trouble: one repair, review or rebase todo at a time,
 * repairs counted and stopped at their limit, and settled by green checks.
 */
import { describe, expect, it } from "vitest";
import {
  applyTickResult,
  claimTodo,
  decide,
  MAX_REPAIR_ATTEMPTS,
  observePullRequest,
  type PrObservation,
  recordPushedCommit,
} from "../src/index.ts";
import {
  APP,
  at,
  claimInput,
  ctx,
  expectOk,
  expectRefused,
  lease1,
  minutes,
  result,
  state,
  T0,
  todo,
} from "./fixtures.ts";
import { failing, linked, NEXT, pr, REVIEW, ready } from "./pr-fixtures.ts";

const red = [{ name: "ci", status: "failure", url: "https://ci.example/1" }];

describe("observePullRequest queues one remedy at a time", () => {
  it("the same failing check announced three times makes one repair todo", () => {
    let s = linked();
    const first = expectOk(observePullRequest(s, failing(), ctx(T0, APP)));
    s = first.state;
    for (let i = 0; i < 2; i++) {
      expect(expectRefused(observePullRequest(s, failing(), ctx(T0, APP))).code).toBe("duplicate");
    }
    const repairs = s.todos.filter((t) => t.kind === "repair");
    expect(repairs).toHaveLength(1);
    expect(repairs[0]?.origin).toBe("pr-monitor");
    expect(repairs[0]?.detail).toContain("https://ci.example/run/1");
    expect(repairs[0]?.detail).toContain("UNTRUSTED DATA");
    expect(s.evidence.some((e) => e.kind === "check" && e.url === "https://ci.example/run/1")).toBe(
      true,
    );
    expect(s.pullRequests[0]?.monitor.repairAttempts).toBe(1);
  });

  it("three failed repairs ask the owner instead of a fourth repair", () => {
    let s = linked();
    const heads = ["1111111", "2222222", "3333333", "4444444"];
    for (const sha of heads) {
      s = expectOk(observePullRequest(s, failing(sha), ctx(T0, APP))).state;
      // Each repair slice pushed the next head, which completed its todo.
      for (const t of s.todos) if (t.kind === "repair") t.status = "done";
    }
    expect(s.todos.filter((t) => t.kind === "repair")).toHaveLength(MAX_REPAIR_ATTEMPTS);
    const asks = s.gates.filter((g) => g.scopes.includes("repair:5"));
    expect(asks).toHaveLength(1);
    expect(asks[0]?.status).toBe("open");
  });

  it("a new failing head while its repair todo is still open updates that todo, adds none", () => {
    let s = expectOk(observePullRequest(linked(), failing("1111111"), ctx(T0, APP))).state;
    const [first] = s.todos.filter((t) => t.kind === "repair");
    s = expectOk(observePullRequest(s, failing("2222222", "lint"), ctx(T0, APP))).state;
    const repairs = s.todos.filter((t) => t.kind === "repair");
    expect(repairs.map((t) => [t.key, t.title])).toEqual([
      [first?.key, "Fix failing checks on #5: lint"],
    ]);
    expect(s.pullRequests[0]?.monitor.todos.filter((k) => k === first?.key)).toHaveLength(1);
  });

  it("the limit is judged on the head the last repair pushed; then the repair todo stops", () => {
    let s = linked();
    for (const sha of ["1111111", "2222222", "3333333"]) {
      s = expectOk(observePullRequest(s, failing(sha), ctx(T0, APP))).state;
    }
    // The third failure queued the third repair: its head announced again asks nobody yet.
    const again = observePullRequest(s, { ...failing("3333333"), mergeable: null }, ctx(T0, APP));
    if (again.ok) s = again.state;
    expect(s.gates.filter((g) => g.scopes.includes("repair:5"))).toEqual([]);
    expect(s.todos.filter((t) => t.kind === "repair").map((t) => t.status)).toEqual(["ready"]);
    // The head that repair pushes fails the same way: the owners are asked, the todo stops.
    s = expectOk(observePullRequest(s, failing("4444444"), ctx(T0, APP))).state;
    expect(s.gates.filter((g) => g.scopes.includes("repair:5")).map((g) => g.status)).toEqual([
      "open",
    ]);
    expect(s.todos.filter((t) => t.kind === "repair").map((t) => t.status)).toEqual(["dropped"]);
  });

  it("a PR that still conflicts at every new head holds one rebase todo", () => {
    const conflicted = (sha: string): PrObservation => ({
      ...ready,
      headSha: sha,
      mergeable: false,
      mergeableState: "dirty",
      checks: { sha, list: [{ name: "ci", status: "success" }] },
    });
    let s = linked();
    for (const sha of ["1111111", "2222222", "3333333"]) {
      s = expectOk(observePullRequest(s, conflicted(sha), ctx(T0, APP))).state;
    }
    expect(s.todos.filter((t) => t.kind === "rebase").map((t) => t.title)).toEqual([
      "Update #5's branch: it conflicts with its base",
    ]);
    // Once it is done, the next conflict is new work again.
    for (const t of s.todos) if (t.kind === "rebase") t.status = "done";
    s = expectOk(observePullRequest(s, conflicted("4444444"), ctx(T0, APP))).state;
    expect(s.todos.filter((t) => t.kind === "rebase" && t.status === "ready")).toHaveLength(1);
  });
});

describe("observePullRequest settles repairs", () => {
  it("green checks on a newer head complete the PR's open repair todos", () => {
    const s = state({
      todos: [todo("T1"), todo("T2", { kind: "repair", origin: "pr-monitor" })],
      pullRequests: [pr({}, { checks: red, todos: ["T2"], repairAttempts: 1 })],
    });
    const r = expectOk(
      observePullRequest(
        s,
        {
          number: 5,
          state: "open",
          headSha: NEXT,
          mergeable: true,
          checks: { sha: NEXT, list: [{ name: "ci", status: "success" }] },
        },
        ctx(T0, APP),
      ),
    );
    const t2 = r.state.todos.find((t) => t.key === "T2");
    expect(t2?.status).toBe("done");
    expect(t2?.completion?.continuation).toEqual({ kind: "goal_active" });
    expect(r.state.todos.find((t) => t.key === "T1")?.status).toBe("ready");
    // Green and mergeable: the merge gate opens in the same step.
    expect(r.state.gates.map((g) => g.scopes)).toEqual([["merge"]]);
  });
});

describe("a review todo's push answers the review", () => {
  it("is done once its push reaches the PR, so no slice runs it again before the reviewer looks", () => {
    const changes = { ...ready, changesRequested: REVIEW };
    let s = expectOk(observePullRequest(linked(), changes, ctx(T0, APP))).state;
    const review = s.todos.find((t) => t.kind === "review");
    expect(decide(s, at(minutes(1)), "a").todo).toBe(review?.key);
    s = expectOk(claimTodo(s, claimInput(1), ctx(at(minutes(1))))).state;
    // The agent pushed its answer but did not say the review is finished.
    const answer = result({ todo: review?.key, commits: [{ sha: NEXT, message: "Rename foo" }] });
    s = expectOk(applyTickResult(s, { ...lease1, result: answer }, ctx(at(minutes(5))))).state;
    expect(s.todos.find((t) => t.key === review?.key)?.status).toBe("ready");
    const agent = { kind: "agent" as const, tickId: lease1.tickId, harness: "shell" };
    const push = { todo: review?.key ?? "", sha: NEXT, summary: "pushed loopx/42-T1" };
    s = expectOk(recordPushedCommit(s, push, ctx(at(minutes(6)), agent))).state;
    expect(s.todos.find((t) => t.key === review?.key)?.status).toBe("done");
    expect(decide(s, at(minutes(6)), "a").todo).not.toBe(review?.key);
    // The reviewer asks again on the answer: that is the next review todo.
    const again = { ...REVIEW, id: 10, commitId: NEXT };
    s = expectOk(
      observePullRequest(
        s,
        { ...ready, headSha: NEXT, checks: { sha: NEXT, list: [] }, changesRequested: again },
        ctx(at(minutes(30)), APP),
      ),
    ).state;
    expect(s.todos.filter((t) => t.kind === "review").map((t) => t.status)).toEqual([
      "done",
      "ready",
    ]);
  });
});
