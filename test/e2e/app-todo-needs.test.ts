import { decide } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { comment, goal, openTestGate, replyTo, startGoal } from "../support/goal-steps.ts";

/**
 * Scenario: a writer adds a todo that needs a scope (`--needs deploy`) and one that does not;
 * while a gate on `deploy` waits, the scoped todo waits with it and the other runs. A malformed
 * scope is refused with a reply that says what would work, and adds nothing.
 */
describe("e2e: /loopx todo add --needs <scope>", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  beforeAll(async () => {
    h = await startHarness();
    ({ number, goalId } = await startGoal(h, "alice"));
  });
  afterAll(() => h.close());

  it("scopes the todo; the gate blocks it and not the other", async () => {
    await comment(h, "alice", number, "/loopx todo add Publish the docs --needs deploy");
    await comment(h, "alice", number, "/loopx todo add Write the docs");
    const bad = await comment(h, "alice", number, "/loopx todo add Ship it --needs Deploy!");
    let state = await goal(h, goalId);
    expect(state.todos.map((t) => [t.key, t.title, t.requiredScopes])).toEqual([
      ["T1", "Publish the docs", ["deploy"]],
      ["T2", "Write the docs", []],
    ]);
    expect((await replyTo(h, number, bad))?.body).toContain("is not a scope");

    state = await openTestGate(h, goalId, { question: "Deploy the docs?", scopes: ["deploy"] });
    const next = decide(state, new Date(), "agent-a");
    expect([next.route, next.todo]).toEqual(["run", "T2"]);
  }, 60_000);
});
