import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cancelRequests,
  command,
  loopingSliceHarness,
  type SliceSignal,
  tickAtWork,
} from "../support/interrupted-slices.ts";
import type { TickHarness } from "../support/tick-api-harness.ts";
import { finishRun } from "../support/tick-workflow-runs.ts";

/**
 * Scenario: a writer says `/loopx stop` while the tick's slice is at work. The App ends the
 * lease and cancels the run (committed with the stop, sent by the outbox); the runner SIGINTs
 * the agent step, the slice stops, its result is still uploaded (`always()`), and the report
 * job (`always()`) hears "stopped": nothing is pushed, and what was measured is charged.
 */
describe("e2e: stop cancels the tick that is running", () => {
  let h: TickHarness;
  let signal: SliceSignal;
  let close = async () => {};
  beforeAll(async () => {
    ({ h, signal, close } = await loopingSliceHarness());
  });
  afterAll(() => close());

  it("cancels the run once; the report is answered stopped, nothing is pushed, the measured usage is charged", async () => {
    const { goal, issue, run } = await tickAtWork(h, signal);
    const claimed = await h.store.loadGoal(goal.goal.id);
    const tick = claimed?.ticks.find((t) => t.run?.id === run.id);
    expect(tick?.finishedAt).toBeNull();

    await command(h, issue, "/loopx stop");
    const stopped = await h.store.loadGoal(goal.goal.id);
    expect(stopped?.goal.status).toBe("stopped");
    // The lease ended with the stop, before the run did.
    expect(stopped?.todos.find((t) => t.key === tick?.todo)?.claim).toBeNull();

    const { run: done, jobs, logs } = await finishRun(h, run.id);
    await h.settle();
    expect(done.conclusion, logs).toBe("cancelled");
    expect(jobs.ask?.conclusion).toBe("success");
    expect(jobs.agent?.conclusion, logs).toBe("cancelled");
    expect(jobs.report?.conclusion, logs).toBe("success");
    expect(jobs.report?.summary).toContain("**Stopped:**");
    expect(jobs.report?.summary).toContain("**Next:** stopped");
    expect(cancelRequests(h, run.id)).toEqual(["cancel"]);

    // Nothing pushed: the todo's branch was never made.
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    expect([...repo.branches.keys()]).toEqual(["main"]);

    const after = await h.store.loadGoal(goal.goal.id);
    const charged = after?.ticks.find((t) => t.id === tick?.id);
    expect(charged).toMatchObject({ outcome: "failed", failure: "stopped", slotSpent: false });
    // Measured, not the cap: the shell slice used no model, and the runner minutes are the
    // jobs API's, one started minute per job (ask, agent, report), as GitHub bills.
    expect(charged?.cost).toEqual({ usd: 0, tokens: 0, runnerMinutes: 3 });
    expect(after?.goal.spent).toMatchObject({ usd: 0, tokens: 0, runnerMinutes: 3, ticks: 1 });
    // Nothing the slice did is recorded: no handoff, no commit evidence.
    expect(after?.handoffs.filter((x) => x.tickId === tick?.id)).toEqual([]);
    expect(after?.evidence.filter((e) => e.tickId === tick?.id)).toEqual([]);
    // A stopped goal dispatches no further tick.
    const dispatched = [...h.sandbox.store.workflowRuns.values()].filter(
      (r) => r.event === "workflow_dispatch" && r.id !== run.id && r.createdAt > done.createdAt,
    );
    expect(dispatched).toEqual([]);
  }, 120_000);
});
