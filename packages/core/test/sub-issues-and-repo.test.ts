import { describe, expect, it } from "vitest";
import {
  linkSubIssue,
  refreshProjections,
  renameRepo,
  settleTodoFromSubIssue,
  unlinkSubIssue,
} from "../src/index.ts";
import {
  APP,
  ctx,
  doneTodo,
  expectOk,
  expectRefused,
  STRANGER,
  state,
  T0,
  todo,
  WRITER,
} from "./fixtures.ts";

const SUB = { id: 9001, number: 7 };

describe("linkSubIssue / unlinkSubIssue", () => {
  it("records the created sub-issue on the todo and re-renders the checklist only", () => {
    const r = expectOk(linkSubIssue(state({ todos: [todo("T1")] }), { todo: "T1", ...SUB }, ctx()));
    expect(r.state.todos[0]?.subIssue).toEqual(SUB);
    // A due goal may also be dispatched (every commit does that); no status re-render.
    expect(r.effects.map((e) => e.kind).filter((k) => k !== "dispatch")).toEqual(["body"]);
    expect(r.events.map((e) => e.type)).toEqual(["todo.sub_issue_linked"]);
  });

  it("is LoopX's alone, and refuses a second identical link", () => {
    const s = state({ todos: [todo("T1", { subIssue: SUB })] });
    expect(expectRefused(linkSubIssue(s, { todo: "T1", ...SUB }, ctx(T0, WRITER))).code).toBe(
      "not_authorized",
    );
    expect(expectRefused(linkSubIssue(s, { todo: "T1", ...SUB }, ctx())).code).toBe("duplicate");
  });

  it("unlinking keeps the todo and clears the link", () => {
    const s = state({ todos: [todo("T1", { subIssue: SUB })] });
    const r = expectOk(unlinkSubIssue(s, { todo: "T1" }, ctx(T0, { kind: "system", reason: "x" })));
    expect(r.state.todos[0]).toMatchObject({ key: "T1", status: "ready", subIssue: null });
    expect(expectRefused(unlinkSubIssue(r.state, { todo: "T1" }, ctx())).code).toBe(
      "invalid_state",
    );
  });
});

describe("settleTodoFromSubIssue", () => {
  const s = state({ todos: [todo("T1", { subIssue: SUB })] });

  it("closed as completed by a writer: done with the close as evidence, no second close", () => {
    const r = expectOk(
      settleTodoFromSubIssue(s, { todo: "T1", outcome: "completed" }, ctx(T0, WRITER)),
    );
    const t = r.state.todos[0];
    expect(t?.status).toBe("done");
    expect(t?.completion?.continuation).toEqual({ kind: "goal_active" });
    expect(r.state.evidence[0]?.summary).toBe("sub-issue #7 closed as completed by @writer");
    expect(r.effects.some((e) => e.kind === "close_sub_issue")).toBe(false);
  });

  it("closed as not planned: dropped", () => {
    const r = expectOk(
      settleTodoFromSubIssue(s, { todo: "T1", outcome: "not_planned" }, ctx(T0, WRITER)),
    );
    expect(r.state.todos[0]?.status).toBe("dropped");
    expect(r.effects.some((e) => e.kind === "close_sub_issue")).toBe(false);
  });

  it("needs a writer, and a settled todo is not settled twice", () => {
    expect(
      expectRefused(
        settleTodoFromSubIssue(s, { todo: "T1", outcome: "completed" }, ctx(T0, STRANGER)),
      ).code,
    ).toBe("not_authorized");
    expect(
      expectRefused(settleTodoFromSubIssue(s, { todo: "T1", outcome: "completed" }, ctx(T0, APP)))
        .code,
    ).toBe("not_authorized");
    const done = state({ todos: [doneTodo("T1", undefined, { subIssue: SUB })] });
    expect(
      expectRefused(
        settleTodoFromSubIssue(done, { todo: "T1", outcome: "completed" }, ctx(T0, WRITER)),
      ).code,
    ).toBe("duplicate");
  });
});

describe("renameRepo", () => {
  it("follows a rename or transfer, keeping the repository id", () => {
    const s = state();
    const r = expectOk(
      renameRepo(s, { owner: "newco", ownerId: 77, name: "gadgets" }, ctx(T0, APP)),
    );
    expect(r.state.goal.repo).toEqual({ id: 10, ownerId: 77, owner: "newco", name: "gadgets" });
    expect(r.events[0]?.data).toMatchObject({ from: "acme/widgets", to: "newco/gadgets" });
  });

  it("works on a finished goal, refuses people and no-op renames", () => {
    const done = state({}, { status: "done" });
    expectOk(renameRepo(done, { owner: "acme", ownerId: 20, name: "gadgets" }, ctx()));
    expect(
      expectRefused(renameRepo(done, { owner: "x", ownerId: 20, name: "y" }, ctx(T0, WRITER))).code,
    ).toBe("not_authorized");
    expect(
      expectRefused(renameRepo(done, { owner: "acme", ownerId: 20, name: "widgets" }, ctx())).code,
    ).toBe("duplicate");
  });
});

describe("refreshProjections", () => {
  it("re-renders what is asked and changes nothing else", () => {
    const s = state({ todos: [todo("T1")] });
    const r = expectOk(
      refreshProjections(s, { reason: "box ticked by @stranger", body: true }, ctx(T0, STRANGER)),
    );
    expect(r.effects.map((e) => e.kind)).toContain("body");
    expect(r.effects.map((e) => e.kind)).not.toContain("status");
    expect(r.state.todos).toEqual(s.todos);
    const withReceipt = expectOk(
      refreshProjections(
        s,
        { reason: "back", status: true, receipt: { key: "k", text: "hi" } },
        ctx(),
      ),
    );
    expect(withReceipt.effects.map((e) => e.kind)).toEqual(
      expect.arrayContaining(["status", "receipt"]),
    );
    expect(withReceipt.effects.map((e) => e.kind)).not.toContain("check_runs");
  });

  it("queues LoopX's check runs once when asked, though the state did not move them", () => {
    const s = state({ todos: [todo("T1")] });
    const r = expectOk(
      refreshProjections(s, { reason: "checks: write accepted", checks: true }, ctx()),
    );
    expect(r.effects.filter((e) => e.kind === "check_runs")).toEqual([
      { kind: "check_runs", key: "check_runs" },
    ]);
    expect(r.effects.map((e) => e.kind)).not.toContain("notify");
    expect(r.state.todos).toEqual(s.todos);
  });
});
