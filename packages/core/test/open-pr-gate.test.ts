/**
 * `when: open_pr` in `.github/loopx.yml`: a todo's first pull request waits for a writer.
 * One gate per todo holds it; approving opens the PR at the latest head the todo pushed,
 * rejecting keeps the work on its branch, and approving one todo's PR opens no other.
 */
import { describe, expect, it } from "vitest";
import {
  addEvidence,
  approveGate,
  type Effect,
  type GoalState,
  pushedCommitSummary,
  rejectGate,
  requestPullRequest,
  type TransitionResult,
  todoBranch,
} from "../src/index.ts";
import {
  APP,
  at,
  ctx,
  expectOk,
  expectRefused,
  lease1,
  minutes,
  STRANGER,
  state,
  todo,
  WRITER,
} from "./fixtures.ts";

const AGENT = { kind: "agent" as const, tickId: lease1.tickId, harness: "shell" };
const HEAD1 = "1".repeat(40);
const HEAD2 = "2".repeat(40);

/** The todo's branch reached GitHub at `sha` (the tick API records it), then asks for its PR. */
function pushed(s: GoalState, key: string, sha: string, gateScopes: string[]): TransitionResult {
  const branch = todoBranch(s, key);
  const recorded = expectOk(
    addEvidence(
      s,
      { kind: "commit", summary: pushedCommitSummary(branch, sha), sha, todo: key },
      ctx(at(minutes(1)), AGENT),
    ),
  ).state;
  return requestPullRequest(
    recorded,
    { todo: key, branch, headSha: sha, gateScopes },
    ctx(at(minutes(2)), APP),
  );
}

const opens = (effects: Effect[]) => effects.filter((e) => e.kind === "open_pull_request");

describe("when: open_pr", () => {
  const base = () => state({ todos: [todo("T1"), todo("T2")] });

  it("without the rule, a pushed branch asks for its PR at once", () => {
    const r = expectOk(pushed(base(), "T1", HEAD1, []));
    expect(opens(r.effects)).toHaveLength(1);
    expect(r.state.gates).toHaveLength(0);
  });

  it("holds the first PR behind one gate on open_pr:<todo> and the rule's scopes", () => {
    const r = expectOk(pushed(base(), "T1", HEAD1, ["review"]));
    expect(opens(r.effects)).toHaveLength(0);
    expect(r.state.gates).toHaveLength(1);
    expect(r.state.gates[0]).toMatchObject({
      status: "open",
      scopes: ["open_pr:T1", "review"],
      todo: "T1",
    });
    expect(r.state.gates[0]?.question).toContain(todoBranch(r.state, "T1"));
    // A later push while it waits asks nothing new and opens nothing.
    const again = expectOk(pushed(r.state, "T1", HEAD2, ["review"]));
    expect(again.state.gates).toHaveLength(1);
    expect(opens(again.effects)).toHaveLength(0);
  });

  it("a writer's approval opens the PR at the todo's latest pushed head, keyed like the request", () => {
    const held = expectOk(pushed(base(), "T1", HEAD1, ["review"])).state;
    const moved = expectOk(pushed(held, "T1", HEAD2, ["review"])).state;
    const approved = expectOk(approveGate(moved, { gate: "G1" }, ctx(at(minutes(3)), WRITER)));
    const branch = todoBranch(moved, "T1");
    expect(opens(approved.effects)).toEqual([
      {
        kind: "open_pull_request",
        key: `pr:${branch}:${HEAD2.slice(0, 12)}`,
        todo: "T1",
        branch,
        headSha: HEAD2,
      },
    ]);
    // Once approved, T1's later pushes update its PR without asking again.
    const later = expectOk(pushed(approved.state, "T1", "3".repeat(40), ["review"]));
    expect(opens(later.effects)).toHaveLength(1);
    expect(later.state.gates).toHaveLength(1);
  });

  it("an outsider cannot approve it; nothing opens", () => {
    const held = expectOk(pushed(base(), "T1", HEAD1, ["review"])).state;
    const r = expectRefused(approveGate(held, { gate: "G1" }, ctx(at(minutes(3)), STRANGER)));
    expect(r.code).toBe("not_authorized");
  });

  it("approving T1's PR opens no other todo's: T2 asks for its own", () => {
    const held = expectOk(pushed(base(), "T1", HEAD1, ["review"])).state;
    const approved = expectOk(approveGate(held, { gate: "G1" }, ctx(at(minutes(3)), WRITER))).state;
    const t2 = expectOk(pushed(approved, "T2", HEAD2, ["review"]));
    expect(opens(t2.effects)).toHaveLength(0);
    expect(t2.state.gates.filter((g) => g.status === "open").map((g) => g.scopes)).toEqual([
      ["open_pr:T2", "review"],
    ]);
  });

  it("a rejection keeps the work on its branch: later pushes neither open a PR nor ask again", () => {
    const held = expectOk(pushed(base(), "T1", HEAD1, ["review"])).state;
    const rejected = expectOk(
      rejectGate(held, { gate: "G1", reason: "not this one" }, ctx(at(minutes(3)), WRITER)),
    );
    expect(opens(rejected.effects)).toHaveLength(0);
    const again = expectOk(pushed(rejected.state, "T1", HEAD2, ["review"]));
    expect(opens(again.effects)).toHaveLength(0);
    expect(again.state.gates).toHaveLength(1);
  });
});
