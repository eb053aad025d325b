/**
 * What approved gates grant comes from the newest approved gate of each scope set, so the
 * window keeps that one per scope set even when all of them are older than the newest
 * finished gates and bound to merged PRs. The expectation is derived from the whole load.
 */
import type { GoalState } from "@loopx/core";
import { DEFAULT_WINDOW, FULL_WINDOW, type Store } from "@loopx/store";
import { dbOf, sql } from "@loopx/store/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OpenStore, onEveryDriver } from "../support/databases.ts";
import { kernelCreate } from "./kernel-fixtures.ts";

const recent = DEFAULT_WINDOW.recentFinished ?? 0;
const SCOPE_SETS = [["deploy"], ["merge"], ["deploy", "merge"], ["publish"]];
/** Approved gates per scope set, then more expired gates than the window keeps, newer. */
const PER_SET = 4;

function newestApprovedPerScopeSet(s: GoalState): string[] {
  const newest = new Map<string, { key: string; ordinal: number }>();
  for (const g of s.gates) {
    if (g.status !== "approved") continue;
    const set = JSON.stringify(g.scopes);
    const ordinal = Number.parseInt(g.key.slice(1), 10);
    const seen = newest.get(set);
    if (!seen || seen.ordinal < ordinal) newest.set(set, { key: g.key, ordinal });
  }
  return [...newest.values()].map((n) => n.key).sort();
}

function describeGates(name: string, open: OpenStore) {
  describe(`the window keeps the newest approved gate of each scope set (${name})`, () => {
    let store: Store;
    let done: () => Promise<void>;
    let goalId: string;
    beforeAll(async () => {
      ({ store, done } = await open());
      await store.migrate();
      const created = await store.createGoal(kernelCreate({ todos: 1 }));
      if (!created.ok) throw new Error(created.refusal.message);
      goalId = created.state.goal.id;
      const db = dbOf(store);
      const approved = SCOPE_SETS.length * PER_SET;
      const gates = approved + recent + 5;
      await db.execute(sql`
        INSERT INTO pull_requests (goal_id, number, todo, head_ref, head_sha, state, monitor)
        SELECT ${goalId}, n, 'T1', 'loopx/pr-' || n, 'abcdef1234567', 'merged', '{}'::jsonb
          FROM generate_series(1, ${approved}::int) n`);
      // Gate n (n ≤ approved) is approved, bound to merged PR n, in scope set n mod 4.
      await db.execute(sql`
        INSERT INTO gates (goal_id, key, ordinal, question, scopes, status, requested_from,
                           todo, pr_number, pr_head_sha, opened_at, resolved_by, resolved_at)
        SELECT ${goalId}, 'G' || n, n, 'May I?',
               CASE WHEN n <= ${approved}::int
                    THEN (${JSON.stringify(SCOPE_SETS)}::jsonb) -> (n % ${SCOPE_SETS.length}::int)
                    ELSE '["deploy"]'::jsonb END,
               CASE WHEN n <= ${approved}::int THEN 'approved' ELSE 'expired' END,
               '[]'::jsonb, NULL,
               CASE WHEN n <= ${approved}::int THEN n END,
               CASE WHEN n <= ${approved}::int THEN 'abcdef1234567' END,
               now(), 'bob', now()
          FROM generate_series(1, ${gates}::int) n`);
      await db.execute(sql`
        UPDATE goals SET counters = jsonb_set(counters, '{gate}', to_jsonb(${gates + 1}::int))
         WHERE id = ${goalId}`);
    });
    afterAll(async () => {
      await store.close();
      await done();
    });

    it("loads that gate for every scope set, and not the older approvals", async () => {
      const whole = await store.loadGoal(goalId, FULL_WINDOW);
      const windowed = await store.loadGoal(goalId);
      if (!whole || !windowed) throw new Error("goal not found");
      const expected = newestApprovedPerScopeSet(whole);
      expect(expected).toHaveLength(SCOPE_SETS.length);
      const approvedInWindow = windowed.gates
        .filter((g) => g.status === "approved")
        .map((g) => g.key)
        .sort();
      expect(approvedInWindow).toEqual(expected);
      expect(windowed.gates.length).toBeLessThan(whole.gates.length);
    });
  });
}

onEveryDriver(describeGates);
