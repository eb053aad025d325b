import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcilePulls } from "../../app/src/pulls/monitor-pull.ts";
import { firstPull, personClient } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: the repository's external CI reports a commit status, not a check run. A failing
 * status is a failing check: ONE repair todo with its context and target_url as evidence,
 * however often it is announced; a success on the same context is green.
 */
describe("e2e: commit statuses count like checks", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness({ requiredChecks: ["ext/integration"] });
  });
  afterAll(() => h.close());

  it("a failing status delivered three times makes one repair todo; its success is green", async () => {
    // No check runs at all: this repository's only CI reports commit statuses.
    h.sandbox.ci.rule = null;
    const { goal, tick, pr } = await firstPull(
      h,
      "Speed up rendering",
      ["Cache layout", "Document it"],
      { "src/layout.ts": "1\n" },
    );
    let state = await h.store.loadGoal(goal.goal.id);
    expect(state?.todos.filter((t) => t.kind === "repair")).toEqual([]);
    // Nothing reported yet is not green: no merge gate.
    expect(state?.gates.filter((g) => g.scopes.includes("merge"))).toEqual([]);

    // External CI (a person's token stands in for its service account) fails the head.
    const ci = personClient(h, "alice");
    const failing = {
      owner: "acme",
      repo: "widgets",
      sha: tick.sha,
      context: "ext/integration",
      state: "failure" as const,
      target_url: "https://ci.example/builds/41",
      description: "3 tests failed",
    };
    // CI re-reports the same verdict (three status events), and one is even sent twice.
    h.sandbox.faults.webhook({ mode: "duplicate", event: "status", times: 1 });
    for (let i = 0; i < 3; i++) await ci.rest.repos.createCommitStatus(failing);
    await h.sandbox.settle();
    expect(h.sandbox.deliveries().filter((d) => d.event === "status")).toHaveLength(3);
    await h.settle();
    expect(await reconcilePulls(h.app.deps, [goal.goal.id])).toBe(0);

    state = await h.store.loadGoal(goal.goal.id);
    const repairs = state?.todos.filter((t) => t.kind === "repair") ?? [];
    expect(repairs.map((t) => [t.title, t.status])).toEqual([
      [`Fix failing checks on #${pr.number}: ext/integration`, "ready"],
    ]);
    expect(repairs[0]?.detail).toContain("ext/integration: failed (https://ci.example/builds/41)");
    const evidence = state?.evidence.filter((e) => e.kind === "check") ?? [];
    expect(evidence.map((e) => [e.summary, e.url])).toEqual([
      [
        `ext/integration failed on #${pr.number} at ${tick.sha.slice(0, 12)}`,
        "https://ci.example/builds/41",
      ],
    ]);
    expect(state?.pullRequests[0]?.monitor.repairAttempts).toBe(1);
    expect(state?.gates.filter((g) => g.scopes.includes("merge"))).toEqual([]);

    // The same context turns green: the repair is settled by it and the PR is ready.
    await ci.rest.repos.createCommitStatus({ ...failing, state: "success", description: "ok" });
    await h.sandbox.settle();
    await h.settle();
    await reconcilePulls(h.app.deps, [goal.goal.id]);
    state = await h.store.loadGoal(goal.goal.id);
    expect(state?.todos.find((t) => t.key === repairs[0]?.key)?.status).toBe("done");
    expect(
      state?.gates.filter((g) => g.scopes.includes("merge")).map((g) => [g.status, g.pr?.number]),
    ).toEqual([["open", pr.number]]);
  }, 120_000);
});
