import { AskResponse } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const CONFIG = `jobs:
  bench:
    workflow: bench.yml
`;

const BENCH = `name: bench
on:
  workflow_dispatch: {}
jobs:
  bench:
    runs-on: ubuntu-latest
    steps:
      - run: echo bench
`;

/**
 * Scenario: GitHub answers the job's dispatch with 204 and no run id (API versions before
 * `return_run_details`, GitHub Enterprise Server). The run is then the job's workflow on the
 * todo's branch, created after the dispatch: a run of that workflow on another branch wakes
 * nothing; the one on the todo's branch wakes the todo.
 */
describe("e2e: a job whose dispatch did not name its run", () => {
  let h: TickHarness;
  const runs: Array<{ id: number; workflowId: number; headBranch: string }> = [];
  beforeAll(async () => {
    h = await startTickHarness();
    h.sandbox.push("acme/widgets", "main", {
      ".github/loopx.yml": CONFIG,
      ".github/workflows/bench.yml": BENCH,
    });
    h.sandbox.onDispatch((run) => runs.push(run));
    await h.settle();
  });
  afterAll(() => h.close());

  it("matches the completed run by workflow, branch and creation time", async () => {
    const goal = await h.startGoal("Make the parser faster", ["Measure the parser"]);
    const issue = goal.goal.issue.number;
    const asked = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: issue }, await h.token(8101))).body,
    );
    if (!asked.run) throw new Error(`expected a run, got ${asked.reason}`);
    h.sandbox.push("acme/widgets", asked.branch, { "bench.txt": "x\n" });
    h.sandbox.faults.dispatchRunDetails = false;
    const reported = await h.post(
      `/api/v1/ticks/${asked.tickId}/result`,
      {
        leaseToken: asked.leaseToken,
        result: {
          todo: "T1",
          outcome: "progress",
          handoff: { done: "Wrote the bench.", next: "Read its numbers.", questions: [] },
          cost: { usd: 0.1, tokens: 1000, runnerMinutes: 1 },
          metering: "proxy",
          job: { name: "bench" },
        },
      },
      await h.token(8101),
    );
    expect(reported.status).toBe(200);
    await h.settle();
    const bench = h.sandbox.workflows("acme/widgets").find((w) => w.path.endsWith("/bench.yml"));
    const job = runs.find((r) => r.workflowId === bench?.id);
    if (!job) throw new Error("the job was not dispatched");
    expect(job.headBranch).toBe(asked.branch);
    const waiting = await h.store.loadGoal(goal.goal.id);
    expect(waiting?.todos[0]?.resumeWhen).toMatchObject({ kind: "job", runId: null });

    // The same workflow dispatched by a person on main is not the todo's job.
    await h
      .as("alice")
      .request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", {
        owner: "acme",
        repo: "widgets",
        workflow_id: "bench.yml",
        ref: "main",
      });
    const other = runs.at(-1);
    if (other?.headBranch !== "main") throw new Error("expected a run on main");
    h.sandbox.updateRun(other.id, "completed", "success");
    await h.settle();
    expect((await h.store.loadGoal(goal.goal.id))?.todos[0]?.resumeWhen?.kind).toBe("job");

    h.sandbox.updateRun(job.id, "completed", "success");
    await h.settle();
    const woken = await h.store.loadGoal(goal.goal.id);
    expect(woken?.todos[0]?.resumeWhen).toBeNull();
    expect(woken?.evidence.at(-1)?.summary).toBe(
      `job bench (bench.yml) run ${job.id} concluded success: bench`,
    );
  });
});
