import { addTodo } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { startGoal } from "../support/goal-steps.ts";

/**
 * Scenario: GitHub is slow to answer the App's edit of the goal issue's checklist just as a
 * person gives the goal a todo. The tick's dispatch, queued in the same transaction as that
 * edit, goes out while the edit is still in flight: the next slice never waits behind
 * comment and checklist writes.
 */
describe("e2e: a dispatch does not wait behind a slow checklist edit", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it("the tick workflow is dispatched while the body PATCH is still in flight", async () => {
    const { number, goalId } = await startGoal(h, "alice", "Cache the widgets");

    // GitHub takes 5 s to answer the next edit of the issue (its checklist).
    h.sandbox.faults.route({ route: "issues/update", method: "PATCH", latencyMs: 5000, times: 1 });
    const mark = h.sandbox.requests().length;
    const r = await h.store.apply(goalId, (s, now) =>
      addTodo(
        s,
        { title: "Pick a cache key" },
        { actor: { kind: "human", login: "alice", trusted: true }, now, newId: h.app.deps.newId },
      ),
    );
    if (!r.ok) throw new Error(r.refusal.message);
    // The same transaction queued the checklist edit and the dispatch.
    const queued = (await h.store.outboxForGoal(goalId)).filter((q) => q.deadAt === null);
    expect(queued.map((q) => q.effect.kind)).toEqual(expect.arrayContaining(["body", "dispatch"]));
    h.app.outbox.kick();

    const path = `/repos/acme/widgets/issues/${number}`;
    const since = () => h.sandbox.requests().slice(mark);
    const deadline = Date.now() + 20_000;
    while (!since().some((q) => q.operationId === "actions/create-workflow-dispatch")) {
      if (Date.now() > deadline) throw new Error("the tick workflow was never dispatched");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const edit = since().find((q) => q.operationId === "issues/update" && q.path === path);
    expect(edit, "the checklist edit was sent before the dispatch").toBeDefined();
    // Still unanswered (status 0) when the dispatch went out.
    expect(edit?.status).toBe(0);
    await h.settle();
    expect(edit?.status).toBe(200);
  });
});
