import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { fileIssue, keyedComments, label } from "../support/ops-steps.ts";

/** Scenario: a delivery never reaches the app; the reconciler fetches it from GitHub. */
describe("e2e: a lost delivery is reconciled from /app/hook/deliveries", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it("a dropped label is recorded from GitHub's delivery log and starts the goal", async () => {
    const first = await h.app.reconcile();
    const number = await fileIssue(h, "alice", "Lazy-load widget icons");
    h.sandbox.faults.webhook({ mode: "drop", event: "issues.labeled", times: 1 });
    await label(h, "alice", number);
    await h.settle();
    expect(await h.store.findGoalByIssue(h.repo.id, number)).toBeNull();

    const result = await h.app.reconcile();
    expect(result.recorded).toBe(1);
    expect(result.cursor).toBeGreaterThan(first.cursor ?? 0);
    await h.settle();
    const goal = await h.store.findGoalByIssue(h.repo.id, number);
    expect(goal?.goal.status).toBe("active");
    expect(await keyedComments(h, number, "status")).toHaveLength(1);

    // The cursor bounds the next scan, and nothing is recorded twice.
    const again = await h.app.reconcile();
    expect(again.recorded).toBe(0);
    const newer = h.sandbox.deliveries().filter((d) => d.id > (result.cursor ?? 0));
    expect(again.scanned).toBe(newer.length);
  });

  it("the cursor survives a restart: the new app does not re-record old failures", async () => {
    const before = await h.app.reconcile();
    await h.restart();
    const after = await h.app.reconcile();
    expect(after.recorded).toBe(0);
    expect(after.cursor).toBeGreaterThanOrEqual(before.cursor ?? 0);
  });
});
