import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { expectChargedTheCap, playTick } from "../support/tick-phases.ts";

/**
 * Scenario: a shell slice goes silent (a hung command). The App's idle limit, handed to the
 * action in the brief, kills it long before its wall clock; it is reported as a timeout and
 * charged at least the tick cap.
 */
describe("e2e: the idle limit stops a silent slice", () => {
  let h: TickHarness;
  beforeAll(async () => {
    // Three seconds without output (the App's setting; ten minutes by default).
    h = await startTickHarness({ api: { idleMinutes: 0.05 } });
  });
  afterAll(() => h.close());

  it("is reported as a timeout after the idle limit, and charged the tick cap", async () => {
    const goal = await h.startGoal("Mirror the assets", ["Copy the images"]);
    const before = await h.store.loadGoal(goal.goal.id);
    if (!before) throw new Error("no goal");
    const started = Date.now();
    const tick = await playTick(h, {
      goal: goal.goal.issue.number,
      runId: 3201,
      agent: { harness: "shell", "shell-command": "echo copying; sleep 120" },
    });
    // Stopped by the idle limit, not by the 30-minute wall clock nor the sleep ending.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(tick.agent?.outputs["slice-outcome"], tick.agent?.stdout).toBe("timeout");
    expect(tick.report?.code, tick.report?.stdout).toBe(0);
    expect(tick.report?.summary).toContain("failed (timeout)");
    expect(tick.report?.summary).toContain("no output for 3000 ms");

    const after = await expectChargedTheCap(h, before, tick.tickId, "timeout");
    const handoff = after?.handoffs.find((x) => x.tickId === tick.tickId);
    expect(handoff?.done).toContain("[timeout] no output for 3000 ms");
  }, 90_000);
});
