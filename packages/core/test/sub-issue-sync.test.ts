/** Sub-issues both ways: adopting a linked issue, renames each way, and when todos want issues. */
import { describe, expect, it } from "vitest";
import type { GoalState, TransitionResult } from "../src/index.ts";
import {
  addTodo,
  adoptSubIssue,
  applyTickResult,
  approveGate,
  claimNext,
  editTodo,
  retitleTodoFromSubIssue,
  todoTitleFrom,
  wantsSubIssue,
} from "../src/index.ts";
import {
  at,
  claimInput,
  ctx,
  expectOk,
  expectRefused,
  lease1,
  minutes,
  result,
  STRANGER,
  state,
  todo,
  WRITER,
} from "./fixtures.ts";

const kinds = (r: TransitionResult) => (r.ok ? r.effects.map((e) => e.kind) : []);
const linked = { subIssue: { id: 4300, number: 43 } };

describe("adoptSubIssue", () => {
  const input = { id: 5000, number: 50, title: "Index the table", authorTrusted: true };

  it("a writer's link adds a ready todo already linked, with an event", () => {
    const r = expectOk(adoptSubIssue(state(), input, ctx(undefined, WRITER)));
    expect(r.state.todos.at(-1)).toMatchObject({
      title: "Index the table",
      origin: "human",
      status: "ready",
      subIssue: { id: 5000, number: 50 },
    });
    expect(r.events.map((e) => e.type)).toEqual(["todo.added", "todo.sub_issue_linked"]);
    // GitHub already has the issue: nothing creates another.
    expect(kinds(r)).not.toContain("create_sub_issue");
    expect(kinds(r)).not.toContain("todo_sub_issues");
  });

  it("an issue written without write access makes an outsider's todo", () => {
    const r = expectOk(
      adoptSubIssue(state(), { ...input, authorTrusted: false }, ctx(undefined, WRITER)),
    );
    expect(r.state.todos.at(-1)?.origin).toBe("outsider");
  });

  it("refuses anyone without write access, an issue already linked, a finished goal", () => {
    expect(expectRefused(adoptSubIssue(state(), input, ctx(undefined, STRANGER))).code).toBe(
      "not_authorized",
    );
    const s = state({ todos: [todo("T1", { subIssue: { id: 5000, number: 50 } })] });
    expect(expectRefused(adoptSubIssue(s, input, ctx(undefined, WRITER))).code).toBe("duplicate");
    const done = state({}, { status: "done" });
    expect(expectRefused(adoptSubIssue(done, input, ctx(undefined, WRITER))).code).toBe(
      "goal_inactive",
    );
  });
});

describe("renames, each way", () => {
  it("a writer's retitle renames the todo and makes an outsider's todo theirs; nothing is written back", () => {
    const s = state({ todos: [todo("T1", { ...linked, origin: "outsider", title: "Old" })] });
    const r = expectOk(
      retitleTodoFromSubIssue(s, { todo: "T1", title: "New" }, ctx(undefined, WRITER)),
    );
    expect(r.state.todos[0]).toMatchObject({ title: "New", origin: "human" });
    expect(kinds(r)).not.toContain("sub_issue_title");
    expect(
      expectRefused(
        retitleTodoFromSubIssue(s, { todo: "T1", title: "New" }, ctx(undefined, STRANGER)),
      ).code,
    ).toBe("not_authorized");
  });

  it("a rename inside LoopX asks for the sub-issue's title, keyed by the new version", () => {
    const s = state({ todos: [todo("T1", linked), todo("T2")] });
    const r = expectOk(editTodo(s, { todo: "T1", title: "Renamed" }, ctx(undefined, WRITER)));
    expect(r.effects).toContainEqual({
      kind: "sub_issue_title",
      key: `todo:T1:title:v${s.goal.version + 1}`,
      todo: "T1",
    });
    // No sub-issue, or no new title: nothing to write.
    const plain = expectOk(editTodo(s, { todo: "T2", title: "Renamed" }, ctx(undefined, WRITER)));
    expect(kinds(plain)).not.toContain("sub_issue_title");
    const detail = expectOk(editTodo(s, { todo: "T1", detail: "more" }, ctx(undefined, WRITER)));
    expect(kinds(detail)).not.toContain("sub_issue_title");
  });

  it("reads a todo's title back without the key LoopX puts in front", () => {
    expect(todoTitleFrom({ key: "T1" }, "T1: Write it")).toBe("Write it");
    expect(todoTitleFrom({ key: "T1" }, "T12: Other")).toBe("T12: Other");
    expect(todoTitleFrom({ key: "T1" }, "  Write it ")).toBe("Write it");
  });
});

describe("todo_sub_issues: which todos want a sub-issue, and when it is asked for", () => {
  it("a writer's todo asks for it unless it already asked for its own (--issue)", () => {
    expect(kinds(expectOk(addTodo(state(), { title: "x" }, ctx(undefined, WRITER))))).toContain(
      "todo_sub_issues",
    );
    const own = expectOk(
      addTodo(state(), { title: "x", asSubIssue: true }, ctx(undefined, WRITER)),
    );
    expect(kinds(own)).toContain("create_sub_issue");
    expect(kinds(own)).not.toContain("todo_sub_issues");
  });

  it("a held plan asks only when a writer approves it", () => {
    const s: GoalState = state({}, { plan: "approve" });
    const claimed = expectOk(claimNext(s, claimInput(1), ctx()).result).state;
    const plan = claimed.todos.find((t) => t.kind === "plan")?.key ?? "";
    const held = expectOk(
      applyTickResult(
        claimed,
        {
          ...lease1,
          result: result({
            todo: plan,
            outcome: "no_change",
            validation: null,
            proposedTodos: [{ title: "Measure" }, { title: "Render" }],
          }),
        },
        ctx(at(minutes(5))),
      ),
    );
    expect(kinds(held)).not.toContain("todo_sub_issues");
    const gate = held.state.gates.find((g) => g.status === "open")?.key ?? "";
    const approved = expectOk(approveGate(held.state, { gate }, ctx(at(minutes(7)), WRITER)));
    expect(kinds(approved)).toContain("todo_sub_issues");
  });

  it("open tasks without one want it; proposed, finished, planning and monitor todos do not", () => {
    expect(wantsSubIssue(todo("T1"))).toBe(true);
    expect(wantsSubIssue(todo("T1", linked))).toBe(false);
    expect(wantsSubIssue(todo("T1", { status: "proposed" }))).toBe(false);
    expect(wantsSubIssue(todo("T1", { status: "dropped" }))).toBe(false);
    expect(wantsSubIssue(todo("T1", { kind: "plan" }))).toBe(false);
    expect(wantsSubIssue(todo("T1", { kind: "repair", origin: "pr-monitor" }))).toBe(false);
  });
});
