import { AskResponse } from "@loopx/core";
import type { Delivery } from "@loopx/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { on } from "../../app/src/inbox/on.ts";
import { onWorkflowRun, WorkflowRunCompleted } from "../../app/src/scheduler/on-workflow-run.ts";
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

  /** Fails a run in the sandbox and hands its workflow_run.completed webhook to the handler. */
  async function failRun(runId: number, conclusion: string, seq: string) {
    h.sandbox.updateRun(runId, "completed", conclusion);
    await h.sandbox.settle();
    const sent = h.sandbox
      .deliveries()
      .filter((d) => d.event === "workflow_run" && d.action === "completed")
      .at(-1);
    if (!sent) throw new Error("no workflow_run.completed webhook");
    const delivery: Delivery = await recorded(`wr-${seq}`, sent.payload);
    return handler(h.app.deps, delivery);
  }

  async function recorded(deliveryId: string, payload: unknown): Promise<Delivery> {
    await h.store.recordDelivery({
      deliveryId,
      event: "workflow_run",
      action: "completed",
      installationId: null,
      payload,
    });
    const d = await h.store.getDelivery(deliveryId);
    if (!d) throw new Error("delivery not recorded");
    return d;
  }

  it("a run that never reached the API: host_failure evidence once, and the loop backs off", async () => {
    const goal = await h.startGoal("Speed up CI", ["Cache node_modules"]);
    const runId = runs.at(-1);
    if (runId === undefined) throw new Error("the goal dispatched no run");

    expect(await failRun(runId, "startup_failure", "1")).toEqual({ kind: "applied" });
    const state = await h.store.loadGoal(goal.goal.id);
    const failures = state?.evidence.filter((e) => e.kind === "host_failure") ?? [];
    expect(failures).toHaveLength(1);
    expect(failures[0]?.summary).toContain(`run ${runId}`);
    expect(failures[0]?.summary).toContain("startup_failure");
    expect(state?.goal.backoff.stalledTicks).toBe(1);
    // Backed off, not re-dispatched at once into the same failure.
    expect(state?.goal.nextWakeAt?.getTime()).toBeGreaterThan(Date.now());

    // The same failure delivered again (a redelivery under another id) is recorded once.
    const again = await failRun(runId, "startup_failure", "2");
    expect(again.kind).toBe("ignored");
    const after = await h.store.loadGoal(goal.goal.id);
    expect(after?.evidence.filter((e) => e.kind === "host_failure")).toHaveLength(1);
  });

  it("a run that reached the API, a success, or a cancelled run is left alone", async () => {
    const goal = await h.startGoal("Lint everything", ["Enable strict lint"]);
    const runId = runs.at(-1);
    if (runId === undefined) throw new Error("the goal dispatched no run");
    const asked = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: goal.goal.issue.number }, await h.token(runId))).body,
    );
    expect(asked.run).toBe(true);
    expect(await failRun(runId, "failure", "3")).toMatchObject({ kind: "ignored" });

    const other = runs.at(-2);
    if (other === undefined) throw new Error("expected an earlier run");
    expect(await failRun(other, "cancelled", "4")).toMatchObject({ kind: "ignored" });
    expect(await failRun(other, "success", "5")).toMatchObject({ kind: "ignored" });
    const state = await h.store.loadGoal(goal.goal.id);
    expect(state?.evidence.filter((e) => e.kind === "host_failure")).toHaveLength(0);
  });
});
