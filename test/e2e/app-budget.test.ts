import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { comment, goal, reactions, replyTo, startGoal } from "../support/goal-steps.ts";

/**
 * Scenario: `/loopx budget`. Any writer may lower a limit; only a goal owner may raise
 * one, and nobody above the ceiling in `.github/loopx.yml` (budgets.goal.usd: 25 here).
 */
describe("e2e: budget raises by owner vs writer vs above the ceiling", () => {
  let h: Harness;
  let number: number;
  let goalId: string;
  beforeAll(async () => {
    h = await startHarness({ files: { ".github/loopx.yml": "budgets:\n  goal:\n    usd: 25\n" } });
    // alice labels, so alice owns the goal; wendy only has write access.
    ({ number, goalId } = await startGoal(h, "alice"));
  });
  afterAll(() => h.close());

  const usd = async () => (await goal(h, goalId)).goal.budget.usd;

  it("starts at the configured ceiling", async () => {
    expect(await usd()).toBe(25);
  });

  it("a writer may lower it", async () => {
    const id = await comment(h, "wendy", number, "/loopx budget usd=10 ticks=50");
    expect(await reactions(h, id)).toEqual(["+1", "eyes"]);
    expect((await goal(h, goalId)).goal.budget).toMatchObject({ usd: 10, ticks: 50 });
  });

  it("a writer who is not an owner may not raise it", async () => {
    const id = await comment(h, "wendy", number, "/loopx budget usd=15");
    expect(await reactions(h, id)).toEqual(["eyes"]);
    const reply = await replyTo(h, number, id);
    expect(reply?.body).toContain("takes a goal owner");
    expect(reply?.body).toContain("anyone with write access may lower it");
    expect(await usd()).toBe(10);
  });

  it("the owner may raise it up to the ceiling, not above", async () => {
    let id = await comment(h, "alice", number, "/loopx budget usd=20");
    expect(await reactions(h, id)).toEqual(["+1", "eyes"]);
    expect(await usd()).toBe(20);

    id = await comment(h, "alice", number, "/loopx budget usd=30");
    expect(await reactions(h, id)).toEqual(["eyes"]);
    expect((await replyTo(h, number, id))?.body).toContain("above the ceiling 25");
    expect(await usd()).toBe(20);
  });

  it("a malformed budget gets its usage", async () => {
    const id = await comment(h, "alice", number, "/loopx budget dollars=5");
    const reply = await replyTo(h, number, id);
    expect(reply?.body).toContain("is not a limit");
    expect(reply?.body).toContain("budget ticks=N minutes=N usd=N tokens=N");
  });
});
