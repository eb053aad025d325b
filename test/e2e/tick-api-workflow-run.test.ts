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
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/** Scenario: a tick run dies before reaching the API; the goal records it and backs off. */
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
      await dbOf(h.store).execute(
        sql`UPDATE goals SET next_wake_at = now() - interval '1 second',
                             backoff = jsonb_set(backoff, '{until}', to_jsonb(now() - interval '1 second'))
             WHERE id = ${goal.goal.id}`,
      );
      expect((await scheduler.tick()).dispatched).toEqual([
        `acme/widgets#${goal.goal.issue.number}`,
      ]);
    } finally {
      await scheduler.stop();
    }
  });

  it("a run that reached the API, a success, or a cancelled run is left alone", async () => {
    const goal = await h.startGoal("Lint everything", ["Enable strict lint"]);
    const runId = runs.at(-1);
    if (runId === undefined) throw new Error("the goal dispatched no run");
    const asked = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: goal.goal.issue.number }, await h.token(runId))).body,
    );
    expect(asked.run).toBe(true);
    expect(await completeRun(runId, "failure")).toMatch(/^ignored/);

    const other = runs.at(-2);
    if (other === undefined) throw new Error("expected an earlier run");
    expect(await completeRun(other, "cancelled")).toMatch(/^ignored/);
    expect(await completeRun(other, "success")).toMatch(/^ignored/);
    const state = await h.store.loadGoal(goal.goal.id);
    expect(state?.evidence.filter((e) => e.kind === "host_failure")).toHaveLength(0);
  });
});
