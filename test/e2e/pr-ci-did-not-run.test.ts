import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcilePulls } from "../../app/src/pulls/monitor-pull.ts";
import { firstPull } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: main requires `ci`, but CI never runs on the PR (workflows off, filtered out).
 * While the head is fresh LoopX waits; once the grace after the push is over, "CI did not
 * run" is one question to the owners, never green, and the backstop asks it only once.
 */
describe("e2e: CI that never runs", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("waits while the head is fresh, then asks once; no merge gate", async () => {
    h.sandbox.ci.rule = null;
    const { goal, pr } = await firstPull(h, "Speed up rendering", ["Cache layout"], {
      "src/layout.ts": "export const cache = 1;\n",
    });
    let state = await h.store.loadGoal(goal.goal.id);
    expect(state?.pullRequests[0]?.monitor.checks).toEqual([]);
    expect(state?.gates).toEqual([]);
    expect(await reconcilePulls(h.app.deps, [goal.goal.id])).toBe(0);

    // Eleven minutes pass for the head (the stored arrival moves back, as the clock would).
    const seenAt = state?.pullRequests[0]?.monitor.headSeenAt;
    if (!seenAt) throw new Error("the head's arrival was not recorded");
    const earlier = new Date(seenAt.getTime() - 11 * 60_000).toISOString();
    await dbOf(h.store).execute(
      sql`UPDATE pull_requests SET monitor = jsonb_set(monitor, '{headSeenAt}', to_jsonb(${earlier}::text)) WHERE number = ${pr.number}`,
    );
    expect(await reconcilePulls(h.app.deps, [goal.goal.id])).toBe(1);
    await h.settle();
    expect(await reconcilePulls(h.app.deps, [goal.goal.id])).toBe(0);
    state = await h.store.loadGoal(goal.goal.id);
    expect(state?.gates.map((g) => [g.scopes, g.status])).toEqual([[[`ci:${pr.number}`], "open"]]);
    expect(state?.gates[0]?.question).toContain(`CI did not run on #${pr.number}`);
    expect(state?.gates[0]?.question).toContain("(ci)");
    const asked = h.sandbox
      .issue("acme/widgets", goal.goal.issue.number)
      .comments_list.filter((c) => String(c.body).includes("CI did not run"));
    // The gate's comment and the status comment listing it: asked once.
    expect(asked).toHaveLength(2);
  }, 120_000);
});
