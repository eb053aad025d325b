import { AskResponse, ResultResponse } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instructingText, onlyAsData } from "../hostile/support/nonce-blocks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const CONFIG = `jobs:
  long-tests:
    workflow: long-tests.yml
    inputs:
      suite:
        type: choice
        options: [unit, e2e]
        required: true
`;

const LONG_TESTS = `name: long tests
run-name: "long tests \${{ inputs.suite }}"
on:
  workflow_dispatch:
    inputs:
      suite:
        required: true
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: echo "suite \${{ inputs.suite }}"
`;

interface Dispatched {
  id: number;
  workflowId: number;
  headBranch: string;
  inputs: Record<string, string>;
}

/**
 * Scenario: a slice hands a listed job to GitHub instead of waiting for it. The App dispatches
 * the job's workflow on the todo's branch; the todo waits, no tick is dispatched and nothing
 * is spent; the run's completion wakes the goal, and the next brief carries its conclusion as
 * data, recorded as evidence observed on GitHub.
 */
describe("e2e: a job that outlives its slice's run", () => {
  let h: TickHarness;
  const runs: Dispatched[] = [];
  beforeAll(async () => {
    h = await startTickHarness({ onPostgres: true });
    h.sandbox.push("acme/widgets", "main", {
      ".github/loopx.yml": CONFIG,
      ".github/workflows/long-tests.yml": LONG_TESTS,
    });
    h.sandbox.onDispatch((run) => runs.push(run));
    await h.settle();
  });
  afterAll(() => h.close());

  const pathOf = (run: Dispatched) =>
    h.sandbox.workflows("acme/widgets").find((w) => w.id === run.workflowId)?.path;
  const ticks = () => runs.filter((r) => pathOf(r) === ".github/workflows/loopx-tick.yml");
  const jobs = () => runs.filter((r) => pathOf(r) === ".github/workflows/long-tests.yml");

  it("dispatches the job on the todo's branch, waits without ticking, and wakes on its completion", async () => {
    const goal = await h.startGoal("Stabilise the e2e suite", ["Run the long e2e suite"]);
    const issue = goal.goal.issue.number;
    const firstTick = ticks().at(-1);
    if (!firstTick) throw new Error("the goal dispatched no tick");
    const asked = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: issue }, await h.token(firstTick.id))).body,
    );
    if (!asked.run) throw new Error(`expected a run, got ${asked.reason}`);
    const branch = `loopx/${issue}-T1`;
    expect(asked.branch).toBe(branch);
    // The slice's work is on its branch (the report job pushed it).
    h.sandbox.push("acme/widgets", branch, { "e2e.txt": "flaky\n" });

    const reported = await h.post(
      `/api/v1/ticks/${asked.tickId}/result`,
      {
        leaseToken: asked.leaseToken,
        result: {
          todo: "T1",
          outcome: "progress",
          handoff: {
            done: "Set up the suite.",
            next: "Read the long run's result.",
            questions: [],
          },
          cost: { usd: 0.2, tokens: 3000, runnerMinutes: 2 },
          metering: "proxy",
          job: { name: "long-tests", inputs: { suite: "e2e" } },
        },
      },
      await h.token(firstTick.id),
    );
    expect(reported.status).toBe(200);
    const accepted = ResultResponse.parse(reported.body);
    expect(accepted.next.route).toBe("wait");
    expect(accepted.next.reason).toContain("T1's job long-tests to finish");
    const ticksBefore = ticks().length;
    await h.settle();

    // One dispatch of the listed workflow, on the todo's branch, with the allowed inputs.
    expect(jobs()).toHaveLength(1);
    const job = jobs()[0];
    if (!job) throw new Error("unreachable");
    expect(job.headBranch).toBe(branch);
    expect(job.inputs).toEqual({ suite: "e2e" });
    const waiting = await h.store.loadGoal(goal.goal.id);
    const t1 = waiting?.todos.find((t) => t.key === "T1");
    expect(t1?.resumeWhen).toMatchObject({ kind: "job", job: "long-tests", runId: job.id });
    // Waiting: no tick dispatched, and one that asks anyway gets no run and spends nothing.
    expect(ticks()).toHaveLength(ticksBefore);
    const idle = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: issue }, await h.token(990_001))).body,
    );
    expect(idle.run).toBe(false);
    const spent = waiting?.ticks.length;

    // A tick run on the same branch is not the job: it wakes nothing.
    h.sandbox.updateRun(firstTick.id, "completed", "success");
    await h.settle();
    expect((await h.store.loadGoal(goal.goal.id))?.todos[0]?.resumeWhen?.kind).toBe("job");

    h.sandbox.updateRun(job.id, "in_progress");
    h.sandbox.updateRun(job.id, "completed", "failure");
    await h.settle();
    const woken = await h.store.loadGoal(goal.goal.id);
    expect(woken?.todos.find((t) => t.key === "T1")?.resumeWhen).toBeNull();
    expect(woken?.ticks.length).toBe(spent);
    const fact = woken?.evidence.find((e) => e.kind === "check" && e.todo === "T1");
    expect(fact?.summary).toBe(
      `job long-tests (long-tests.yml) run ${job.id} concluded failure: long tests e2e`,
    );
    expect(fact?.tickId).toBeNull();
    expect(fact?.url).toMatch(new RegExp(`/actions/runs/${job.id}$`));

    // The completion dispatched the next tick, whose brief carries the conclusion as data.
    expect(ticks().length).toBe(ticksBefore + 1);
    const next = ticks().at(-1);
    if (!next) throw new Error("unreachable");
    const again = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: issue }, await h.token(next.id))).body,
    );
    if (!again.run) throw new Error(`expected a run, got ${again.reason}`);
    expect(again.todo).toBe("T1");
    const said = `run ${job.id} concluded failure`;
    expect(again.briefText).toContain(said);
    expect(onlyAsData(again.briefText, said)).toBe(true);
    expect(instructingText(again.briefText)).not.toContain("long tests e2e");
  });
});
