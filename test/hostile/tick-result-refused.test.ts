import { ApiError, AskResponse, type GoalState } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Harness results the tick API must refuse: not JSON, too large, malformed, or claiming a todo
 * the tick does not hold. Each is refused with a message saying what to fix, and nothing
 * changes: the goal's version, the open tick and its lease, and GitHub (no request at all).
 * The same tick then reports properly and is accepted: the refusals spent nothing.
 * (Wrong lease token, other run, duplicate: test/api/tick-api-hostile.test.ts.)
 */
describe("hostile: harness results that are refused", () => {
  let h: TickHarness;
  let goal: GoalState;
  let claim: Extract<AskResponse, { run: true }>;
  const RUN = 6301;
  const valid = () => ({
    todo: claim.todo,
    outcome: "no_change",
    handoff: { done: "Read the parser.", next: "Fuzz it.", questions: [] },
    cost: { usd: 0.1, tokens: 100, runnerMinutes: 1 },
  });

  beforeAll(async () => {
    h = await startTickHarness();
    goal = await h.startGoal("Harden the widget parser", ["Fuzz the tokenizer", "Fix crashes"]);
    const asked = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: goal.goal.issue.number }, await h.token(RUN))).body,
    );
    if (!asked.run) throw new Error(`expected a run: ${asked.reason}`);
    claim = asked;
    await h.settle();
  });
  afterAll(() => h.close());

  async function refused(body: unknown, status: number) {
    await h.settle();
    const before = await h.store.loadGoal(goal.goal.id);
    const requests = h.sandbox.requests().length;
    const answer = await h.post(`/api/v1/ticks/${claim.tickId}/result`, body, await h.token(RUN));
    expect(answer.status).toBe(status);
    const error = ApiError.parse(answer.body);
    await h.settle();
    const after = await h.store.loadGoal(goal.goal.id);
    expect(after?.goal.version).toBe(before?.goal.version);
    expect(after?.ticks).toEqual(before?.ticks);
    expect(after?.todos).toEqual(before?.todos);
    expect(after?.evidence).toHaveLength(before?.evidence.length ?? -1);
    expect(h.requestsSince(requests)).toBe(0);
    return error;
  }

  it("a body that is not JSON (400, says to send JSON)", async () => {
    const error = await refused("{ this is not json", 400);
    expect(error.message).toContain("not JSON");
  });

  it("a result larger than the body limit (413, says logs belong in artifacts)", async () => {
    const huge = { leaseToken: claim.leaseToken, result: { ...valid(), log: "x".repeat(400_000) } };
    const error = await refused(huge, 413);
    expect(error.message).toContain("artifacts");
  });

  it("a handoff over its bound (400, names the field)", async () => {
    const result = { ...valid(), handoff: { done: "x".repeat(50_000), next: "", questions: [] } };
    const error = await refused({ leaseToken: claim.leaseToken, result }, 400);
    expect(error.message).toContain("handoff");
  });

  it("a completion without a continuation (400, says what a completion needs)", async () => {
    const result = { ...valid(), outcome: "completed" };
    const error = await refused({ leaseToken: claim.leaseToken, result }, 400);
    expect(error.message).toContain("continuation");
  });

  it("a result for a todo the tick did not claim (400, names the claimed todo)", async () => {
    const other = claim.todo === "T1" ? "T2" : "T1";
    const result = { ...valid(), todo: other, outcome: "progress" };
    const error = await refused({ leaseToken: claim.leaseToken, result }, 400);
    expect(error.message).toContain(claim.todo);
  });

  it("a result for a todo that does not exist (400)", async () => {
    await refused({ leaseToken: claim.leaseToken, result: { ...valid(), todo: "T99" } }, 400);
  });

  it("after all that, the claim is intact: the proper result is accepted once", async () => {
    const ok = await h.post(
      `/api/v1/ticks/${claim.tickId}/result`,
      { leaseToken: claim.leaseToken, result: valid() },
      await h.token(RUN),
    );
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const state = await h.store.loadGoal(goal.goal.id);
    expect(state?.ticks.find((t) => t.id === claim.tickId)?.outcome).toBe("no_change");
  });
});
