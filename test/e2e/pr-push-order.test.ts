import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { firstPull, installationRequests } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/**
 * Scenario: a person pushes to LoopX's open PR while its merge gate waits. The gate follows the
 * new head from the signed `synchronize` payload, and the monitor glances at the PR once (which
 * starts GitHub's mergeability job): no checks, statuses or reviews are read before CI
 * answers. Then two more pushes, the first one's delivery failing: the second arrives first,
 * follows a head the goal never saw, and the gate takes the PR's head from a read; the first,
 * recorded later by the App's delivery reconciler, moves neither the PR's head nor the gate's
 * back.
 */
describe("e2e: a push to a watched PR: one glance, and never backwards", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  const reads = (from: number) =>
    installationRequests(h, from)
      .filter((r) => r.method === "GET")
      .map((r) => r.operationId);

  it("moves head and gate with one read; a late delivery moves nothing back", async () => {
    h.sandbox.ci.rule = () => "success";
    const { goal, tick, pr } = await firstPull(h, "Speed up rendering", ["Cache layout"], {
      "src/layout.ts": "export const cache = 1;\n",
    });
    const id = goal.goal.id;
    const state = async () => {
      const s = await h.store.loadGoal(id);
      const gate = s?.gates.find((g) => g.scopes.includes("merge"));
      const watched = s?.pullRequests.find((p) => p.number === pr.number);
      return {
        head: watched?.headSha,
        seen: watched?.monitor.headSeenSha,
        gate: [gate?.status, gate?.pr?.headSha],
      };
    };
    expect(await state()).toEqual({ head: tick.sha, seen: tick.sha, gate: ["open", tick.sha] });
    // CI stays quiet from here on: nothing but the pushes' own deliveries reach the App.
    h.sandbox.ci.rule = null;

    const from = h.sandbox.requests().length;
    const a = h.sandbox.push("acme/widgets", tick.branch, { "src/layout.ts": "2\n" }, "alice");
    await h.sandbox.idle();
    await h.settle();
    expect(await state()).toEqual({ head: a, seen: a, gate: ["open", a] });
    // The config aside (a conditional read), the push cost one read of the PR; the gate's new
    // question lists the files its approval would cover.
    expect(
      reads(from)
        .filter((r) => r !== "repos/get-content")
        .sort(),
    ).toEqual(["pulls/get", "pulls/list-files"]);

    // The next push's synchronize delivery fails; the one after it arrives.
    h.sandbox.faults.webhook({ mode: "drop", event: "pull_request.synchronize", times: 1 });
    const b = h.sandbox.push("acme/widgets", tick.branch, { "src/layout.ts": "3\n" }, "alice");
    const c = h.sandbox.push("acme/widgets", tick.branch, { "src/layout.ts": "4\n" }, "alice");
    await h.sandbox.idle();
    await h.settle();
    expect(await state()).toEqual({ head: c, seen: c, gate: ["open", c] });

    // The App's reconciler finds the failed delivery and records it: it arrives last.
    const recorded = await h.app.reconcile();
    expect(recorded.recorded).toBeGreaterThanOrEqual(1);
    await h.settle();
    const late = h.sandbox.deliveries().find((d) => {
      const payload = d.payload as { after?: string };
      return d.event === "pull_request" && payload.after === b;
    });
    expect(late?.dropped).toBe(true);
    expect(await state()).toEqual({ head: c, seen: c, gate: ["open", c] });
    // The gate asked about each head it moved to, never about b.
    const moved = rowsOf(
      await dbOf(h.store).execute(sql`
        SELECT data->>'to' AS "to" FROM events
         WHERE goal_id = ${id} AND type = 'gate.reopened' ORDER BY id`),
    ).map((r) => z.object({ to: z.string() }).parse(r).to);
    expect(moved).toEqual([a, c]);
  }, 120_000);
});
