import { describe, expect, it } from "vitest";
import { ctx, expectOk, state, T0, todo } from "../../../packages/core/test/fixtures.ts";
import { planAssignees } from "../../src/issues/sub-issue-assignees.ts";

const goal = () =>
  state({ todos: [todo("T1", { subIssue: { id: 901, number: 12 } }), todo("T2")] });

describe("planAssignees", () => {
  it("holds the todo of the sub-issue for its assignees, as the system, with no reply", () => {
    const plan = planAssignees({
      goal: goal(),
      issue: 12,
      assignees: ["Copilot", "not a login!"],
      sender: "alice",
    });
    if (plan.kind !== "apply") throw new Error(`expected apply, got ${plan.why}`);
    expect(plan.actor).toEqual({ kind: "system", reason: "assignees of #12 changed by alice" });
    expect(plan.effects).toEqual([]);
    const r = expectOk(plan.transition(goal(), ctx(T0, plan.actor)));
    expect(r.state.todos[0]?.heldBy).toMatchObject({
      holder: "Copilot",
      via: "assignment",
      issue: 12,
    });
  });

  it("ignores an issue that is no todo's sub-issue", () => {
    const plan = planAssignees({
      goal: goal(),
      issue: 99,
      assignees: ["Copilot"],
      sender: "alice",
    });
    expect(plan).toMatchObject({ kind: "ignore", why: "#99 is no todo's sub-issue" });
  });
});
