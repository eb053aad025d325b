import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectWarning } from "../support/expected-warnings.ts";
import { openPulls, personClient, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const repo = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario: T1 finishes on its branch, but GitHub fails the App's first try at its PR; before
 * the App tries again, a maintainer opens a PR of her own from that branch and merges it. The
 * App's PR would bring main nothing, and GitHub refuses it (422 "No commits between"). That
 * refusal is a fact about the branch, not a write to retry: T1's work is in main, so T1 is
 * done with that head as its evidence, no dead letter is left, and the goal moves on to T2.
 */
describe("e2e: the todo's branch is already in main when the App opens its PR", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("completes the todo from GitHub's refusal, opens nothing, and runs the next todo", async () => {
    expectWarning(
      /will retry: opening a pull request from loopx\/1-T1 in acme\/widgets: GitHub answered 502/,
    );
    const goal = await h.startGoal("Tidy the widgets", ["Sort the widgets", "Label the widgets"]);
    const issue = goal.goal.issue.number;
    // The App's first try at the PR fails: its PR write waits for a retry.
    h.sandbox.faults.route({ route: "pulls/create", status: 502, times: 1 });
    const tick = await playTick(
      h,
      issue,
      { "sort.ts": "export const sorted = true;\n" },
      {
        complete: true,
      },
    );
    await h.settle();
    expect(await openPulls(h)).toEqual([]);

    const alice = personClient(h, "alice");
    const { data: hers } = await alice.rest.pulls.create({
      ...repo,
      title: "Sort the widgets",
      head: tick.branch,
      base: "main",
    });
    await alice.rest.pulls.merge({ ...repo, pull_number: hers.number });
    await h.settle();

    // The retry falls due.
    await dbOf(h.store).execute(
      sql`UPDATE outbox SET next_attempt_at = now() WHERE done_at IS NULL`,
    );
    h.app.outbox.kick();
    await h.settle();

    const refused = h.sandbox
      .requests()
      .filter((r) => r.operationId === "pulls/create" && r.status === 422);
    expect(refused).toHaveLength(1);
    expect((await openPulls(h)).map((p) => p.number)).toEqual([hers.number]);
    const state = await h.store.loadGoal(goal.goal.id);
    const t1 = state?.todos.find((t) => t.key === "T1");
    expect(t1?.status).toBe("done");
    const proof = state?.evidence.filter((e) => t1?.completion?.evidenceIds.includes(e.id));
    expect(proof?.map((e) => [e.kind, e.sha])).toEqual([["commit", tick.sha]]);
    expect(proof?.[0]?.summary).toContain("already in main");
    expect(await h.app.ops.snapshot()).toMatchObject({ outbox: { pending: 0 }, deadLetters: 0 });
    const next = await h.post("/api/v1/ticks", { goal: issue }, await h.token(9951));
    expect(next.body).toMatchObject({ run: true, todo: "T2" });
  }, 120_000);
});
