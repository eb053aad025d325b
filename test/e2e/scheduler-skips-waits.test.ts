import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScheduler, type Scheduler } from "../../app/src/scheduler/create-scheduler.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: the due sweep dispatches a tick only when the goal's decision is a run. A goal
 * that is due by its wake time but backing off (its ask would answer "wait") costs no run;
 * the same goal is dispatched once its decision is a run again.
 */
describe("e2e: the scheduler dispatches no tick it knows is a wait", () => {
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
    const state = await h.store.loadGoal(waiting.goal.id);
    expect(state?.goal.backoff.until?.getTime()).toBeGreaterThan(Date.now());

    expect((await scheduler.tick()).dispatched).toEqual([
      `acme/widgets#${ready.goal.issue.number}`,
    ]);
    h.app.outbox.kick();
    await h.app.outbox.idle();
    const made = dispatchedIssues().slice(before);
    expect(made).toHaveLength(1);
    expect(made[0]).toContain(`"goal":"${ready.goal.issue.number}"`);

    // The window is over: the decision is a run, and the sweep dispatches it.
    await db.execute(
      sql`UPDATE goals SET next_wake_at = now() - interval '4 minutes',
            backoff = jsonb_set(backoff, '{until}', 'null'::jsonb)
          WHERE id = ${waiting.goal.id}`,
    );
    expect((await scheduler.tick()).dispatched).toEqual([
      `acme/widgets#${waiting.goal.issue.number}`,
    ]);
  });
});
