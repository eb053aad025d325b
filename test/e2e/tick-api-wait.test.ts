import { AskResponse } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/** Scenario: a tick with nothing to run answers run:false and touches nothing. */
describe("e2e: a wait tick", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("answers run:false with the route, reason and next wake, and makes zero GitHub requests", async () => {
    const goal = await h.startGoal("Tidy the docs", ["Fix broken links"]);
    const issue = goal.goal.issue.number;
    // Another run holds the only todo: this one must wait.
    const first = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: issue }, await h.token(6001))).body,
    );
    expect(first.run).toBe(true);
    await h.settle();

    const before = await h.store.loadGoal(goal.goal.id);
    const outboxBefore = (await h.store.outboxForGoal(goal.goal.id)).length;
    const requests = h.sandbox.requests().length;
    const answer = await h.post("/api/v1/ticks", { goal: issue }, await h.token(6002));
    expect(answer.status).toBe(200);
    const wait = AskResponse.parse(answer.body);
    if (wait.run) throw new Error("expected a wait");
    expect(wait.route).toBe("wait");
    expect(wait.reason).not.toBe("");
    expect(wait.nextWakeAt).not.toBeNull();

    await h.settle();
    // Waits post nothing: no comment, no status update, not even a read.
    expect(h.requestsSince(requests)).toBe(0);
    const after = await h.store.loadGoal(goal.goal.id);
    expect(after?.goal.version).toBe(before?.goal.version);
    expect(after?.ticks).toHaveLength(1);
    expect((await h.store.outboxForGoal(goal.goal.id)).length).toBe(outboxBefore);
  });
});
