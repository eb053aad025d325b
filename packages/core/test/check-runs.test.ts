import { describe, expect, it } from "vitest";
import type { GoalState, PullRequest } from "../src/index.ts";
import {
  approveGate,
  CLAIM_CHECK,
  claimTodo,
  GATES_CHECK,
  gatesCheck,
  isLoopxCheck,
  linkPullRequest,
  PrMonitor,
  plannedCheckRuns,
  releasedClaimCheck,
  releaseLease,
  renewLease,
  reopenGatesForPush,
  wakeGoal,
} from "../src/index.ts";
import {
  at,
  claimInput,
  ctx,
  expectOk,
  gate,
  lease1,
  minutes,
  state,
  T0,
  todo,
  WRITER,
} from "./fixtures.ts";

const HEAD = "abcdef1234";
const NEXT = "0123456789abcdef";

const pull = (over: Partial<PullRequest> = {}): PullRequest => ({
  number: 5,
  todo: "T1",
  headRef: "loopx/1-T1",
  headSha: HEAD,
  state: "open",
  monitor: PrMonitor.parse({}),
  ...over,
});

/** T1's PR #5 with a merge gate G1 bound to its head. */
const gated = (status: "open" | "approved" | "rejected" = "open"): GoalState =>
  state({
    todos: [todo("T1", { requiredScopes: ["merge"] })],
    gates: [
      gate("G1", ["merge"], {
        todo: "T1",
        pr: { number: 5, headSha: HEAD, seenAt: null },
        status,
        ...(status !== "open" ? { resolvedBy: "writer", resolvedAt: T0 } : {}),
      }),
    ],
    pullRequests: [pull()],
  });

const conclusion = (s: GoalState, pr = 5) =>
  plannedCheckRuns(s, T0).find((r) => r.pr === pr)?.conclusion;

describe("LoopX / gates", () => {
  it("fails while a gate bound to the PR's head is open, and names it", () => {
    const [run] = plannedCheckRuns(gated("open"), T0);
    expect(run).toMatchObject({ name: GATES_CHECK, pr: 5, headSha: HEAD, conclusion: "failure" });
    expect(run?.title).toBe("Waiting for G1");
    expect(run?.summary).toContain("/loopx approve G1");
  });

  it("passes once the gate is approved for that head", () => {
    const approved = expectOk(
      approveGate(gated("open"), { gate: "G1", headSha: HEAD }, ctx(T0, WRITER)),
    ).state;
    expect(conclusion(approved)).toBe("success");
  });

  it("fails again after a push until the gate is approved for the new head", () => {
    const pushed = expectOk(
      reopenGatesForPush(gated("approved"), { pr: 5, headSha: NEXT }, ctx()),
    ).state;
    const [run] = plannedCheckRuns(pushed, T0);
    expect(run).toMatchObject({ headSha: NEXT, conclusion: "failure" });
    const again = expectOk(
      approveGate(pushed, { gate: "G1", headSha: NEXT }, ctx(T0, WRITER)),
    ).state;
    expect(conclusion(again)).toBe("success");
  });

  it("an approval of an older head does not pass a newer one", () => {
    const moved = gated("approved");
    // The monitor saw the new head before the push's delivery moved the gate.
    moved.pullRequests = [pull({ headSha: NEXT })];
    expect(conclusion(moved)).toBe("failure");
  });

  it("a rejected gate keeps it failing", () => {
    expect(conclusion(gated("rejected"))).toBe("failure");
  });

  it("an expired gate asks nothing: the merge gate asked again decides, approved or not", () => {
    // The merge gate expired when a status turned red; once green, LoopX asks again with G2.
    const asked = gated("open");
    const [g1] = asked.gates;
    if (!g1) throw new Error("fixture has G1");
    g1.status = "expired";
    g1.resolvedAt = T0;
    asked.gates.push(
      gate("G2", ["merge"], { todo: "T1", pr: { number: 5, headSha: HEAD, seenAt: null } }),
    );
    expect(plannedCheckRuns(asked, T0)[0]).toMatchObject({
      conclusion: "failure",
      title: "Waiting for G2",
    });
    const approved = expectOk(
      approveGate(asked, { gate: "G2", headSha: HEAD }, ctx(T0, WRITER)),
    ).state;
    expect(plannedCheckRuns(approved, T0)[0]).toMatchObject({
      conclusion: "success",
      title: "G2 approved",
    });
  });

  it("an open gate of the PR's todo not yet bound to a PR blocks it too", () => {
    const s = gated("open");
    s.gates = [gate("G3", ["deploy"], { todo: "T1", pr: null })];
    expect(conclusion(s)).toBe("failure");
  });

  it("passes when no gate covers the PR; another PR's gate does not count", () => {
    const s = gated("open");
    s.pullRequests = [pull(), pull({ number: 6, todo: "T2", headSha: NEXT })];
    expect(conclusion(s, 6)).toBe("success");
    expect(gatesCheck(s, pull({ number: 6, todo: null })).title).toBe("No gate waits");
  });

  it("closed and merged PRs carry no check", () => {
    const s = gated("open");
    s.pullRequests = [pull({ state: "merged" }), pull({ number: 6, state: "closed" })];
    expect(plannedCheckRuns(s, T0)).toEqual([]);
  });

  it("only LoopX's own check names count as its checks", () => {
    expect(isLoopxCheck(GATES_CHECK)).toBe(true);
    expect(isLoopxCheck("ci")).toBe(false);
    expect(isLoopxCheck("LoopX")).toBe(false);
  });
});

describe("the check_runs projection effect", () => {
  const kinds = (effects: { kind: string }[]) => effects.map((e) => e.kind);

  it("is asked for when a transition changes what a PR's check shows", () => {
    const r = expectOk(approveGate(gated("open"), { gate: "G1", headSha: HEAD }, ctx(T0, WRITER)));
    expect(kinds(r.effects)).toContain("check_runs");
    const pushed = expectOk(reopenGatesForPush(r.state, { pr: 5, headSha: NEXT }, ctx()));
    expect(kinds(pushed.effects)).toContain("check_runs");
  });

  it("is asked for when LoopX links a PR", () => {
    const r = expectOk(
      linkPullRequest(
        state(),
        { number: 7, headRef: "feature", headSha: HEAD, state: "open" },
        ctx(T0, WRITER),
      ),
    );
    expect(kinds(r.effects)).toContain("check_runs");
  });

  it("is not asked for when nothing a check shows changed", () => {
    const r = expectOk(wakeGoal(gated("open"), ctx(T0, WRITER)));
    expect(kinds(r.effects)).not.toContain("check_runs");
    expect(kinds(expectOk(wakeGoal(state(), ctx(T0, WRITER))).effects)).not.toContain("check_runs");
  });
});

describe("LoopX / claim", () => {
  /** T1 has PR #5 open; tick 501 claims T1 (a follow-on tick on the PR's branch). */
  const claimedWithPull = () => {
    const s = state({ todos: [todo("T1"), todo("T2")], pullRequests: [pull()] });
    return expectOk(claimTodo(s, claimInput(1), ctx()));
  };

  it("shows who holds the PR's todo while a tick does, neutral so nothing waits on it", () => {
    const r = claimedWithPull();
    expect(r.effects.map((e) => e.kind)).toContain("check_runs");
    const claim = plannedCheckRuns(r.state, at(minutes(1))).find((c) => c.name === CLAIM_CHECK);
    expect(claim).toMatchObject({ pr: 5, headSha: HEAD, conclusion: "neutral" });
    expect(claim?.title).toMatch(/^T1 claimed by tick \d+ \(agent-a\)$/);
    expect(claim?.summary).toContain(new Date(T0.getTime() + minutes(30)).toISOString());
  });

  it("a renewal writes nothing; the release asks for one write", () => {
    const held = claimedWithPull().state;
    const renewed = expectOk(
      renewLease(held, { ...lease1, leaseTtlMs: minutes(30) }, ctx(at(minutes(10)))),
    );
    expect(renewed.effects.map((e) => e.kind)).not.toContain("check_runs");
    const released = expectOk(releaseLease(renewed.state, lease1, ctx(at(minutes(11)))));
    expect(released.effects.map((e) => e.kind)).toContain("check_runs");
    expect(plannedCheckRuns(released.state, at(minutes(11))).map((c) => c.name)).toEqual([
      GATES_CHECK,
    ]);
  });

  it("no claim check where the claimed todo has no open PR, nor after the lease expired", () => {
    const s = state({ todos: [todo("T1"), todo("T2")], pullRequests: [pull({ todo: "T2" })] });
    const r = expectOk(claimTodo(s, claimInput(1), ctx()));
    expect(plannedCheckRuns(r.state, at(minutes(1))).map((c) => c.name)).toEqual([GATES_CHECK]);
    const held = claimedWithPull().state;
    expect(plannedCheckRuns(held, at(minutes(31))).map((c) => c.name)).toEqual([GATES_CHECK]);
  });

  it("a released claim reads as not claimed", () => {
    expect(releasedClaimCheck(state(), pull())).toMatchObject({
      name: CLAIM_CHECK,
      conclusion: "neutral",
      title: "Not claimed",
    });
  });
});
