import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";
import {
  dispatchedRuns,
  dispatchOneTick,
  finishRun,
  useTickWorkflow,
} from "../support/tick-workflow-runs.ts";

const LONG_TESTS = `name: long tests
on:
  workflow_dispatch:
    inputs:
      suite:
        required: true
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: echo "long suite"
`;

/** The agent writes the suite, then hands running it to the listed job. */
const SLICE = [
  "echo 'e2e suite' > SUITE.md",
  `printf '%s' '{"outcome":"progress","handoff":{"done":"Wrote the suite","next":"Read the long run"},"job":{"name":"long-tests","inputs":{"suite":"e2e"}}}' > "$LOOPX_RESULT"`,
].join(" && ");

/**
 * Scenario, through the real action: a slice's result file names a listed job; the report
 * job pushes the todo's branch, the App dispatches the job there and the todo waits; the run's
 * completion wakes the goal with its conclusion as evidence.
 */
describe("e2e: the real action hands a listed job to GitHub", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    useTickWorkflow(h, {
      config: [
        "harness:",
        "  default: shell",
        "jobs:",
        "  long-tests:",
        "    workflow: long-tests.yml",
        "    inputs:",
        "      suite: { type: choice, options: [unit, e2e], required: true }",
        "",
      ].join("\n"),
      vars: { LOOPX_SHELL_COMMAND: SLICE },
    });
    h.sandbox.push("acme/widgets", "main", { ".github/workflows/long-tests.yml": LONG_TESTS });
  });
  afterAll(() => h.close());

  it("dispatches the job on the pushed todo branch and resumes on its completion", async () => {
    const goal = await h.startGoal("Harden the e2e suite", ["Write and run the e2e suite"]);
    const issue = goal.goal.issue.number;
    const branch = `loopx/${issue}-T1`;
    const run = await dispatchOneTick(h, issue);
    const { run: done, logs } = await finishRun(h, run.id);
    expect(done.conclusion, logs).toBe("success");

    const workflowOf = (id: number) =>
      h.sandbox.workflows("acme/widgets").find((w) => w.id === id)?.path;
    const jobRun = async () => {
      // The push lands after the result: the dispatch may wait for the branch once.
      for (let i = 0; i < 200; i++) {
        await h.settle();
        const found = dispatchedRuns(h).find(
          (r) => workflowOf(r.workflowId) === ".github/workflows/long-tests.yml",
        );
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error("the job was never dispatched");
    };
    const job = await jobRun();
    expect(job.headBranch).toBe(branch);
    expect(job.inputs).toEqual({ suite: "e2e" });
    const repo = h.sandbox.store.repoByName("acme", "widgets");
    expect(h.sandbox.store.git(repo).readFile(job.headSha, "SUITE.md")).toBe("e2e suite\n");

    const waiting = await h.store.loadGoal(goal.goal.id);
    expect(waiting?.todos[0]?.resumeWhen).toMatchObject({ kind: "job", runId: job.id });
    const ticksWhileWaiting = dispatchedRuns(h).filter(
      (r) => workflowOf(r.workflowId) === ".github/workflows/loopx-tick.yml",
    ).length;

    h.sandbox.updateRun(job.id, "completed", "success");
    await h.settle();
    const woken = await h.store.loadGoal(goal.goal.id);
    expect(woken?.todos[0]?.resumeWhen).toBeNull();
    expect(woken?.evidence.at(-1)?.summary).toBe(
      `job long-tests (long-tests.yml) run ${job.id} concluded success: long tests`,
    );
    const ticksAfter = dispatchedRuns(h).filter(
      (r) => workflowOf(r.workflowId) === ".github/workflows/loopx-tick.yml",
    ).length;
    expect(ticksAfter).toBe(ticksWhileWaiting + 1);
  }, 120_000);
});
