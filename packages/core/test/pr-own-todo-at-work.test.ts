/**
 * A PR opens at a todo's first push, often before its agent has finished the todo. While that
 * todo still has slices to run, its PR's red checks, change requests and conflicts are its
 * own next slice's to answer: a repair, review or rebase todo beside it would spend a slice
 * on the same branch that moves nothing. Once the todo's slices are over, they are queued.
 */
import { describe, expect, it } from "vitest";
import {
  AWAITING_PULL_REQUEST,
  applyTickResult,
  claimTodo,
  completeTodoByHuman,
  decide,
  type GoalState,
  observePullRequest,
  type PrObservation,
} from "../src/index.ts";
import {
  APP,
  at,
  claimInput,
  ctx,
  expectOk,
  lease1,
  minutes,
  result,
  state,
  T0,
  todo,
  WRITER,
} from "./fixtures.ts";
import { failing, HEAD, NEXT, pr, REVIEW } from "./pr-fixtures.ts";

/** T1 pushed its first slice and #5 opened for it; T1 is not finished. */
const atWork = (): GoalState =>
  state({
    todos: [todo("T1"), todo("T2")],
    pullRequests: [pr({}, { mergeable: null, checksSha: null })],
  });

const observe = (s: GoalState, o: PrObservation, when = T0) =>
  expectOk(observePullRequest(s, o, ctx(when, APP))).state;
const remedies = (s: GoalState) => s.todos.filter((t) => t.origin === "pr-monitor");

/** T1's next slice (tick 501) reports `over`. */
function slice(s: GoalState, over: Record<string, unknown>): GoalState {
  const claimed = expectOk(claimTodo(s, claimInput(1), ctx(at(minutes(1))))).state;
  return expectOk(
    applyTickResult(claimed, { ...lease1, result: result(over) }, ctx(at(minutes(5)))),
  ).state;
}
const finished = { outcome: "completed", continuation: { kind: "goal_active" } };

describe("the PR monitor leaves a PR's trouble to its own todo while that todo is at work", () => {
  it("red checks queue no repair: they are evidence for T1's next slice, which runs next", () => {
    const s = observe(atWork(), failing());
    expect(remedies(s)).toEqual([]);
    expect(s.pullRequests[0]?.monitor.repairAttempts).toBe(0);
    const noted = s.evidence.filter((e) => e.kind === "check");
    expect(noted.map((e) => [e.summary, e.todo, e.sha])).toEqual([
      [`ci failed on #5 at ${HEAD.slice(0, 12)}`, "T1", HEAD],
    ]);
    expect(decide(s, at(minutes(1)), "a").todo).toBe("T1");
    // The same reading again is nothing new, and adds no second line of evidence.
    expect(observePullRequest(s, failing(), ctx(T0, APP)).ok).toBe(false);
  });

  it("a change request or a conflict queues no review or rebase todo either", () => {
    const reviewed = observe(atWork(), {
      ...failing(),
      checks: undefined,
      changesRequested: REVIEW,
    });
    expect(remedies(reviewed)).toEqual([]);
    const conflicted = observe(atWork(), { ...failing(), checks: undefined, mergeable: false });
    expect(remedies(conflicted)).toEqual([]);
  });

  it("T1's last slice pushes: the repair waits for the new head's checks, not the old head's", () => {
    const held = observe(atWork(), failing());
    const pushed = slice(held, { ...finished, commits: [{ sha: NEXT, message: "Finish T1" }] });
    expect(pushed.todos.find((t) => t.key === "T1")?.blockedReason).toBe(AWAITING_PULL_REQUEST);
    expect(remedies(pushed)).toEqual([]);
    // Still red at the new head: T1 is finished, so now a repair serves its PR.
    const red = observe(pushed, failing(NEXT), at(minutes(20)));
    expect(remedies(red).map((t) => t.kind)).toEqual(["repair"]);
  });

  it("T1's last slice says it is finished without a push: the held repair is queued at once", () => {
    const held = observe(atWork(), failing());
    const s = slice(held, finished);
    expect(s.todos.find((t) => t.key === "T1")?.blockedReason).toBe(AWAITING_PULL_REQUEST);
    expect(remedies(s).map((t) => [t.kind, t.title])).toEqual([
      ["repair", "Fix failing checks on #5: ci"],
    ]);
    expect(s.pullRequests[0]?.monitor.repairAttempts).toBe(1);
    expect(decide(s, at(minutes(6)), "a").todo).toBe(remedies(s)[0]?.key);
  });

  it("the held trouble is judged with the repository's repair limit as last read", () => {
    const held = observe(atWork(), { ...failing(), repairAttempts: 0 });
    expect(held.gates).toEqual([]);
    const s = slice(held, finished);
    expect(remedies(s)).toEqual([]);
    expect(s.gates.filter((g) => g.scopes.includes("repair:5"))).toHaveLength(1);
  });

  it("a writer ticking T1 ends its work too: the held review is queued", () => {
    const held = observe(atWork(), { ...failing(), checks: undefined, changesRequested: REVIEW });
    expect(remedies(held)).toEqual([]);
    const s = expectOk(
      completeTodoByHuman(held, { todo: "T1" }, ctx(at(minutes(3)), WRITER)),
    ).state;
    expect(remedies(s).map((t) => t.kind)).toEqual(["review"]);
  });
});
