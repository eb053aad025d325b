/**
 * A slice's result with commits dispatches nothing: the push report that follows says which
 * files the commits changed, and only then is it known whether the next todo runs or waits
 * for that work. Dispatching on the result ran a tick that only answered "wait".
 */
import { describe, expect, it } from "vitest";
import { applyTickResult, claimTodo, recordPushedCommit } from "../src/index.ts";
import { at, claimInput, ctx, expectOk, lease1, minutes, result, state, todo } from "./fixtures.ts";

const agent = (n: number) => ({
  actor: { kind: "agent" as const, tickId: lease1.tickId, harness: "shell" },
  now: at(minutes(n)),
  newId: () => crypto.randomUUID(),
});

/** T1 claimed beside T2, which declares src/a.ts; T1's slice finished with a commit. */
function finished() {
  const s = state({ todos: [todo("T1"), todo("T2", { paths: ["src/a.ts"] })] });
  const claimed = expectOk(claimTodo(s, claimInput(1), ctx())).state;
  const r = applyTickResult(
    claimed,
    {
      ...lease1,
      result: result({
        outcome: "completed",
        continuation: { kind: "goal_active" },
        commits: [{ sha: "abcdef1", message: "T1 work" }],
      }),
    },
    ctx(at(minutes(5))),
  );
  return expectOk(r);
}

const dispatches = (r: { effects: { kind: string }[] }) =>
  r.effects.filter((e) => e.kind === "dispatch");

describe("the next tick is dispatched on the push report, not the result", () => {
  it("a result with commits dispatches nothing", () => {
    expect(dispatches(finished())).toEqual([]);
  });

  it("the push report dispatches when the next todo runs, and not when it waits", () => {
    const s = finished().state;
    const elsewhere = recordPushedCommit(
      s,
      { todo: "T1", sha: "abcdef1", summary: "pushed", paths: ["src/b.ts"] },
      agent(6),
    );
    expect(dispatches(expectOk(elsewhere))).toHaveLength(1);
    const same = recordPushedCommit(
      s,
      { todo: "T1", sha: "abcdef1", summary: "pushed", paths: ["src/a.ts"] },
      agent(6),
    );
    expect(dispatches(expectOk(same))).toEqual([]);
  });

  it("a result without commits dispatches at once", () => {
    const s = state({ todos: [todo("T1"), todo("T2")] });
    const claimed = expectOk(claimTodo(s, claimInput(1), ctx())).state;
    const r = applyTickResult(
      claimed,
      { ...lease1, result: result({ outcome: "progress", commits: [] }) },
      ctx(at(minutes(5))),
    );
    expect(dispatches(expectOk(r))).toHaveLength(1);
  });
});
