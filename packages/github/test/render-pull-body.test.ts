import { describe, expect, it } from "vitest";
import { renderPullBody, renderPullTitle } from "../src/index.ts";
import { goalState } from "./fixtures.ts";

const todoOf = (state: ReturnType<typeof goalState>) => {
  const todo = state.todos[0];
  if (!todo) throw new Error("the fixture has no todo");
  return todo;
};

describe("renderPullBody", () => {
  it("refers to the goal and never closes it", () => {
    const state = goalState();
    const goal = state.goal.issue.number;
    const body = renderPullBody(state, todoOf(state));
    expect(body).toContain(`Refs #${goal}`);
    expect(body).not.toMatch(new RegExp(`(close|fix|resolve)[sd]?:?\\s+#${goal}\\b`, "i"));
  });

  it("closes the todo's sub-issue when it has one", () => {
    const state = goalState();
    const todo = { ...todoOf(state), subIssue: { id: 9001, number: 77 } };
    expect(renderPullBody(state, todo)).toContain("Fixes #77");
  });

  it("an agent's or a person's title cannot close issues or ping anyone", () => {
    const state = goalState();
    const todo = { ...todoOf(state), title: `fixes #${state.goal.issue.number} for @octocat` };
    const title = renderPullTitle(todo);
    const body = renderPullBody(state, todo);
    for (const text of [title, body]) {
      expect(text).not.toMatch(new RegExp(`fixes #${state.goal.issue.number}`, "i"));
      expect(text).not.toContain("@octocat");
    }
  });
});
