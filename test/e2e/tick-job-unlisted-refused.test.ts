import { AskResponse, ResultResponse } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const CONFIG = `jobs:
  long-tests:
    workflow: long-tests.yml
    inputs:
      suite: { type: choice, options: [unit, e2e], required: true }
`;

/**
 * Scenario: a slice names a job the default branch does not list, or inputs its schema does
 * not allow. The rest of the result stands; that part is refused as evidence that says what
 * was wrong and what would work, and nothing is dispatched.
 */
describe("e2e: a job request the config does not allow", () => {
  let h: TickHarness;
  const dispatched: number[] = [];
  beforeAll(async () => {
    h = await startTickHarness();
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": CONFIG });
    h.sandbox.onDispatch((run) => dispatched.push(run.workflowId));
    await h.settle();
  });
  afterAll(() => h.close());

  const tickWorkflow = () =>
    h.sandbox.workflows("acme/widgets").find((w) => w.path.endsWith("/loopx-tick.yml"))?.id;

  async function report(issue: number, runId: number, job: unknown) {
    const asked = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: issue }, await h.token(runId))).body,
    );
    if (!asked.run) throw new Error(`expected a run, got ${asked.reason}`);
    const reported = await h.post(
      `/api/v1/ticks/${asked.tickId}/result`,
      {
        leaseToken: asked.leaseToken,
        result: {
          todo: asked.todo,
          outcome: "progress",
          handoff: { done: "Half way.", next: "Run the rest.", questions: [] },
          cost: { usd: 0.1, tokens: 1000, runnerMinutes: 1 },
          metering: "proxy",
          job,
        },
      },
      await h.token(runId),
    );
    expect(reported.status).toBe(200);
    return ResultResponse.parse(reported.body);
  }

  it("refuses an unlisted workflow name and a bad input with a reason, dispatching nothing", async () => {
    const docs = await h.startGoal("Deploy the docs", ["Publish the docs site"]);
    const unlisted = await report(docs.goal.issue.number, 7101, { name: "deploy.yml", inputs: {} });
    // The todo does not wait on a job: the loop goes on as after any slice without commits.
    expect(unlisted.next.reason).not.toMatch(/job/);
    const suite = await h.startGoal("Speed up the suite", ["Split the slow tests"]);
    const badInput = await report(suite.goal.issue.number, 7102, {
      name: "long-tests",
      inputs: { suite: "all" },
    });
    expect(badInput.next.reason).not.toMatch(/job/);
    await h.settle();

    const refusals = async (goalId: string) => {
      const state = await h.store.loadGoal(goalId);
      expect(state?.todos.find((t) => t.key === "T1")?.resumeWhen).toBeNull();
      return (state?.evidence ?? [])
        .filter((e) => e.summary.startsWith("job request refused"))
        .map((e) => ({ summary: e.summary, todo: e.todo }));
    };
    expect(await refusals(docs.goal.id)).toEqual([
      {
        summary:
          'job request refused, nothing dispatched: job "deploy.yml" is not listed: the jobs listed in .github/loopx.yml are long-tests',
        todo: "T1",
      },
    ]);
    expect(await refusals(suite.goal.id)).toEqual([
      {
        summary:
          'job request refused, nothing dispatched: input "suite" must be one of "unit", "e2e": job "long-tests" takes suite (choice)',
        todo: "T1",
      },
    ]);
    // Only tick runs were dispatched, never a job's workflow.
    expect(dispatched.length).toBeGreaterThan(0);
    expect(dispatched.every((id) => id === tickWorkflow())).toBe(true);
  });
});
