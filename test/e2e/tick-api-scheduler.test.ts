import { AskResponse } from "@loopx/core";
import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScheduler, type Scheduler } from "../../app/src/scheduler/create-scheduler.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: the app's own wake loop dispatches due goals once, never a tick whose decision is
 * a wait (a goal due by its wake time but backing off), and sweeps dead leases.
 */
describe("e2e: the wake scheduler", () => {
  let h: TickHarness;
  let scheduler: Scheduler;
  beforeAll(async () => {
    h = await startTickHarness();
    scheduler = createScheduler(h.app.deps, { graceMs: 60_000 });
  });
  afterAll(async () => {
    await scheduler.stop();
    await h.close();
  });

  /** The goal's last dispatch is 20 minutes old: past the 15 minutes its run had to ask. */
  const ageDispatch = (goalId: string) =>
    dbOf(h.store).execute(
      sql`UPDATE tick_dispatches SET dispatched_at = now() - interval '20 minutes' WHERE goal_id = ${goalId}`,
    );
  const dispatches = () =>
    h.sandbox.requests().filter((r) => r.operationId === "actions/create-workflow-dispatch").length;

  it("leaves a freshly due goal to its own dispatch, then dispatches an overdue one exactly once", async () => {
    const goal = await h.startGoal("Add caching", ["Cache the index"]);
    const issue = goal.goal.issue.number;
    const afterStart = dispatches();
    expect(afterStart).toBeGreaterThanOrEqual(1);
    // Just became due: the label's transition dispatched it through the outbox already.
    expect((await scheduler.tick()).dispatched).toEqual([]);

    // A wake that moved while the label's run has not asked yet needs no second run: that run
    // will see it.
    await dbOf(h.store).execute(
      sql`UPDATE goals SET next_wake_at = now() - interval '5 minutes' WHERE id = ${goal.goal.id}`,
    );
    expect((await scheduler.tick()).dispatched).toEqual([]);
    // Overdue: the label's dispatch is 20 minutes old and no tick ever claimed (its run never
    // started, or it answered "wait").
    await ageDispatch(goal.goal.id);
    expect((await scheduler.tick()).dispatched).toEqual([`acme/widgets#${issue}`]);
    // A second replica (or pass) finds the wake instant taken.
    const other = createScheduler(h.app.deps, { graceMs: 60_000 });
    expect((await other.tick()).dispatched).toEqual([]);
    expect((await scheduler.tick()).dispatched).toEqual([]);
    // The scheduler queues the dispatch; the outbox writes it.
    h.app.outbox.kick();
    await h.app.outbox.idle();
    expect(dispatches()).toBe(afterStart + 1);
    const last = h.sandbox
      .requests()
      .filter((r) => r.operationId === "actions/create-workflow-dispatch")
      .at(-1);
    expect(last?.body).toMatchObject({ ref: "main", inputs: { goal: String(issue) } });
  });

  it("a wake its own transition already dispatched is not dispatched again after the grace", async () => {
    const goal = await h.startGoal("Trim the logs", ["Drop debug lines"]);
    const before = dispatches();
    // No grace at all: only the outbox's record of its dispatch keeps the scheduler off it.
    const eager = createScheduler(h.app.deps, { graceMs: 0 });
    expect((await eager.tick()).dispatched).not.toContain(`acme/widgets#${goal.goal.issue.number}`);
    expect(dispatches()).toBe(before);
  });

  it("sweeps an expired lease: host_failure evidence, the cap charged, todo ready, backoff grown", async () => {
    const goal = await h.startGoal("Shrink the bundle", ["Drop moment.js"]);
    const issue = goal.goal.issue.number;
    const claim = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: issue }, await h.token(4101))).body,
    );
    if (!claim.run) throw new Error("expected a run");
    expect((await scheduler.tick()).expired).toBe(0);
    await dbOf(h.store).execute(
      sql`UPDATE ticks SET lease_expires_at = now() - interval '1 minute' WHERE id = ${claim.tickId}`,
    );
    expect((await scheduler.tick()).expired).toBe(1);
    const state = await h.store.loadGoal(goal.goal.id);
    const tick = state?.ticks.find((t) => t.id === claim.tickId);
    expect(tick?.failure).toBe("lease_expired");
    expect(tick?.cost).toEqual(state?.goal.tickCap);
    expect(state?.evidence.filter((e) => e.kind === "host_failure")).toHaveLength(1);
    expect(state?.todos.find((t) => t.key === "T1")).toMatchObject({
      status: "ready",
      claim: null,
    });
    expect(state?.goal.backoff.stalledTicks).toBe(1);
    expect(state?.goal.nextWakeAt?.getTime()).toBeGreaterThan(Date.now());
    expect((await scheduler.tick()).expired).toBe(0);
  });

  const dispatchedIssues = () =>
    h.sandbox
      .requests()
      .filter((r) => r.operationId === "actions/create-workflow-dispatch" && r.status < 300)
      .map((r) => JSON.stringify(r.body));

  it("a backing-off goal gets no dispatch beside one that runs; it runs once the window ends", async () => {
    const waiting = await h.startGoal("Add caching", ["Cache the index"]);
    const ready = await h.startGoal("Trim the logs", ["Drop debug lines"]);
    h.app.outbox.kick();
    await h.app.outbox.idle();
    const before = dispatchedIssues().length;
    const db = dbOf(h.store);
    await db.execute(
      sql`UPDATE goals SET next_wake_at = now() - interval '5 minutes',
            backoff = jsonb_set(backoff, '{until}', to_jsonb(to_char((now() + interval '1 hour') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
          WHERE id = ${waiting.goal.id}`,
    );
    await db.execute(
      sql`UPDATE goals SET next_wake_at = now() - interval '5 minutes' WHERE id = ${ready.goal.id}`,
    );
    // Both labels' runs had their look long ago.
    await ageDispatch(waiting.goal.id);
    await ageDispatch(ready.goal.id);
    const state = await h.store.loadGoal(waiting.goal.id);
    expect(state?.goal.backoff.until?.getTime()).toBeGreaterThan(Date.now());

    // Other goals of this file may be due as well: only these two are looked at.
    const swept = (await scheduler.tick()).dispatched;
    expect(swept).toContain(`acme/widgets#${ready.goal.issue.number}`);
    expect(swept).not.toContain(`acme/widgets#${waiting.goal.issue.number}`);
    h.app.outbox.kick();
    await h.app.outbox.idle();
    const made = dispatchedIssues().slice(before);
    expect(made.filter((b) => b.includes(`"goal":"${ready.goal.issue.number}"`))).toHaveLength(1);
    expect(made.filter((b) => b.includes(`"goal":"${waiting.goal.issue.number}"`))).toEqual([]);

    // The window is over: the decision is a run, and the sweep dispatches it.
    await db.execute(
      sql`UPDATE goals SET next_wake_at = now() - interval '4 minutes',
            backoff = jsonb_set(backoff, '{until}', 'null'::jsonb)
          WHERE id = ${waiting.goal.id}`,
    );
    expect((await scheduler.tick()).dispatched).toContain(
      `acme/widgets#${waiting.goal.issue.number}`,
    );
  });
});
