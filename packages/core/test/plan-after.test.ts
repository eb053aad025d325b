/**
 * A proposed todo may say which todo it builds on (`after`): it starts only once that one is
 * done, its PR merged. Without it, LoopX moves on while a PR waits for review, and a todo that
 * needs its predecessor's code starts from a default branch that lacks it.
 */
import { describe, expect, it } from "vitest";
import {
  AWAITING_PULL_REQUEST,
  applyTickResult,
  claimNext,
  decide,
  type GoalState,
  observePullRequest,
  PullRequest,
  todoDependenciesOf,
} from "../src/index.ts";
import { APP, at, claimInput, ctx, expectOk, minutes, result, state } from "./fixtures.ts";

/** An objective-only goal whose first tick claimed the planning todo T1, then planned `proposals`. */
function planned(
  proposals: Record<string, unknown>[],
  s: GoalState = state(),
  tick = 1,
): GoalState {
  const input = claimInput(tick);
  const claimed = expectOk(claimNext(s, input, ctx()).result).state;
  const plan = claimed.todos.find((t) => t.kind === "plan" && t.status === "ready")?.key ?? "";
  const report = {
    tickId: input.tickId,
    leaseToken: input.leaseToken,
    result: result({
      todo: plan,
      outcome: "no_change",
      validation: null,
      proposedTodos: proposals,
    }),
  };
  return expectOk(applyTickResult(claimed, report, ctx(at(minutes(5))))).state;
}

const waitsOn = (s: GoalState, key: string) => {
  const t = s.todos.find((x) => x.key === key);
  return t?.resumeWhen?.kind === "todo_done" ? t.resumeWhen.todo : null;
};

/** `key` finished its slice and its PR #`pr` is open, unmerged. */
function awaitingMerge(s: GoalState, key: string, pr: number): GoalState {
  const next = structuredClone(s);
  const t = next.todos.find((x) => x.key === key);
  if (!t) throw new Error(`no ${key}`);
  t.status = "blocked";
  t.blockedReason = AWAITING_PULL_REQUEST;
  next.pullRequests.push(
    PullRequest.parse({
      number: pr,
      todo: key,
      headRef: `loopx/1-${key}`,
      headSha: "abcdef1",
      state: "open",
    }),
  );
  return next;
}

const later = at(minutes(10));

describe("a planned todo builds on another", () => {
  it("waits for the todo it names by title until that todo's PR merges, then runs", () => {
    const s = planned([
      { title: "Parse durations" },
      { title: "Reject negative durations", after: "parse durations." },
    ]);
    expect(waitsOn(s, "T3")).toBe("T2");
    expect(decide(s, later, "agent-a")).toMatchObject({ route: "run", todo: "T2" });

    const reviewing = awaitingMerge(s, "T2", 7);
    const wait = decide(reviewing, later, "agent-a");
    expect(wait.route).toBe("wait");
    expect(wait.reason).toContain("T3 until T2, which it builds on, is done");
    const t3 = reviewing.todos.find((t) => t.key === "T3");
    if (!t3) throw new Error("no T3");
    expect(todoDependenciesOf(reviewing)(t3).todos).toEqual(["T2"]);

    const merged = expectOk(
      observePullRequest(
        reviewing,
        { number: 7, state: "merged", headSha: "abcdef1", mergeCommitSha: "1234567" },
        ctx(later, APP),
      ),
    ).state;
    expect(merged.todos.find((t) => t.key === "T2")?.status).toBe("done");
    expect(decide(merged, later, "agent-a")).toMatchObject({ route: "run", todo: "T3" });
  });

  it("without it, the second todo runs beside the first one's open PR", () => {
    const s = planned([{ title: "Parse durations" }, { title: "Reject negative durations" }]);
    expect(waitsOn(s, "T3")).toBeNull();
    expect(decide(awaitingMerge(s, "T2", 7), later, "agent-a")).toMatchObject({
      route: "run",
      todo: "T3",
    });
  });

  it("names an existing todo by key, and a todo proposed again keeps what it waited on", () => {
    const first = planned([
      { title: "Parse durations" },
      { title: "Format durations", after: "Parse durations" },
    ]);
    const again = structuredClone(first);
    again.goal.replanRequested = true;
    const s = planned(
      [
        { title: "Format durations", after: "Document durations" },
        { title: "Document durations", after: "T3" },
      ],
      again,
      2,
    );
    expect(waitsOn(s, "T3")).toBe("T2");
    const docs = s.todos.find((t) => t.title === "Document durations");
    expect(docs?.key).not.toBe("T3");
    expect(docs?.resumeWhen).toEqual({ kind: "todo_done", todo: "T3" });
  });

  it("an `after` that names nothing, or a later proposal, links nothing and the plan says so", () => {
    const s = planned([
      { title: "Parse durations", after: "Format durations" },
      { title: "Format durations", after: "Write the manual" },
    ]);
    expect(waitsOn(s, "T2")).toBeNull();
    expect(waitsOn(s, "T3")).toBeNull();
    const plan = s.todos.find((t) => t.key === "T1");
    const note = s.evidence.find((e) => e.id === plan?.completion?.evidenceIds[0]);
    expect(note?.summary).toContain('"after" named no open todo for T2, T3, which wait on none');
    expect(decide(s, later, "agent-a")).toMatchObject({ route: "run", todo: "T2" });
  });

  it("a finished todo named in `after` holds nothing back", () => {
    const first = planned([{ title: "Parse durations" }]);
    const again = structuredClone(first);
    const t2 = again.todos.find((t) => t.key === "T2");
    if (!t2) throw new Error("no T2");
    t2.status = "done";
    again.goal.replanRequested = true;
    const s = planned([{ title: "Format durations", after: "T2" }], again, 2);
    const format = s.todos.find((t) => t.title === "Format durations");
    expect(format?.resumeWhen).toBeNull();
    expect(decide(s, later, "agent-a")).toMatchObject({ route: "run", todo: format?.key });
  });

  it("a dropped predecessor never holds its successor back", () => {
    const s = planned([
      { title: "Parse durations" },
      { title: "Reject negative durations", after: "Parse durations" },
    ]);
    const dropped = structuredClone(s);
    const t2 = dropped.todos.find((t) => t.key === "T2");
    if (!t2) throw new Error("no T2");
    t2.status = "dropped";
    expect(decide(dropped, later, "agent-a")).toMatchObject({ route: "run", todo: "T3" });
  });
});
