import { AskResponse } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const CONFIG = `jobs:
  nightly:
    workflow: nightly.yml
`;

// Listed, but only scheduled: GitHub dispatches no workflow without the trigger.
const NIGHTLY = `name: nightly
on:
  schedule:
    - cron: "0 3 * * *"
jobs:
  a:
    runs-on: ubuntu-latest
    steps:
      - run: true
`;

/**
 * Scenario: the config lists a job whose workflow GitHub will not dispatch. The todo does not
 * wait for a run that never comes: GitHub's answer becomes evidence and the loop goes on.
 */
describe("e2e: a listed job GitHub refuses to dispatch", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    h.sandbox.push("acme/widgets", "main", {
      ".github/loopx.yml": CONFIG,
      ".github/workflows/nightly.yml": NIGHTLY,
    });
    await h.settle();
  });
  afterAll(() => h.close());

  it("ends the wait with GitHub's 422 as evidence", async () => {
    const goal = await h.startGoal("Check the nightly", ["Run the nightly now"]);
    const asked = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: goal.goal.issue.number }, await h.token(8201))).body,
    );
    if (!asked.run) throw new Error(`expected a run, got ${asked.reason}`);
    h.sandbox.push("acme/widgets", asked.branch, { "n.txt": "n\n" });
    const reported = await h.post(
      `/api/v1/ticks/${asked.tickId}/result`,
      {
        leaseToken: asked.leaseToken,
        result: {
          todo: "T1",
          outcome: "progress",
          handoff: { done: "Prepared.", next: "Read the nightly.", questions: [] },
          cost: { usd: 0.1, tokens: 1000, runnerMinutes: 1 },
          metering: "proxy",
          job: { name: "nightly" },
        },
      },
      await h.token(8201),
    );
    expect(reported.status).toBe(200);
    await h.settle();
    const state = await h.store.loadGoal(goal.goal.id);
    expect(state?.todos[0]?.resumeWhen).toBeNull();
    expect(state?.evidence.at(-1)?.summary).toBe(
      `GitHub refused to dispatch job nightly (nightly.yml) on ${asked.branch}: Workflow does not have 'workflow_dispatch' trigger`,
    );
  });
});
