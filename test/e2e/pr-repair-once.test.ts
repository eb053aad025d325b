import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcilePulls } from "../../app/src/pulls/monitor-pull.ts";
import { openPulls, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: the App opens a tick's PR → the sandbox's CI fails it → ONE repair todo, at the
 * top of the queue, with the failing check and its link as evidence — however many times the
 * failure is announced (check_run, check_suite, a duplicated delivery, the reconcile backstop).
 */
describe("e2e: a failing check makes one repair todo", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("the same failure announced three ways makes one repair todo, run first", async () => {
    h.sandbox.ci.checks = ["unit"];
    h.sandbox.ci.rule = () => "failure";
    h.sandbox.faults.webhook({ mode: "duplicate", event: "check_run.completed", times: 1 });
    const goal = await h.startGoal("Speed up rendering", ["Cache layout", "Document it"]);
    const issue = goal.goal.issue.number;

    const tick = await playTick(h, issue, { "src/layout.ts": "broken\n" }, { complete: true });
    await h.sandbox.idle();
    await h.settle();
    const pr = (await openPulls(h)).find((p) => p.head.ref === tick.branch);
    if (!pr) throw new Error("no PR was opened");
    // The backstop reads the same PR again: still the same failure on the same head.
    expect(await reconcilePulls(h.app.deps, [goal.goal.id])).toBe(0);
    await h.settle();

    const state = await h.store.loadGoal(goal.goal.id);
    const repairs = state?.todos.filter((t) => t.kind === "repair") ?? [];
    expect(repairs.map((t) => [t.title, t.origin, t.status])).toEqual([
      [`Fix failing checks on #${pr.number}: unit`, "pr-monitor", "ready"],
    ]);
    expect(repairs[0]?.detail).toContain("unit: failed (http");
    const evidence = state?.evidence.filter((e) => e.kind === "check") ?? [];
    expect(evidence).toHaveLength(1);
    expect(evidence[0]?.summary).toBe(`unit failed on #${pr.number} at ${tick.sha.slice(0, 12)}`);
    expect(evidence[0]?.url).toMatch(/^http/);
    expect(state?.pullRequests[0]?.monitor.repairAttempts).toBe(1);

    // Repair runs before every task (decide's priority), so the next tick claims it.
    const next = await h.post("/api/v1/ticks", { goal: issue }, await h.token(9901));
    expect(next.body).toMatchObject({ run: true, todo: repairs[0]?.key });
  }, 120_000);
});
