import { describe, expect, it } from "vitest";
import { PullRequest, todoDependenciesOf } from "../src/index.ts";
import { gate, state, T0, todo } from "./fixtures.ts";

describe("todoDependenciesOf: what each open todo waits on", () => {
  const s = state({
    todos: [
      todo("T1"),
      todo("T2", { resumeWhen: { kind: "todo_done", todo: "T1" } }),
      todo("T3", { requiredScopes: ["deploy"] }),
      todo("T4", { requiredScopes: ["release"] }),
      todo("T5", { resumeWhen: { kind: "pr_merged", pr: 9 } }),
      todo("T6", {
        status: "done",
        resumeWhen: { kind: "todo_done", todo: "T1" },
        completion: {
          continuation: { kind: "goal_active" },
          evidenceIds: ["00000000-0000-4000-8000-000000000001"],
          tickId: null,
          at: T0,
        },
      }),
    ],
    gates: [gate("G1", ["deploy"]), gate("G2", ["release"], { status: "approved" })],
    pullRequests: [
      PullRequest.parse({
        number: 9,
        todo: "T1",
        headRef: "loopx/1-T1",
        headSha: "abcdef1",
        state: "open",
      }),
    ],
  });
  const of = todoDependenciesOf(s);
  const deps = (key: string) => {
    const t = s.todos.find((x) => x.key === key);
    if (!t) throw new Error(key);
    return of(t);
  };

  it("a todo resuming after another, a gate holding its scope, a PR it waits to merge", () => {
    expect(deps("T1")).toEqual({ todos: [], gates: [], pr: null });
    expect(deps("T2")).toEqual({ todos: ["T1"], gates: [], pr: null });
    expect(deps("T3")).toEqual({ todos: [], gates: ["G1"], pr: null });
    expect(deps("T5")).toEqual({ todos: [], gates: [], pr: 9 });
  });

  it("an approved gate holds nothing; a finished todo waits on nothing", () => {
    expect(deps("T4").gates).toEqual([]);
    expect(deps("T6")).toEqual({ todos: [], gates: [], pr: null });
  });
});
