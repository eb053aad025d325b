import { AskResponse } from "@loopx/core";
import type { Delivery } from "@loopx/store";
import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScheduler } from "../../app/src/scheduler/create-scheduler.ts";
import { on } from "../../app/src/webhooks/on.ts";
import type { Outcome } from "../../app/src/webhooks/outcome.ts";
import {
  onWorkflowRun,
  WorkflowRunCompleted,
} from "../../app/src/workflow-runs/on-workflow-run.ts";
import {
  allowUnknownRun,
  startTickHarness,
  type TickHarness,
} from "../support/tick-api-harness.ts";

/**
 * Scenario: a tick run dies before reaching the API, and the goal records it and backs off; a
 * run dies after its claim and before its report, and its todo is free at once.
 */
describe("e2e: workflow_run watching", () => {
  let h: TickHarness;
  const runs: number[] = [];
  const handler = on(WorkflowRunCompleted, onWorkflowRun);
  beforeAll(async () => {
    h = await startTickHarness();
    h.sandbox.onDispatch((run) => runs.push(run.id));
  });
  afterAll(() => h.close());

  /**
   * Completes a run in the sandbox; its signed `workflow_run.completed` webhook goes through
   * the app's inbox like any other. Returns how the app dealt with that delivery.
   */
  async function completeRun(runId: number, conclusion: string): Promise<string | null> {
    h.sandbox.updateRun(runId, "completed", conclusion);
    await h.settle();
    const sent = h.sandbox
      .deliveries()
      .filter((d) => d.event === "workflow_run" && d.action === "completed")
      .at(-1);
    if (!sent) throw new Error("no workflow_run.completed webhook");
    return (await h.store.getDelivery(sent.guid))?.outcome ?? null;
  }

  /** The goal's backoff ends now, as its wait would have on the database clock. */
  async function backoffOver(goalId: string): Promise<void> {
    await dbOf(h.store).execute(
      sql`UPDATE goals SET next_wake_at = now() - interval '1 second',
                           backoff = jsonb_set(backoff, '{until}', to_jsonb(now() - interval '1 second'))
           WHERE id = ${goalId}`,
    );
  }

  /** The same webhook again under another delivery id (GitHub's redelivery or a reconcile). */
  async function redeliver(seq: string): Promise<Outcome> {
    const sent = h.sandbox
      .deliveries()
      .filter((d) => d.event === "workflow_run" && d.action === "completed")
      .at(-1);
    if (!sent) throw new Error("no workflow_run.completed webhook");
    const deliveryId = `redelivered-${seq}`;
    await h.store.recordDelivery({
      deliveryId,
      event: "workflow_run",
      action: "completed",
      installationId: null,
      payload: sent.payload,
    });
    const delivery: Delivery | null = await h.store.getDelivery(deliveryId);
    if (!delivery) throw new Error("delivery not recorded");
    return handler(h.app.deps, delivery);
  }

  it("a run that never reached the API: host_failure evidence once, and the loop backs off", async () => {
    const goal = await h.startGoal("Speed up CI", ["Cache node_modules"]);
    const runId = runs.at(-1);
    if (runId === undefined) throw new Error("the goal dispatched no run");

    expect(await completeRun(runId, "startup_failure")).toBe("applied");
    const state = await h.store.loadGoal(goal.goal.id);
    const failures = state?.evidence.filter((e) => e.kind === "host_failure") ?? [];
    expect(failures).toHaveLength(1);
    expect(failures[0]?.summary).toContain(`run ${runId}`);
    expect(failures[0]?.summary).toContain("startup_failure");
    expect(state?.goal.backoff.stalledTicks).toBe(1);
    // Backed off, not re-dispatched at once into the same failure.
    expect(state?.goal.nextWakeAt?.getTime()).toBeGreaterThan(Date.now());

    // The same failure delivered again (a redelivery under another id) is recorded once.
    const again = await redeliver("1");
    expect(again.kind).toBe("ignored");
    const after = await h.store.loadGoal(goal.goal.id);
    expect(after?.evidence.filter((e) => e.kind === "host_failure")).toHaveLength(1);
  });

  it("once the backoff after a run that never asked ends, the goal runs again at once", async () => {
    const goal = await h.startGoal("Speed up tests", ["Split the suite"]);
    const failedRun = runs.at(-1);
    if (failedRun === undefined) throw new Error("the goal dispatched no run");
    expect(await completeRun(failedRun, "failure")).toBe("applied");
    const scheduler = createScheduler(h.app.deps, { graceMs: 0 });
    try {
      // Still backing off: nothing is due.
      expect((await scheduler.tick()).dispatched).toEqual([]);
      // The backoff's wait is over, well inside the quiet interval a run that may still ask
      // is given: this run ended, so it holds nothing back.
      await backoffOver(goal.goal.id);
      expect((await scheduler.tick()).dispatched).toEqual([
        `acme/widgets#${goal.goal.issue.number}`,
      ]);
    } finally {
      await scheduler.stop();
    }
  });

  it("a run that claimed a todo and ended before its report frees the todo at once", async () => {
    const goal = await h.startGoal("Lint everything", ["Enable strict lint"]);
    const runId = runs.at(-1);
    if (runId === undefined) throw new Error("the goal dispatched no run");
    const asked = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: goal.goal.issue.number }, await h.token(runId))).body,
    );
    if (!asked.run) throw new Error("expected a claim");
    const leaseEnds = new Date(asked.leaseExpiresAt).getTime();
    // Its report job's runner is lost: GitHub fails the run, and nothing else will report.
    expect(await completeRun(runId, "failure")).toBe("applied");
    const state = await h.store.loadGoal(goal.goal.id);
    const tick = state?.ticks.find((t) => t.run?.id === runId);
    expect(tick).toMatchObject({ outcome: "failed", failure: "host_failure" });
    expect(tick?.finishedAt?.getTime()).toBeLessThan(leaseEnds);
    expect(state?.todos[0]?.claim).toBeNull();
    expect(state?.evidence.filter((e) => e.kind === "host_failure")).toEqual([
      expect.objectContaining({ summary: expect.stringContaining(`run ${runId} ended failure`) }),
    ]);
    // Told again, it ends nothing more.
    expect((await redeliver("2")).kind).toBe("ignored");

    // The next run claims the todo once the backoff is over, long before the lease would end.
    await backoffOver(goal.goal.id);
    const next = runId + 100_000;
    allowUnknownRun(h.sandbox, next);
    const again = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: goal.goal.issue.number }, await h.token(next))).body,
    );
    expect(again).toMatchObject({ run: true, todo: asked.todo });
  });

  it("a run that reported, a success, or a cancelled run that never asked is left alone", async () => {
    const goal = await h.startGoal("Format everything", ["Run the formatter"]);
    const runId = runs.at(-1);
    if (runId === undefined) throw new Error("the goal dispatched no run");
    const asked = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: goal.goal.issue.number }, await h.token(runId))).body,
    );
    if (!asked.run) throw new Error("expected a claim");
    const reported = await h.post(
      `/api/v1/ticks/${asked.tickId}/result`,
      {
        leaseToken: asked.leaseToken,
        result: {
          todo: asked.todo,
          outcome: "no_change",
          validation: null,
          commits: [],
          handoff: { done: "Looked.", next: "", questions: [] },
          cost: { usd: 0.1, tokens: 100, runnerMinutes: 1 },
        },
      },
      await h.token(runId),
    );
    expect(reported.status).toBe(200);
    // A later job of the run failed after the report: the tick had already ended.
    expect(await completeRun(runId, "failure")).toMatch(/^ignored/);

    const other = runs.at(-2);
    if (other === undefined) throw new Error("expected an earlier run");
    expect(await completeRun(other, "cancelled")).toMatch(/^ignored/);
    expect(await completeRun(other, "success")).toMatch(/^ignored/);
    const state = await h.store.loadGoal(goal.goal.id);
    expect(state?.evidence.filter((e) => e.kind === "host_failure")).toHaveLength(0);
  });
});
