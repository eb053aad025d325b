import { readKey } from "@loopx/github";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcilePulls } from "../../app/src/pulls/monitor-pull.ts";
import { createScheduler } from "../../app/src/scheduler/create-scheduler.ts";
import { personClient } from "../support/pr-ticks.ts";
import { startTickHarness, type TickHarness } from "../support/tick-api-harness.ts";

/** Scenario: a writer links a draft PR (`/loopx link #N`) → the monitor asks the owner, once. */
describe("e2e: a draft PR asks its owner", () => {
  let h: TickHarness;
  beforeAll(async () => {
    h = await startTickHarness();
  });
  afterAll(() => h.close());

  it("opens one question gate on the goal", async () => {
    const goal = await h.startGoal("Speed up rendering", ["Cache layout"]);
    const issue = goal.goal.issue.number;
    const alice = personClient(h, "alice");
    h.sandbox.push(h.repo.fullName, "feature/cache", { "src/a.ts": "1\n" }, "alice");
    const { data: pr } = await alice.rest.pulls.create({
      owner: "acme",
      repo: "widgets",
      head: "feature/cache",
      base: "main",
      title: "Cache layout (WIP)",
      draft: true,
    });
    await alice.rest.issues.createComment({
      owner: "acme",
      repo: "widgets",
      issue_number: issue,
      body: `/loopx link #${pr.number}`,
    });
    await h.settle();
    // The link is the only event after the PR opened: the scheduler's backstop reads it…
    expect(await h.app.deps.store.goalsWatchingPulls()).toEqual([goal.goal.id]);
    await createScheduler(h.app.deps, { pullReconcileMs: 0 }).tick();
    // …and reading it again changes nothing.
    expect(await reconcilePulls(h.app.deps, [goal.goal.id])).toBe(0);
    await h.settle();

    const state = await h.store.loadGoal(goal.goal.id);
    const asks = state?.gates.filter((g) => g.scopes.includes(`draft:${pr.number}`)) ?? [];
    expect(asks.map((g) => g.status)).toEqual(["open"]);
    expect(asks[0]?.question).toContain(`#${pr.number} is a draft`);
    const comment = h.sandbox
      .issue("acme/widgets", issue)
      .comments_list.find((c) => readKey(String(c.body ?? "")) === `gate:${asks[0]?.key}:opened`);
    expect(String(comment?.body)).toContain("is a draft");
  }, 120_000);
});
