/**
 * Whatever happens around a pull request — slices finishing on the branch in one go or in
 * several, the App opening the PR, CI, reviews, merges, closes, writers ticking boxes or
 * closing sub-issues, reopened todos — no todo is done while its own pull request is open,
 * and a todo done by a merge has that merge commit as its evidence.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GoalState, TransitionResult } from "../src/index.ts";
import {
  applyTickResult,
  claimTodo,
  completeTodoByHuman,
  isAwaitingPullRequest,
  linkSubIssue,
  observePullRequest,
  recordBranchInBase,
  reopenTodo,
  requestPullRequest,
  settleTodoFromSubIssue,
  todoBranch,
  trackPullRequest,
} from "../src/index.ts";
import { APP, claimInput, ctx, minutes, result, state, T0, todo, WRITER } from "./fixtures.ts";

type Cmd =
  | { op: "claim" }
  | { op: "result"; completed: boolean; commits: number }
  | { op: "push" }
  | { op: "observe"; pr: number; what: "green" | "red" | "review" | "merged" | "closed" }
  | { op: "tick"; todo: number }
  | { op: "subIssue"; todo: number }
  | { op: "reopen"; todo: number }
  | { op: "inBase"; todo: number }
  | { op: "advance"; ms: number };

const todoIndex = fc.nat(3);
const cmd: fc.Arbitrary<Cmd> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ op: "claim" as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("result" as const),
      completed: fc.boolean(),
      commits: fc.integer({ min: 0, max: 2 }),
    }),
  },
  { weight: 3, arbitrary: fc.constant({ op: "push" as const }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("observe" as const),
      pr: fc.nat(5),
      what: fc.constantFrom(
        "green" as const,
        "red" as const,
        "review" as const,
        "merged" as const,
        "closed" as const,
      ),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("tick" as const), todo: todoIndex }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("subIssue" as const), todo: todoIndex }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("reopen" as const), todo: todoIndex }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("inBase" as const), todo: todoIndex }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant("advance" as const),
      ms: fc.integer({ min: 0, max: minutes(120) }),
    }),
  },
);

interface World {
  s: GoalState;
  now: Date;
  ticks: number;
  shas: number;
  /** The head each finished tick's commits left on its branch (ticks without commits push nothing). */
  heads: Map<string, string>;
}

const sha = (n: number) => n.toString(16).padStart(40, "a");

/** The rule, judged the plain way: a PR LoopX opened for this todo, still open. */
function ownOpenPr(s: GoalState, key: string) {
  return s.pullRequests.find((p) => p.todo === key && p.state === "open");
}

function check(w: World): void {
  const evidence = new Map(w.s.evidence.map((e) => [e.id, e]));
  for (const t of w.s.todos) {
    if (t.status !== "done") continue;
    const pr = ownOpenPr(w.s, t.key);
    expect(pr, `${t.key} is done while its own #${pr?.number} is open`).toBeUndefined();
    const ids = t.completion?.evidenceIds ?? [];
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(evidence.has(id)).toBe(true);
  }
}

/**
 * A todo waiting for its PR is done only by a delivery: its PR's merge (the merge commit) or
 * GitHub finding its branch already in the base — never by a tick, a slice or a sub-issue.
 */
function checkDelivered(before: GoalState, after: GoalState): void {
  const evidence = new Map(after.evidence.map((e) => [e.id, e]));
  for (const t of after.todos) {
    const was = before.todos.find((b) => b.key === t.key);
    if (t.status !== "done" || !was || !isAwaitingPullRequest(was)) continue;
    for (const id of t.completion?.evidenceIds ?? []) {
      const e = evidence.get(id);
      const delivery =
        (e?.kind === "pr" && e.summary.includes(" merged as ")) ||
        (e?.kind === "commit" && e.summary.includes(" is already in "));
      expect(delivery, `${t.key} done by ${e?.kind} "${e?.summary}"`).toBe(true);
    }
  }
}

/** The todos a merge of `pr` completed cite its merge commit, and nothing else. */
function checkMerge(before: GoalState, after: GoalState, pr: number, merge: string): void {
  const evidence = new Map(after.evidence.map((e) => [e.id, e]));
  const own = after.pullRequests.find((p) => p.number === pr)?.todo;
  for (const t of after.todos) {
    const was = before.todos.find((b) => b.key === t.key);
    if (t.status !== "done" || was?.status === "done") continue;
    expect(
      t.key === own ||
        after.pullRequests.some((p) => p.number === pr && p.monitor.todos.includes(t.key)),
    ).toBe(true);
    expect(t.completion?.evidenceIds.map((id) => evidence.get(id)?.sha)).toEqual([merge]);
  }
}

function step(w: World, c: Cmd): void {
  const as = (actor = APP) => ctx(w.now, actor, { newId: () => crypto.randomUUID() });
  const last = w.s.ticks.at(-1);
  let r: TransitionResult | null = null;
  switch (c.op) {
    case "claim":
      w.ticks += 1;
      r = claimTodo(w.s, { ...claimInput(w.ticks), tickId: crypto.randomUUID() }, as());
      break;
    case "result": {
      if (!last || last.finishedAt !== null) return;
      const commits = Array.from({ length: c.commits }, () => {
        w.shas += 1;
        return { sha: sha(w.shas), message: "work" };
      });
      r = applyTickResult(
        w.s,
        {
          tickId: last.id,
          leaseToken: last.leaseToken,
          result: result({
            todo: last.todo,
            outcome: c.completed ? "completed" : "progress",
            commits,
            continuation: c.completed ? { kind: "goal_active" } : null,
          }),
        },
        as(),
      );
      if (r.ok && commits.length > 0) w.heads.set(last.id, sha(w.shas));
      break;
    }
    case "push": {
      // The report job pushed the last tick's branch; the App updates its open PR, reopens
      // one a person closed, or opens a new one after a merge (openPullRequest's choices).
      const head = last ? w.heads.get(last.id) : undefined;
      if (!last || head === undefined) return;
      const branch = todoBranch(w.s, last.todo);
      const asked = requestPullRequest(w.s, { todo: last.todo, branch, headSha: head }, as());
      if (!asked.ok) return;
      w.s = asked.state;
      check(w);
      const mine = w.s.pullRequests.filter((p) => p.headRef === branch && p.todo !== null).at(-1);
      const reuse = mine && mine.state !== "merged" ? mine : null;
      r = trackPullRequest(
        w.s,
        {
          number: reuse?.number ?? w.s.pullRequests.length + 1,
          todo: reuse?.todo ?? last.todo,
          headRef: branch,
          headSha: head,
        },
        as(),
      );
      break;
    }
    case "observe": {
      const pr = w.s.pullRequests[c.pr % Math.max(1, w.s.pullRequests.length)];
      if (!pr) return;
      const head = pr.headSha;
      const checks = (status: "success" | "failure") => ({
        sha: head,
        list: [{ name: "ci", status, url: null }],
      });
      const merge = sha(10_000 + pr.number);
      const observed = {
        green: { state: "open" as const, mergeable: true, checks: checks("success") },
        red: { state: "open" as const, mergeable: true, checks: checks("failure") },
        review: {
          state: "open" as const,
          changesRequested: { id: pr.number, by: "writer", commitId: head, body: "no", at: w.now },
        },
        merged: { state: "merged" as const, mergeCommitSha: merge },
        closed: { state: "closed" as const },
      }[c.what];
      r = observePullRequest(w.s, { number: pr.number, headSha: head, ...observed }, as());
      if (r.ok && c.what === "merged") checkMerge(w.s, r.state, pr.number, merge);
      break;
    }
    case "tick":
      r = completeTodoByHuman(w.s, { todo: `T${c.todo + 1}` }, as(WRITER));
      break;
    case "subIssue": {
      const key = `T${c.todo + 1}`;
      const linked = linkSubIssue(w.s, { todo: key, id: 900 + c.todo, number: 90 + c.todo }, as());
      if (linked.ok) {
        w.s = linked.state;
        check(w);
      }
      r = settleTodoFromSubIssue(w.s, { todo: key, outcome: "completed" }, as(WRITER));
      break;
    }
    case "reopen":
      r = reopenTodo(w.s, { todo: `T${c.todo + 1}` }, as(WRITER));
      break;
    case "inBase": {
      // GitHub refused a PR for the todo's last pushed head: it is already in main.
      const key = `T${c.todo + 1}`;
      const tick = w.s.ticks.filter((t) => t.todo === key && w.heads.has(t.id)).at(-1);
      const head = tick ? w.heads.get(tick.id) : undefined;
      if (!head) return;
      const branch = todoBranch(w.s, key);
      r = recordBranchInBase(w.s, { todo: key, branch, headSha: head, base: "main" }, as());
      break;
    }
    case "advance":
      w.now = new Date(w.now.getTime() + c.ms);
      return;
  }
  if (!r?.ok) return;
  checkDelivered(w.s, r.state);
  w.s = r.state;
  check(w);
}

describe("done only after the merge, over random transition sequences", () => {
  it("no todo is done while its own pull request is open", () => {
    fc.assert(
      fc.property(fc.array(cmd, { minLength: 1, maxLength: 80 }), (cmds) => {
        const w: World = {
          s: state(
            { todos: [todo("T1"), todo("T2"), todo("T3"), todo("T4")] },
            { quota: { windowHours: 24, slotMinutes: 1, compute: 1000 } },
          ),
          now: T0,
          ticks: 0,
          shas: 0,
          heads: new Map(),
        };
        for (const c of cmds) step(w, c);
      }),
      { numRuns: 400 },
    );
  });
});
