/**
 * The reads that tell a webhook which goals and pull requests it is about. GitHub names a PR
 * by number and a commit by sha, per repository; only the goal rows know which of them LoopX
 * gates or watches. Run on both drivers: the SQL must mean the same on PostgreSQL and PGlite.
 */
import { type DomainEvent, EventType, type GoalState, type TransitionResult } from "@loopx/core";
import type { Store } from "@loopx/store";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type OpenStore, onEveryDriver, truncateAll } from "../support/databases.ts";
import { goalState } from "./fixtures.ts";

type Shape = (s: GoalState) => GoalState;

/** A goal from the fixture (repository 42, gate G1 on PR 5, PR 5 linked), reshaped. */
async function goal(store: Store, shape: Shape = (s) => s, commentId?: number): Promise<string> {
  const r = await store.createGoal((now): TransitionResult => {
    const state = shape(goalState(now));
    const data = commentId === undefined ? {} : { commentId: String(commentId) };
    const created: DomainEvent = {
      type: "goal.created",
      goalId: state.goal.id,
      actor: { kind: "app" },
      at: now,
      data,
    };
    return { ok: true, state, events: [created], effects: [] };
  });
  if (!r.ok) throw new Error(`fixture goal refused: ${r.refusal.message}`);
  return r.state.goal.id;
}

const inRepo =
  (repoId: number): Shape =>
  (s) => ({ ...s, goal: { ...s.goal, repo: { ...s.goal.repo, id: repoId } } });
const withStatus =
  (status: "active" | "paused" | "done"): Shape =>
  (s) => ({ ...s, goal: { ...s.goal, status } });
const gateOn =
  (pr: number | null): Shape =>
  (s) => ({
    ...s,
    gates: s.gates.map((g) => ({
      ...g,
      pr: pr === null ? null : { number: pr, headSha: "abcdef1", seenAt: null },
    })),
  });
const linked =
  (prs: { number: number; headSha?: string; state?: "open" | "closed" | "merged" }[]): Shape =>
  (s) => ({
    ...s,
    pullRequests: prs.map((p) => ({
      number: p.number,
      todo: "T1",
      headRef: `loopx/${s.goal.issue.number}-T1-${p.number}`,
      headSha: p.headSha ?? "abcdef1",
      state: p.state ?? "open",
      monitor: s.pullRequests[0]!.monitor,
    })),
  });
const unwatched: Shape = (s) => ({
  ...s,
  pullRequests: s.pullRequests.map((p) => ({ ...p, monitor: { ...p.monitor, watching: false } })),
});
const all =
  (...shapes: Shape[]): Shape =>
  (s) =>
    shapes.reduce((acc, f) => f(acc), s);

function describeGoalReads(name: string, open: OpenStore) {
  describe(`goal reads on ${name}`, () => {
    let store: Store;
    let done: () => Promise<void> = async () => {};
    beforeAll(async () => {
      ({ store, done } = await open());
      await store.migrate();
    });
    afterAll(async () => {
      await store?.close();
      await done();
    });
    beforeEach(async () => {
      await truncateAll(store);
    });

    it("goalIdsForPull finds a PR's goals through a gate or a link, once each, in that repository only", async () => {
      const both = await goal(store); // gate G1 on PR 5 and PR 5 linked
      const gateOnly = await goal(store, all(gateOn(8), linked([])));
      const linkOnly = await goal(store, all(gateOn(null), linked([{ number: 8 }])));
      await goal(store, all(inRepo(43), gateOn(8), linked([{ number: 8 }])));
      await goal(store, all(gateOn(null), linked([{ number: 9 }])));

      expect(await store.goalIdsForPull(42, 5)).toEqual([both]);
      expect((await store.goalIdsForPull(42, 8)).sort()).toEqual([gateOnly, linkOnly].sort());
      expect(await store.goalIdsForPull(43, 5)).toEqual([]);
      expect(await store.goalIdsForPull(42, 99)).toEqual([]);
    });

    it("goalIdsWatchingPull finds live goals whose link to the PR is watched, not gate-bound or ended ones", async () => {
      const watching = await goal(store); // gate G1 on PR 5 and PR 5 linked, watched
      const paused = await goal(store, withStatus("paused"));
      await goal(store, withStatus("done"));
      await goal(store, all(gateOn(5), linked([]))); // bound by a gate only
      await goal(store, unwatched); // merged or closed: the watch ended
      const elsewhere = await goal(store, inRepo(43));

      expect((await store.goalIdsWatchingPull(42, 5)).sort()).toEqual([watching, paused].sort());
      expect(await store.goalIdsWatchingPull(43, 5)).toEqual([elsewhere]);
      expect(await store.goalIdsWatchingPull(42, 6)).toEqual([]);
    });

    it("goalsWatchingPulls lists live goals with an open linked PR, and honours the limit", async () => {
      const active = await goal(store);
      const paused = await goal(store, withStatus("paused"));
      await goal(store, withStatus("done"));
      await goal(store, linked([{ number: 5, state: "merged" }]));
      await goal(store, linked([{ number: 5, state: "closed" }]));
      await goal(store, linked([]));

      expect((await store.goalsWatchingPulls()).sort()).toEqual([active, paused].sort());
      const one = await store.goalsWatchingPulls(1);
      expect(one).toHaveLength(1);
      expect([active, paused]).toContain(one[0]);
    });

    it("pullsWithHead names the repository's linked PRs at that commit, each number once", async () => {
      const head = "0123456789abcdef0123456789abcdef01234567";
      await goal(store, linked([{ number: 5, headSha: head }, { number: 6 }]));
      await goal(store, all(gateOn(null), linked([{ number: 7, headSha: head, state: "closed" }])));
      await goal(store, all(gateOn(null), linked([{ number: 5, headSha: head }])));
      await goal(store, all(inRepo(43), linked([{ number: 11, headSha: head }])));

      expect((await store.pullsWithHead(42, head)).sort((a, b) => a - b)).toEqual([5, 7]);
      expect(await store.pullsWithHead(43, head)).toEqual([11]);
      expect(await store.pullsWithHead(42, "fedcba9")).toEqual([]);
    });

    it("goalEvents filters by prefixes and keeps the newest, in the database, oldest first", async () => {
      const types = [
        "gate.opened",
        "lease.renewed",
        "goal.budget_changed",
        "todo.sub_issue_unlinked",
        "gate.approved",
        "lease.renewed",
        "todo.sub_issue_linked",
        "gate.rejected",
      ];
      const r = await store.createGoal((now): TransitionResult => {
        const state = goalState(now);
        const events: DomainEvent[] = types.map((type, i) => ({
          type: EventType.parse(type),
          goalId: state.goal.id,
          actor: { kind: "app" },
          at: now,
          data: { i },
        }));
        return { ok: true, state, events, effects: [] };
      });
      if (!r.ok) throw new Error(r.refusal.message);
      const id = r.state.goal.id;
      const order = (es: { data: Record<string, unknown> }[]) => es.map((e) => e.data.i);

      expect(order(await store.goalEvents(id, ["gate.", "goal.budget_changed"]))).toEqual([
        0, 2, 4, 7,
      ]);
      // The newest two of them, still oldest first.
      expect(order(await store.goalEvents(id, ["gate.", "goal.budget_changed"], 2))).toEqual([
        4, 7,
      ]);
      // A whole type is a prefix of itself only.
      expect(order(await store.goalEvents(id, "todo.sub_issue_linked"))).toEqual([6]);
      expect(await store.goalEvents(id, [])).toEqual([]);
    });

    it("listGoalSummaries keeps every goal still going however long untouched, and the newest ended ones", async () => {
      const day = (n: number): Shape => {
        const at = new Date(Date.UTC(2026, 0, n));
        return (s) => ({ ...s, goal: { ...s.goal, updatedAt: at } });
      };
      const waiting = await goal(store, day(1)); // a month of waiting on its owner
      const paused = await goal(store, all(withStatus("paused"), day(2)));
      const ended = [];
      for (let n = 10; n < 14; n++) ended.push(await goal(store, all(withStatus("done"), day(n))));
      const newest = await goal(store, day(20));

      const ids = (await store.listGoalSummaries(2)).map((g) => g.id);
      // Newest first; of the four ended goals only the two newest; the going ones all.
      expect(ids).toEqual([newest, ended[3], ended[2], paused, waiting]);
      expect((await store.listGoalSummaries()).length).toBe(7);
      expect(await store.goalSummary(ended[0] ?? "")).toMatchObject({
        id: ended[0],
        status: "done",
        repo: "octo/widgets",
      });
      expect(await store.goalSummary("00000000-0000-4000-8000-000000000000")).toBeNull();
    });

    it("goalsDueForDigest names active goals never looked at or due, the longest due first", async () => {
      const digestDue =
        (dueAt: Date | null): Shape =>
        (s) => ({ ...s, goal: { ...s.goal, digest: { ...s.goal.digest, dueAt } } });
      const unseen = await goal(store, digestDue(null));
      const overdue = await goal(store, digestDue(new Date("2026-01-01T00:00:00Z")));
      await goal(store, digestDue(new Date("2999-01-01T00:00:00Z"))); // not yet
      await goal(store, all(withStatus("paused"), digestDue(null)));
      await goal(store, all(withStatus("done"), digestDue(new Date("2026-01-01T00:00:00Z"))));

      expect((await store.goalsDueForDigest()).map((g) => g.goalId)).toEqual([unseen, overdue]);
      expect((await store.goalsDueForDigest(1)).map((g) => g.goalId)).toEqual([unseen]);
      const [first] = await store.goalsDueForDigest();
      expect(first).toMatchObject({ owner: "octo", name: "widgets", repoId: 42 });
    });

    it("commentApplied is true only for the goal whose event carries that comment id", async () => {
      const tagged = await goal(store, undefined, 77);
      const other = await goal(store, undefined, 78);
      const plain = await goal(store);

      expect(await store.commentApplied(tagged, 77)).toBe(true);
      expect(await store.commentApplied(tagged, 78)).toBe(false);
      expect(await store.commentApplied(other, 77)).toBe(false);
      expect(await store.commentApplied(plain, 77)).toBe(false);
    });

    it("findCommentedGoal reads the goal of an issue with commentApplied's answer, at once", async () => {
      const tagged = await goal(store, undefined, 79);
      const plain = await goal(store);
      const issueOf = async (id: string) => {
        const g = await store.loadGoal(id);
        if (!g) throw new Error(`no goal ${id}`);
        return [g.goal.repo.id, g.goal.issue.number] as const;
      };
      const [repo, issue] = await issueOf(tagged);
      const found = await store.findCommentedGoal(repo, issue, 79);
      expect(found?.applied).toBe(true);
      expect(found?.goal).toEqual(await store.findGoalByIssue(repo, issue));
      expect(await store.findCommentedGoal(repo, issue, 80)).toMatchObject({ applied: false });

      const [plainRepo, plainIssue] = await issueOf(plain);
      const other = await store.findCommentedGoal(plainRepo, plainIssue, 79);
      expect(other).toMatchObject({ applied: false, goal: { goal: { id: plain } } });
      expect(await store.findCommentedGoal(repo, 987_654, 79)).toBeNull();
    });
  });
}

onEveryDriver(describeGoalReads);
