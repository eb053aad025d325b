import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: the App knows which run each of its dispatches started — from GitHub's answer on
 * github.com (return_run_details), by the dispatch's nonce in the run's name where GitHub
 * answers 204 (GHES) — and a caller that predates the nonce is refused with what to do.
 */
describe("e2e: a dispatch knows its run", () => {
  let h: TickHarness;
  const logged: string[] = [];
  beforeAll(async () => {
    const log = (m: string) => logged.push(m);
    h = await startTickHarness({ log: { info: () => {}, warn: log, error: log } });
  });
  afterAll(() => h.close());

  const requests = (operationId: string, from: number) =>
    h.sandbox
      .requests()
      .slice(from)
      .filter((r) => r.operationId === operationId);
  const runsFor = (issue: number) =>
    [...h.sandbox.store.workflowRuns.values()].filter((r) => r.inputs.goal === String(issue));

  it("github.com: the dispatch answers the run's id, and nothing is listed", async () => {
    const from = h.sandbox.requests().length;
    const goal = await h.startGoal("Cache the index");
    const [run] = runsFor(goal.goal.issue.number);
    if (!run) throw new Error("the App dispatched no run");
    const [dispatch] = requests("actions/create-workflow-dispatch", from);
    expect(dispatch?.status).toBe(200);
    expect(dispatch?.body).toMatchObject({
      ref: "main",
      return_run_details: true,
      inputs: { goal: String(goal.goal.issue.number), nonce: run.inputs.nonce },
    });
    expect(requests("actions/list-workflow-runs", from)).toEqual([]);
    expect(await h.store.goalOfDispatchedRun(run.id)).toBe(goal.goal.id);
  });

  it("GHES: a 204 dispatch is found by its nonce among other runs of the workflow", async () => {
    h.sandbox.faults.dispatchRunDetails = false;
    const first = await h.startGoal("Trim the logs");
    const second = await h.startGoal("Shrink the bundle");
    const from = h.sandbox.requests().length;
    for (const goal of [first, second]) {
      const runs = runsFor(goal.goal.issue.number);
      expect(runs).toHaveLength(1);
      const run = runs[0];
      if (!run) throw new Error("no run");
      // The run's name is what the lookup matched on: the goal and this dispatch's nonce.
      expect(run.displayTitle).toBe(`LoopX tick #${goal.goal.issue.number} ${run.inputs.nonce}`);
      expect(await h.store.goalOfDispatchedRun(run.id)).toBe(goal.goal.id);
    }
    expect(requests("actions/create-workflow-dispatch", from)).toEqual([]);
    const dispatches = h.sandbox
      .requests()
      .filter((r) => r.operationId === "actions/create-workflow-dispatch")
      .slice(-2);
    expect(dispatches.map((d) => d.status)).toEqual([204, 204]);
    expect(
      h.sandbox.requests().filter((r) => r.operationId === "actions/list-workflow-runs").length,
    ).toBeGreaterThanOrEqual(2);
    h.sandbox.faults.dispatchRunDetails = true;
  });

  it("a tick workflow without the nonce input: GitHub's 422, and the log says which caller to copy", async () => {
    h.sandbox.push("acme/widgets", "main", {
      ".github/workflows/loopx-tick.yml": [
        "name: old caller",
        "on:",
        "  workflow_dispatch:",
        "    inputs:",
        "      goal: { required: true }",
        "jobs:",
        "  tick:",
        "    runs-on: ubuntu-latest",
        "    steps: [{ run: echo old }]",
        "",
      ].join("\n"),
    });
    const from = h.sandbox.requests().length;
    const goal = await h.startGoal("Bump the deps");
    const refused = requests("actions/create-workflow-dispatch", from);
    expect(refused.map((r) => r.status)).toContain(422);
    expect(runsFor(goal.goal.issue.number)).toEqual([]);
    expect(logged.join("\n")).toContain(
      "Unexpected inputs provided: [\"nonce\"]): the repository's loopx-tick.yml does not declare the documented caller's inputs (goal, slot, nonce); replace it with the caller in docs/workflows.md",
    );
  });
});
