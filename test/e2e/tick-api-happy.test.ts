import { AskResponse, PushedResponse, ResultResponse } from "@loopx/core";
import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectWarning } from "../support/expected-warnings.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/** Scenario: ask → claim → result (push grant) → pushed → the issue shows the tick. */
describe("e2e: a productive tick through the tick API", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
    // The tick's own comment is part of what this scenario checks.
    h.sandbox.push("acme/widgets", "main", { ".github/loopx.yml": "comments: sticky\n" }, "alice");
  });
  afterAll(() => h.close());

  it("claims the todo, accepts the result, grants a narrow push token, records the push", async () => {
    // The test reports a push it never made (no commit with that sha is on the branch), so
    // GitHub refuses the App's PR for that head, and the outbox says it will retry.
    expectWarning(
      /will retry: opening a pull request from loopx\/1-T1 in acme\/widgets: GitHub answered 422/,
    );
    const goal = await h.startGoal("Speed up rendering", ["Profile the renderer"]);
    const issue = goal.goal.issue.number;

    const asked = await h.post("/api/v1/ticks", { goal: issue }, await h.token(5001));
    expect(asked.status).toBe(200);
    const claim = AskResponse.parse(asked.body);
    if (!claim.run) throw new Error(`expected a run, got ${claim.reason}`);
    expect(claim.todo).toBe("T1");
    expect(claim.branch).toBe(`loopx/${issue}-T1`);
    expect(claim.harness).toBe("claude-code");
    expect(Buffer.from(claim.leaseToken, "base64url").length).toBeGreaterThanOrEqual(32);
    expect(claim.limits).toEqual({
      wallMinutes: 30,
      idleMinutes: 10,
      maxTurns: 60,
      usd: 2,
      usdFrom: "tick_cap",
    });
    expect(claim.brief.todo.key).toBe("T1");
    expect(claim.briefText).toContain("Profile the renderer");
    // The lease outlives the agent job's timeout plus the report (45 min by default).
    const leaseMs = claim.leaseExpiresAt.getTime() - Date.now();
    expect(leaseMs).toBeGreaterThan(44 * 60_000);

    const before = h.sandbox.requests().length;
    const sha = "a".repeat(40);
    const reported = await h.post(
      `/api/v1/ticks/${claim.tickId}/result`,
      {
        leaseToken: claim.leaseToken,
        result: {
          todo: "T1",
          outcome: "progress",
          validation: { command: "npm test", exitCode: 0, passed: true, summary: "12 passed" },
          commits: [{ sha, message: "Profile the renderer\n\nghp_abcdefghijklmnop1234 leaked" }],
          handoff: {
            done: "Profiled; hot path is layout.",
            next: "Cache layout results.",
            questions: [],
          },
          cost: { usd: 0.4, tokens: 12000, runnerMinutes: 6 },
          metering: "proxy",
        },
      },
      await h.token(5001),
    );
    expect(reported.status).toBe(200);
    const accepted = ResultResponse.parse(reported.body);
    expect(accepted.push?.branch).toBe(`loopx/${issue}-T1`);
    expect(accepted.push?.allowWorkflowPaths).toBe(false);
    expect(accepted.push?.token).toMatch(/^ghs_/);
    expect(accepted.next.route).toBe("run");

    // The token is for this repository only, contents + pull requests, never workflows.
    const mint = h.sandbox
      .requests()
      .slice(before)
      .find((r) => r.operationId === "apps/create-installation-access-token" && r.status === 201);
    expect(mint?.body).toEqual({
      repository_ids: [h.repo.id],
      permissions: { contents: "write", pull_requests: "write" },
    });

    const state = await h.store.loadGoal(goal.goal.id);
    const tick = state?.ticks.find((t) => t.id === claim.tickId);
    expect(tick?.outcome).toBe("progress");
    expect(tick?.slotSpent).toBe(true);
    // USD and tokens as the metering proxy counted them; the runner minutes are never the
    // result's: run 5001 has no jobs for the jobs API to show, so the tick's cap is charged.
    expect(tick?.cost).toEqual({
      usd: 0.4,
      tokens: 12000,
      runnerMinutes: state?.goal.tickCap.runnerMinutes,
    });
    // Known token shapes never reach the store, whatever the agent wrote.
    expect(JSON.stringify(state?.evidence)).not.toContain("ghp_abcdefghijklmnop1234");

    const pushedAnswer = await h.post(
      `/api/v1/ticks/${claim.tickId}/pushed`,
      {
        leaseToken: claim.leaseToken,
        branch: claim.branch,
        headSha: sha,
        paths: ["src/widgets.ts", "notes/ghp_abcdefghijklmnop1234.md"],
      },
      await h.token(5001),
    );
    expect(pushedAnswer.status).toBe(200);
    expect(PushedResponse.parse(pushedAnswer.body)).toEqual({ recorded: true });
    const again = await h.post(
      `/api/v1/ticks/${claim.tickId}/pushed`,
      { leaseToken: claim.leaseToken, branch: claim.branch, headSha: sha },
      await h.token(5001),
    );
    expect(PushedResponse.parse(again.body)).toEqual({ recorded: false });
    const after = await h.store.loadGoal(goal.goal.id);
    expect(
      after?.evidence.filter(
        (e) => e.kind === "commit" && e.sha === sha && e.summary.startsWith("pushed"),
      ),
    ).toHaveLength(1);
    // The files the push changed are kept on the todo, a credential in a name withheld.
    const pushedPaths = after?.todos.find((t) => t.key === claim.todo)?.pushedPaths ?? [];
    expect(pushedPaths).toHaveLength(2);
    expect(pushedPaths[0]).toBe("src/widgets.ts");
    expect(JSON.stringify(pushedPaths)).not.toContain("ghp_abcdefghijklmnop1234");

    await h.settle();
    const comments = h.sandbox.issue("acme/widgets", issue).comments_list;
    const tickComments = comments.filter(
      (c) => readKey(String(c.body ?? "")) === `tick:${claim.tickId}`,
    );
    expect(tickComments).toHaveLength(1);
  });
});
