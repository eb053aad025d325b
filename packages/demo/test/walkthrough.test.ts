import { openStore, type Store } from "@loopx/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedPglite, truncateAll } from "../../../test/support/databases.ts";
import { runWalkthrough } from "../src/walkthrough/walkthrough.ts";

describe("the kernel walkthrough (npm run walkthrough)", () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ pglite: await sharedPglite() });
    await store.migrate();
    await truncateAll(store);
  });
  afterAll(() => store.close());

  it("runs T1 and T2, stops at the release gate, and finishes once it is approved", async () => {
    const lines: string[] = [];
    const report = await runWalkthrough(store, (l) => lines.push(l));
    // T3 needs scope "release", which only G1 grants: two runs, a question, a run, done.
    expect(report.routes).toEqual(["run", "run", "ask_human", "run", "done"]);
    expect(report.finalStatus).toBe("done");
    expect(report.ticks).toBe(3);
    // Every scripted slice passed its validation, so each spent one slot.
    expect(report.slotsSpent).toBe(3);
    expect(report.spentUsd).toBeCloseTo(3 * 0.42, 6);
    expect(report.outbox).toBeGreaterThan(0);
    expect(lines.some((l) => l.includes("/loopx approve G1"))).toBe(true);
  });

  it("keeps earlier goals: a second run files the next issue number", async () => {
    const first = await store.findGoalByIssue(1001, 1);
    expect(first?.goal.status).toBe("done");
    const report = await runWalkthrough(store, () => {});
    expect(report.issueNumber).toBe(2);
  });
});
