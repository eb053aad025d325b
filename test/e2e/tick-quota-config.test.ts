import { AskResponse } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: `.github/loopx.yml` sets the duty cycle, as the over-budget message tells owners
 * to: a goal started under `quota: { compute: 0 }` is on a hard pause (its tick is told to
 * wait, saying why), and one started under a wider window keeps the values it was given.
 */
describe("e2e: quota in .github/loopx.yml sets a goal's duty cycle", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("compute: 0 pauses the goal's ticks; other values reach the goal", async () => {
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "quota:\n  compute: 0\n" });
    const paused = await h.startGoal("Speed up rendering", ["Profile the renderer"]);
    expect(paused.goal.quota).toEqual({ windowHours: 24, slotMinutes: 30, compute: 0 });
    const asked = await h.post(
      "/api/v1/ticks",
      { goal: paused.goal.issue.number },
      await h.token(7001),
    );
    const answer = AskResponse.parse(asked.body);
    expect(answer.run).toBe(false);
    expect(answer.reason).toContain("compute is 0");

    h.sandbox.push("acme/widgets", "main", {
      ".github/loopx.yml": "quota:\n  windowHours: 48\n  slotMinutes: 60\n  compute: 0.5\n",
    });
    const wide = await h.startGoal("Speed up parsing", ["Profile the parser"]);
    expect(wide.goal.quota).toEqual({ windowHours: 48, slotMinutes: 60, compute: 0.5 });
  }, 60_000);
});
