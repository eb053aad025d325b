import { ApiError, AskResponse, PushedResponse, ResultResponse } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: the report job refuses to push the agent's branch (it changes `.github/` and no gate
 * approved `write:.github`) and tells the App so: the goal keeps the refusal as evidence and
 * never records the head as pushed.
 */
describe("e2e: a refused push is reported to the App", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("records the refusal once, pinned to the head, and no pushed commit", async () => {
    const goal = await h.startGoal("Tune CI", ["Speed up the test job"]);
    const issue = goal.goal.issue.number;
    const claim = AskResponse.parse(
      (await h.post("/api/v1/ticks", { goal: issue }, await h.token(4101))).body,
    );
    if (!claim.run) throw new Error(`expected a run, got ${claim.reason}`);
    const sha = "c".repeat(40);
    const reported = await h.post(
      `/api/v1/ticks/${claim.tickId}/result`,
      {
        leaseToken: claim.leaseToken,
        result: {
          todo: claim.todo,
          outcome: "progress",
          validation: { command: "npm test", exitCode: 0, passed: true },
          commits: [{ sha, message: "Cache node_modules in CI" }],
          handoff: { done: "Edited the CI workflow.", next: "Measure.", questions: [] },
          cost: { usd: 0.1, tokens: 100, runnerMinutes: 1 },
        },
      },
      await h.token(4101),
    );
    const grant = ResultResponse.parse(reported.body).push;
    expect(grant?.allowWorkflowPaths).toBe(false);

    const refused = {
      leaseToken: claim.leaseToken,
      branch: claim.branch,
      refused: {
        reason: "its commits change .github/ and no gate approved write:.github",
        headSha: sha,
        paths: [".github/workflows/ci.yml"],
      },
    };
    const requests = h.sandbox.requests().length;
    const first = await h.post(
      `/api/v1/ticks/${claim.tickId}/pushed`,
      refused,
      await h.token(4101),
    );
    expect(first.status).toBe(200);
    expect(PushedResponse.parse(first.body)).toEqual({ recorded: true });
    const again = await h.post(
      `/api/v1/ticks/${claim.tickId}/pushed`,
      refused,
      await h.token(4101),
    );
    expect(PushedResponse.parse(again.body)).toEqual({ recorded: false });
    // A body claiming both a pushed head and a refusal is no request at all.
    const both = await h.post(
      `/api/v1/ticks/${claim.tickId}/pushed`,
      { ...refused, headSha: sha },
      await h.token(4101),
    );
    expect(both.status).toBe(400);
    expect(ApiError.parse(both.body).error).toBe("invalid_request");

    const state = await h.store.loadGoal(goal.goal.id);
    const kept = state?.evidence.filter((e) => e.summary.startsWith("push refused: ")) ?? [];
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ kind: "log", sha, todo: claim.todo });
    expect(kept[0]?.summary).toContain(`${claim.branch} at ${sha.slice(0, 7)} was not pushed`);
    expect(kept[0]?.summary).toContain(".github/workflows/ci.yml");
    // The goal never believes the head landed: no `pushed` commit, no pull request for it.
    expect(
      state?.evidence.filter((e) => e.kind === "commit" && e.summary.startsWith("pushed ")),
    ).toHaveLength(0);
    await h.settle();
    const pulls = h.sandbox
      .requests()
      .slice(requests)
      .filter((r) => r.operationId?.startsWith("pulls/"));
    expect(pulls).toHaveLength(0);
  });
});
