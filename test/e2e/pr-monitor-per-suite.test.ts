import { dbOf, rowsOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { installationRequests, openPulls, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

type Check = "lint" | "unit" | "e2e";

/**
 * Scenario: the PR monitor acts once per head and check suite, not per check run. CI runs
 * lint, unit and e2e on the PR's head one after another, each held until the test lets it
 * conclude. A passing run that is not the last word (lint) reads nothing from GitHub and
 * commits nothing; a failing one (unit) is read at once, before the rest of CI, so the
 * repair todo exists while e2e still runs; the suite's completion (after e2e passes) reads
 * the head once more. Counted from the sandbox's request log and the store's inbox and events.
 */
describe("e2e: the PR monitor reads a head per suite, and a failure at once", () => {
  let h: TickHarness;
  const release: Partial<Record<Check, () => void>> = {};
  const verdict: Record<Check, "success" | "failure"> = {
    lint: "success",
    unit: "failure",
    e2e: "success",
  };
  beforeAll(async () => {
    h = await startTickHarness({ requiredChecks: ["lint", "unit", "e2e"] });
    h.sandbox.ci.checks = ["lint", "unit", "e2e"];
    h.sandbox.ci.rule = ({ check }) =>
      new Promise<void>((resolve) => {
        release[check as Check] = resolve;
      }).then(() => verdict[check as Check]);
  });
  afterAll(() => h.close());

  const Row = z.object({ event: z.string(), name: z.string().nullable(), outcome: z.string() });
  /**
   * The processed deliveries about CI's checks, oldest first: which run (or the suite), and the
   * outcome. Those about LoopX's own check runs (`LoopX / gates`) are no CI and left out.
   */
  const inbox = async () =>
    rowsOf(
      await dbOf(h.store).execute(sql`
        SELECT event, payload->'check_run'->>'name' AS name, coalesce(outcome, '') AS outcome
          FROM inbox
         WHERE event IN ('check_run', 'check_suite') AND action = 'completed'
           AND processed_at IS NOT NULL
           AND coalesce(payload->'check_run'->'app'->>'slug',
                        payload->'check_suite'->'app'->>'slug', '') <> 'loopx'
         ORDER BY received_at, delivery_id`),
    )
      .map((r) => Row.parse(r))
      .map((r) => [r.event, r.name, r.outcome.startsWith("ignored") ? "ignored" : "acted"]);
  const Count = z.object({ n: z.coerce.number() });
  const events = async (goalId: string) =>
    Count.parse(
      rowsOf(
        await dbOf(h.store).execute(
          sql`SELECT count(*) AS n FROM events WHERE goal_id = ${goalId}`,
        ),
      )[0],
    ).n;
  /** Lets one check conclude and waits until its delivery (and any it causes) is processed. */
  const conclude = async (check: Check) => {
    const completed = () =>
      h.sandbox.emitted.some(
        (e) =>
          e.event === "check_run" &&
          e.payload.action === "completed" &&
          (e.payload.check_run as { name?: string }).name === check,
      );
    // The rule is called when CI reaches the check: wait for that, then for its delivery.
    while (!release[check]) await new Promise((r) => setTimeout(r, 5));
    release[check]?.();
    while (!completed()) await new Promise((r) => setTimeout(r, 5));
    await h.settle();
  };
  const reads = (from: number) =>
    installationRequests(h, from)
      .filter((r) => r.method === "GET")
      .map((r) => r.operationId);

  it("a passing run reads nothing, a failing one acts at once, the suite reads once more", async () => {
    const goal = await h.startGoal("Speed up rendering", ["Cache layout"]);
    const id = goal.goal.id;
    const opening = h.sandbox.requests().length;
    const tick = await playTick(
      h,
      goal.goal.issue.number,
      { "src/layout.ts": "1\n" },
      { complete: true },
    );
    await h.settle();
    const pr = (await openPulls(h)).find((p) => p.head.ref === tick.branch);
    if (!pr) throw new Error(`no PR was opened for ${tick.branch}`);
    expect(await inbox()).toEqual([]);
    // No CI check had finished when the goal began to follow the PR: its opening adds no full
    // reading of its own (reviews, statuses, rules, commit, branch) to the one a pull_request
    // delivery makes.
    const opened = reads(opening);
    expect(opened).toContain("checks/list-for-ref");
    expect(opened.filter((r) => r === "pulls/list-reviews").length).toBeLessThanOrEqual(1);
    // The PR is read once for the reviewers LoopX asks, which is also its glance after
    // tracking, and once by the pull_request delivery's reading: no third read.
    expect(opened.filter((r) => r === "pulls/get")).toHaveLength(2);

    // lint passes: not the last word. No GitHub read, no transition; the delivery is marked.
    let from = h.sandbox.requests().length;
    let before = await events(id);
    await conclude("lint");
    expect(reads(from)).toEqual([]);
    expect(await events(id)).toBe(before);
    expect(await inbox()).toEqual([["check_run", "lint", "ignored"]]);

    // unit fails: read at once, while e2e is still running; one repair todo.
    from = h.sandbox.requests().length;
    before = await events(id);
    await conclude("unit");
    expect(reads(from).filter((r) => r === "pulls/get")).toHaveLength(1);
    expect(reads(from).filter((r) => r === "checks/list-for-ref")).toHaveLength(1);
    expect(await events(id)).toBeGreaterThan(before);
    let state = await h.store.loadGoal(id);
    expect(state?.pullRequests[0]?.monitor.checks.map((c) => [c.name, c.status])).toEqual([
      ["lint", "success"],
      ["unit", "failure"],
      ["e2e", "pending"],
    ]);
    expect(state?.todos.filter((t) => t.kind === "repair").map((t) => t.title)).toEqual([
      `Fix failing checks on #${pr.number}: unit`,
    ]);
    expect((await inbox()).slice(1)).toEqual([["check_run", "unit", "acted"]]);

    // e2e passes and completes the suite: its run reads nothing, the suite reads the head once.
    from = h.sandbox.requests().length;
    before = await events(id);
    await conclude("e2e");
    await h.sandbox.idle();
    await h.settle();
    expect(reads(from).filter((r) => r === "pulls/get")).toHaveLength(1);
    expect(await events(id)).toBeGreaterThan(before);
    expect((await inbox()).slice(2)).toEqual([
      ["check_run", "e2e", "ignored"],
      ["check_suite", null, "acted"],
    ]);
    state = await h.store.loadGoal(id);
    expect(state?.pullRequests[0]?.monitor.checks.map((c) => [c.name, c.status])).toEqual([
      ["lint", "success"],
      ["unit", "failure"],
      ["e2e", "success"],
    ]);
    // Still one repair: the suite's reading is the same failure on the same head.
    expect(state?.todos.filter((t) => t.kind === "repair")).toHaveLength(1);
  }, 120_000);
});
