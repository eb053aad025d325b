import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimTick, openPulls, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: T1's first tick opened its PR; the next tick claims T1 again, on the same
 * branch. While it holds the claim, the PR's head shows `LoopX / claim` (neutral) naming the
 * holder and the lease's end, written once.
 */
describe("e2e: the claim check on a todo branch's head", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness({ onPostgres: true });
  });
  afterAll(() => h.close());

  it("a follow-on tick's claim shows on its PR's head", async () => {
    const goal = await h.startGoal("Speed up rendering", ["Cache layout", "Document it"]);
    const issue = goal.goal.issue.number;
    await playTick(h, issue, { "src/layout.ts": "export const cache = 1;\n" });
    await h.sandbox.idle();
    await h.settle();
    const [pr] = await openPulls(h);
    if (!pr) throw new Error("the first tick opened no PR");
    const claimRuns = () =>
      [...h.sandbox.store.checkRuns.values()].filter(
        (r) => r.name === "LoopX / claim" && r.headSha === pr.head.sha,
      );
    expect(claimRuns()).toEqual([]);

    const from = h.sandbox.requests().length;
    const { claim } = await claimTick(h, issue);
    expect(claim.todo).toBe("T1");
    await h.settle();
    const [run] = claimRuns();
    expect(claimRuns()).toHaveLength(1);
    expect(run).toMatchObject({ status: "completed", conclusion: "neutral" });
    expect(run?.output.title).toMatch(/^T1 claimed by tick 2 \(/);
    expect(run?.output.summary).toContain("its lease runs until");
    const writes = h.sandbox
      .requests()
      .slice(from)
      .filter((r) => r.operationId === "checks/create" || r.operationId === "checks/update");
    expect(writes.filter((r) => r.operationId === "checks/create")).toHaveLength(1);
  }, 180_000);
});
