import { MAX_INITIAL_TODOS } from "@loopx/core";
import { HELP_TEXT, parseCommand } from "@loopx/github";
import { describe, expect, it } from "vitest";
import {
  type GoallessCommandFacts,
  planGoallessCommand,
} from "../../src/comments/plan-goalless-command.ts";

const ISSUE = { owner: "acme", repo: "widgets", number: 7 };

const facts = (over: Partial<GoallessCommandFacts> = {}): GoallessCommandFacts => ({
  issue: ISSUE,
  repo: { id: 10, fullName: "acme/widgets" },
  commentId: 99,
  typed: "/loopx start",
  author: "writer",
  onPullRequest: false,
  trusted: true,
  command: { name: "start", objective: null },
  openTodos: 0,
  ...over,
});

const kinds = (plan: ReturnType<typeof planGoallessCommand>) =>
  plan.kind === "ignore" ? plan.effects.map((e) => e.kind) : [];

describe("planGoallessCommand: help and start where there is no goal", () => {
  it("a writer's help: seen, the full list from LoopX's lane, done", () => {
    for (const onPullRequest of [false, true]) {
      const plan = planGoallessCommand(facts({ command: { name: "help" }, onPullRequest }));
      expect(kinds(plan)).toEqual(["react", "reply", "react"]);
      if (plan.kind !== "ignore") return;
      expect(plan.effects[1]).toMatchObject({
        lane: "loopx",
        key: "reply:comment:99",
        body: expect.stringContaining(HELP_TEXT),
      });
    }
  });

  it("anyone else's help: the list from the outsiders' allowance, no reaction", () => {
    const plan = planGoallessCommand(facts({ command: { name: "help" }, trusted: false }));
    expect(kinds(plan)).toEqual(["reply"]);
    expect(plan).toMatchObject({ effects: [{ lane: "outsider", to: { login: "writer" } }] });
  });

  it("a writer's start on an issue creates the goal", () => {
    expect(planGoallessCommand(facts())).toEqual({ kind: "create" });
  });

  it("a non-writer's start starts nothing, one outsider reply", () => {
    const plan = planGoallessCommand(facts({ trusted: false }));
    expect(kinds(plan)).toEqual(["reply"]);
    expect(plan).toMatchObject({ kind: "ignore", effects: [{ lane: "outsider" }] });
  });

  it("a start on a pull request, or over a too long task list, starts nothing and says why", () => {
    expect(kinds(planGoallessCommand(facts({ onPullRequest: true })))).toEqual(["react", "reply"]);
    expect(kinds(planGoallessCommand(facts({ openTodos: MAX_INITIAL_TODOS + 1 })))).toEqual([
      "react",
      "reply",
    ]);
    expect(planGoallessCommand(facts({ openTodos: MAX_INITIAL_TODOS }))).toEqual({
      kind: "create",
    });
  });

  it("a start over a task-list item with paths outside the repository starts nothing and says why", () => {
    const plan = planGoallessCommand(
      facts({ pathsProblem: '"/etc/**" is not a path in this repository' }),
    );
    expect(kinds(plan)).toEqual(["react", "reply"]);
    expect(JSON.stringify(plan)).toContain("Nothing was started");
    expect(planGoallessCommand(facts({ pathsProblem: null }))).toEqual({ kind: "create" });
  });
});

describe("parseCommand: start", () => {
  it("takes an optional objective, as typed", () => {
    expect(parseCommand("/loopx start")).toEqual({
      kind: "command",
      command: { name: "start", objective: null },
    });
    expect(parseCommand("/loopx START  Make search fast ")).toEqual({
      kind: "command",
      command: { name: "start", objective: "Make search fast" },
    });
  });

  it("refuses an objective longer than a title may be", () => {
    expect(parseCommand(`/loopx start ${"x".repeat(257)}`)).toMatchObject({
      kind: "error",
      code: "too_long",
    });
  });
});
