import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectWarning } from "../support/expected-warnings.ts";
import { openPulls, personClient, playTick } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

const repo = { owner: "acme", repo: "widgets" } as const;

/**
 * Scenario: the App owes T1's open PR an update for a new head (GitHub failed its comment
 * edits), and the PR is merged at that head before the retry; the merge's webhook never
 * reaches the App. The retried write reconciles with GitHub first: it finds its own PR merged
 * at this very head, so it opens nothing, and the merge completes T1 with the merge commit as
 * evidence.
 */
describe("e2e: an owed PR update finds its work merged", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("completes the todo from the merged PR and opens no second one", async () => {
    expectWarning(/will retry: .*GitHub answered 502/);
    const goal = await h.startGoal("Catalogue the parts", ["List the gears", "List the cogs"]);
    const issue = goal.goal.issue.number;
    const first = await playTick(h, issue, { "gears.md": "- gear\n" });
    await h.settle();
    const [pr] = await openPulls(h);
    if (!pr) throw new Error("no PR was opened");

    // Every comment edit fails until the merge: the PR's handoff among them, so its update is owed.
    h.sandbox.faults.route({ route: "issues/update-comment", status: 502 });
    const second = await playTick(h, issue, { "gears.md": "- gear\n- cog\n" }, { complete: true });
    await h.settle();
    expect(second.branch).toBe(first.branch);
    // The merge happens; its webhook is lost on the way (GitHub records it as failed).
    h.sandbox.faults.webhook({ mode: "drop", event: "pull_request.closed" });
    const alice = personClient(h, "alice");
    const { data: merged } = await alice.rest.pulls.merge({ ...repo, pull_number: pr.number });
    await h.settle();
    h.sandbox.faults.clear();
    let state = await h.store.loadGoal(goal.goal.id);
    expect(state?.todos.find((t) => t.key === "T1")?.status).toBe("blocked");

    const from = h.sandbox.requests().length;
    await dbOf(h.store).execute(
      sql`UPDATE outbox SET next_attempt_at = now() WHERE done_at IS NULL`,
    );
    h.app.outbox.kick();
    await h.settle();

    const since = h.sandbox.requests().slice(from);
    expect(since.filter((r) => r.operationId === "pulls/create")).toEqual([]);
    expect((await openPulls(h)).map((p) => [p.number, p.merged_at !== null])).toEqual([
      [pr.number, true],
    ]);
    state = await h.store.loadGoal(goal.goal.id);
    const t1 = state?.todos.find((t) => t.key === "T1");
    expect(t1?.status).toBe("done");
    const proof = state?.evidence.filter((e) => t1?.completion?.evidenceIds.includes(e.id));
    expect(proof?.map((e) => [e.kind, e.sha])).toEqual([["pr", merged.sha]]);
    expect(await h.app.ops.snapshot()).toMatchObject({ outbox: { pending: 0 }, deadLetters: 0 });
    const next = await h.post("/api/v1/ticks", { goal: issue }, await h.token(9961));
    expect(next.body).toMatchObject({ run: true, todo: "T2" });
  }, 120_000);
});
