import type { GoalState, TransitionResult } from "@loopx/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "../support/app-harness.ts";
import { startGoal } from "../support/goal-steps.ts";

const o = { owner: "acme", repo: "widgets" } as const;
const HOUR = 3_600_000;

/**
 * Scenario: a goal runs unattended for days. Once a day (the default `notify.digest`) the
 * App's scheduler posts one digest comment on the goal's issue — what is next, spend,
 * who is waited on — pinging nobody; a day in which nothing moved gets none. Time passes by
 * moving the goal's own clock marks back, as the database's clock cannot be moved.
 */
describe("e2e: the daily digest of an unattended goal", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const digests = async (issue: number) =>
    (await h.as("alice").rest.issues.listComments({ ...o, issue_number: issue })).data.filter(
      (c) => c.user?.login === "loopx[bot]" && (c.body ?? "").startsWith("**LoopX digest.**"),
    );

  /** The goal as if it started `startedAgoMs` ago and its digest is due. */
  const age = (goalId: string, startedAgoMs: number) =>
    h.store.apply(goalId, (s, now): TransitionResult => {
      const goal: GoalState["goal"] = {
        ...s.goal,
        createdAt: new Date(now.getTime() - startedAgoMs),
        digest: { ...s.goal.digest, dueAt: new Date(now.getTime() - 1000) },
      };
      if (s.goal.digest.sentAt !== null) goal.digest.sentAt = new Date(now.getTime() - 25 * HOUR);
      return { ok: true, state: { ...s, goal }, events: [], effects: [] };
    });

  it("posts one digest a day while something moved, and none about a day without a move", async () => {
    const { number: issue, goalId } = await startGoal(h, "alice", "Cache the widgets");
    await h.as("alice").rest.issues.createComment({
      ...o,
      issue_number: issue,
      body: "/loopx todo add Pick a cache key with @octo's naming",
    });
    await h.settle();

    // A fresh goal: the scheduler looks once and schedules its first digest a day out.
    expect((await h.app.scheduler.tick()).digests).toBe(1);
    await h.settle();
    expect(await digests(issue)).toEqual([]);
    const looked = await h.store.loadGoal(goalId);
    const dueIn =
      (looked?.goal.digest.dueAt?.getTime() ?? 0) - (looked?.goal.createdAt.getTime() ?? 0);
    expect(dueIn).toBe(24 * HOUR);
    // Not due: the next pass does not even look.
    expect((await h.app.scheduler.tick()).digests).toBe(0);

    // A day later.
    await age(goalId, 25 * HOUR);
    expect((await h.app.scheduler.tick()).digests).toBe(1);
    await h.settle();
    const [digest, ...more] = await digests(issue);
    expect(more).toEqual([]);
    const body = digest?.body ?? "";
    expect(body).toContain("- Next: T1 Pick a cache key");
    // Spend against the goal's budget (the defaults: the repository sets none).
    const budget = looked?.goal.budget ?? {};
    expect(body).toContain(
      `- Spent: $0.00 of $${budget.usd?.toFixed(2)}; 0 of ${budget.ticks} ticks; 0 of ${budget.runnerMinutes} runner minutes.`,
    );
    // Nobody is pinged: not the owner, not a login in a todo's title.
    expect(body).not.toMatch(/@(?=[A-Za-z0-9])/);
    expect(body).toContain("@\u200bocto's naming");

    // Another day, and the goal has not moved: no digest about it.
    await age(goalId, 49 * HOUR);
    expect((await h.app.scheduler.tick()).digests).toBe(1);
    await h.settle();
    expect(await digests(issue)).toHaveLength(1);
  });
});
