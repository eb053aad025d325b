import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { command } from "../support/interrupted-slices.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { askRun, reportResult } from "../support/tick-calls.ts";

/**
 * Scenario: a writer stops a goal when no tick is running — before any, and after one that
 * already reported. The goal stops; no workflow run is cancelled or touched, and the
 * finished tick's record stays as it was.
 */
describe("e2e: a stop with no run in flight", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness({ onPostgres: true });
  });
  afterAll(() => h?.close());

  const runControl = () =>
    h.sandbox
      .requests()
      .filter((r) => r.method === "POST" && /\/actions\/runs\/\d+\/(force-)?cancel$/.test(r.path));
  const runStates = () =>
    [...h.sandbox.store.workflowRuns.values()].map((r) => `${r.id}:${r.status}:${r.conclusion}`);

  it("stops the goal and cancels nothing", async () => {
    const goal = await h.startGoal("Index the archive", ["Build the index", "Ship it"]);
    const issue = goal.goal.issue.number;
    const claim = await askRun(h, issue, 4101);
    const reported = await reportResult(h, claim, 4101, {
      outcome: "no_change",
      handoff: { done: "looked around", next: "build it" },
      metering: "proxy",
    });
    expect(reported.status).toBe(200);
    await h.settle();
    const before = await h.store.loadGoal(goal.goal.id);
    const tickBefore = before?.ticks.find((t) => t.id === claim.tickId);
    const runs = runStates();

    await command(h, issue, "/loopx stop");
    const after = await h.store.loadGoal(goal.goal.id);
    expect(after?.goal.status).toBe("stopped");
    expect(runControl()).toEqual([]);
    expect(runStates()).toEqual(runs);
    expect((await h.store.outboxForGoal(goal.goal.id)).map((r) => r.effect.kind)).not.toContain(
      "cancel_run",
    );
    expect(after?.ticks.find((t) => t.id === claim.tickId)).toEqual(tickBefore);
  }, 60_000);
});
