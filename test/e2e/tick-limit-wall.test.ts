import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import { expectChargedTheCap, playTick } from "../support/tick-phases.ts";

/**
 * Scenario: a runaway shell slice (busy, never idle) hits the wall-clock limit. The action
 * kills it, commits its work in progress, reports a timeout; the App charges at least the
 * tick cap (a killed slice cannot account for itself) and keeps the evidence.
 */
describe("e2e: the wall-clock limit stops a runaway slice", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("is reported as a timeout, its WIP pushed, and charged the tick cap", async () => {
    const goal = await h.startGoal("Index the archive", ["Build the index"]);
    const before = await h.store.loadGoal(goal.goal.id);
    if (!before) throw new Error("no goal");
    const started = Date.now();
    const tick = await playTick(h, {
      goal: goal.goal.issue.number,
      runId: 3101,
      // One minute of wall time is the App's floor; the ask lowers the cap to it.
      ask: { "max-minutes": "1" },
      agent: {
        harness: "shell",
        "shell-command": "echo half > half.txt; while :; do echo indexing; sleep 0.2; done",
      },
      // A minute lasts 2 s here: wall 2 s, idle 20 s (the loop prints every 0.2 s).
      agentEnv: { LOOPX_MINUTE_MS: "2000" },
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(tick.agent?.outputs["slice-outcome"], tick.agent?.stdout).toBe("timeout");
    expect(tick.report?.code, tick.report?.stdout).toBe(0);
    expect(tick.report?.outputs).toMatchObject({ outcome: "failed", pushed: "true" });
    expect(tick.report?.summary).toContain("failed (timeout)");
    expect(tick.report?.summary).toContain("wall-clock limit of 2000 ms");

    // Killed: charged at least the cap, whatever it reported (the shell reports no cost).
    const after = await expectChargedTheCap(h, before, tick.tickId, "timeout");
    // The handoff the next tick reads says why this one stopped.
    const handoff = after?.handoffs.find((x) => x.tickId === tick.tickId);
    expect(handoff?.done).toContain("[timeout] wall-clock limit of 2000 ms reached");

    // The work in progress is on the todo branch, for the next tick to continue.
    const branch = tick.ask.outputs.branch ?? "";
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    const head = repo.branches.get(branch) ?? "";
    expect(h.sandbox.store.git(repo).readFile(head, "half.txt")).toBe("half\n");
  }, 60_000);
});
