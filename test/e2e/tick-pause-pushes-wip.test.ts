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
 * Scenario: a writer says `/loopx pause` while the tick's slice is at work. As for a stop, the
 * run is cancelled and the lease ends; the slice, interrupted by the cancel's SIGINT, keeps its
 * work tree (unvalidated) and a handoff for the report job, which pushes the work in progress
 * to the todo's branch. Nothing completes, and a resume picks the todo up again.
 */
describe("e2e: pause cancels the running tick and keeps its work", () => {
  let h: TickHarness;
  let signal: SliceSignal;
  let close = async () => {};
  beforeAll(async () => {
    ({ h, signal, close } = await loopingSliceHarness());
  });
  afterAll(() => close());

  it("pushes the work in progress with a handoff; usage is charged as measured", async () => {
    const { goal, issue, run } = await tickAtWork(h, signal);
    const tick = (await h.store.loadGoal(goal.goal.id))?.ticks.find((t) => t.run?.id === run.id);

    await command(h, issue, "/loopx pause");
    const paused = await h.store.loadGoal(goal.goal.id);
    expect(paused?.goal.status).toBe("paused");
    expect(paused?.todos.find((t) => t.key === tick?.todo)?.claim).toBeNull();

    const { run: done, jobs, logs } = await finishRun(h, run.id);
    await h.settle();
    expect(done.conclusion, logs).toBe("cancelled");
    expect(jobs.agent?.conclusion, logs).toBe("cancelled");
    expect(jobs.report?.conclusion, logs).toBe("success");
    expect(jobs.report?.summary).toContain("**Paused:**");
    expect(cancelRequests(h, run.id)).toEqual(["cancel"]);

    // The work in progress is on the todo's branch, for the next tick to continue.
    const branch = `loopx/${issue}-${tick?.todo}`;
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    const head = repo.branches.get(branch) ?? "";
    expect(head, logs).not.toBe("");
    expect(h.sandbox.store.git(repo).readFile(head, "half.txt")).toBe("half\n");

    const after = await h.store.loadGoal(goal.goal.id);
    const charged = after?.ticks.find((t) => t.id === tick?.id);
    expect(charged).toMatchObject({ outcome: "failed", failure: "paused", slotSpent: false });
    expect(charged?.cost).toEqual({ usd: 0, tokens: 0, runnerMinutes: 3 });
    // The handoff says the slice was cut short and where its work is.
    const handoff = after?.handoffs.find((x) => x.tickId === tick?.id);
    expect(handoff?.done).toContain("[interrupted]");
    expect(handoff?.next).toContain("work in progress");
    // Unvalidated work completes nothing.
    expect(after?.todos.find((t) => t.key === tick?.todo)?.status).toBe("ready");
    expect(after?.evidence.filter((e) => e.tickId === tick?.id && e.kind === "test")).toEqual([]);
    expect(after?.evidence.some((e) => e.tickId === tick?.id && e.kind === "commit")).toBe(true);

    // A resume makes the goal due again, and the todo claimable.
    await command(h, issue, "/loopx resume");
    const resumed = await h.store.loadGoal(goal.goal.id);
    expect(resumed?.goal.status).toBe("active");
    expect(resumed?.goal.nextWakeAt).not.toBeNull();
  }, 120_000);
});
