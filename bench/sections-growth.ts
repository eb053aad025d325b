/**
 * A transition's cost as a goal ages, on real PostgreSQL: ask (claim), report (a completed
 * slice) and a comment transition (a writer's `/loopx todo add`: the goal and the
 * applied-comment check read, then the transition) on a goal grown to 20,000 done todos,
 * 2,000 resolved gates, 1,000 merged PRs, 100,000 events and 10,000 notes read, beside a
 * fresh goal's, alternating the two in one process; both wait with the same thread of
 * writers' notes no slice has read. The history is seeded as rows directly (real
 * cycles would take hours); the measured cycles are real kernel transitions through the
 * store. Also claims at 32-way contention on goals with 1,001 todos.
 *
 *   npm run bench:growth          # a throwaway server (fsync off), or BENCH_DATABASE_URL
 *   BENCH_GROWTH=claims npx tsx bench/sections-growth.ts   # only the claims on grown goals
 */
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import {
  addTodo,
  applyTickResult,
  claimNext,
  createGoal,
  type GoalState,
  type HarnessResult,
} from "@loopx/core";
import { openStore, type Store } from "@loopx/store";
import { seedHistory, seedWaitingThread } from "./growth-seed.ts";
import { lookupPlanRows } from "./lookup-plans.ts";
import { type BenchPostgres, benchPostgres } from "./pg.ts";
import { guarded, ms, row } from "./sections.ts";
import { quantile } from "./stats.ts";
import { benchClaims } from "./store-claims.ts";
import type { Row } from "./table.ts";

const BOB = { kind: "human", login: "bob", trusted: true } as const;
/** Issue 19's figures on main before windowing, at 20,000 done todos: context, not a target. */
const TODAY = { ask: "2.5 s", report: "5.5 s", comment: "3.2 s" };

let issue = 1;
function create() {
  const n = issue++;
  return (now: Date) =>
    createGoal(
      {
        id: randomUUID(),
        installationId: 1,
        repo: { id: 77, ownerId: 1, owner: "bench", name: "growth" },
        issue: { id: 3_000_000 + n, number: n },
        objective: { title: "grow", body: "", author: "bob", authorTrusted: true, snapshotAt: now },
        owners: ["bob"],
        harness: "shell",
        budget: { usd: 1_000_000 },
        todos: [{ title: "first" }],
      },
      { actor: BOB, now, newId: randomUUID },
    );
}

function completed(todo: string): HarnessResult {
  return {
    todo,
    outcome: "completed",
    failure: null,
    validation: { command: "npm test", exitCode: 0, passed: true, summary: "ok" },
    commits: [],
    evidence: [{ kind: "test", summary: "tests pass", url: null, sha: null }],
    handoff: { done: "done", next: "next", questions: [] },
    continuation: { kind: "goal_active" },
    proposedTodos: [],
    gateRequests: [],
    cost: { usd: 0.01, tokens: 10, runnerMinutes: 1 },
    metering: "proxy",
    withheld: [],
    sessionId: null,
  };
}

interface Timings {
  ask: number[];
  report: number[];
  comment: number[];
}

/**
 * One real cycle, timed per request as the App makes them: each reads the goal (ask and the
 * comment by issue, report by id) and hands it to the transition's apply; ask claims,
 * report applies a completed slice, the comment adds the todo the next cycle works.
 */
async function cycle(store: Store, state: GoalState, into: Timings): Promise<void> {
  const tickId = randomUUID();
  const leaseToken = randomUUID().replaceAll("-", "");
  let t = performance.now();
  const found = await store.findGoalByIssue(state.goal.repo.id, state.goal.issue.number);
  const asked = await store.apply(
    state.goal.id,
    (s, now) =>
      claimNext(
        s,
        { tickId, leaseToken, agent: "bench", harness: "shell", run: null, leaseTtlMs: 900_000 },
        { actor: { kind: "agent", tickId, harness: "shell" }, now, newId: randomUUID },
      ).result,
    { loaded: found ?? undefined },
  );
  into.ask.push(performance.now() - t);
  if (!asked.ok) throw new Error(`ask refused: ${asked.refusal.message}`);
  const todo = asked.state.ticks.find((k) => k.id === tickId)?.todo ?? "";
  t = performance.now();
  const read = await store.loadGoal(state.goal.id);
  const reported = await store.apply(
    state.goal.id,
    (s, now) =>
      applyTickResult(
        s,
        { tickId, leaseToken, result: completed(todo) },
        { actor: { kind: "agent", tickId, harness: "shell" }, now, newId: randomUUID },
      ),
    { loaded: read ?? undefined },
  );
  into.report.push(performance.now() - t);
  if (!reported.ok) throw new Error(`report refused: ${reported.refusal.message}`);
  // What the comment handler reads before it applies: the goal, and whether this comment
  // was applied already (a redelivery), which must not read the goal's whole history.
  t = performance.now();
  const about = await store.findCommentedGoal(
    state.goal.repo.id,
    state.goal.issue.number,
    1_000_000 + into.comment.length,
  );
  if (about?.applied !== false) throw new Error("a comment no event carries reads as applied");
  const commented = await store.apply(
    state.goal.id,
    (s, now) => addTodo(s, { title: "next step" }, { actor: BOB, now, newId: randomUUID }),
    { loaded: about.goal },
  );
  into.comment.push(performance.now() - t);
  if (!commented.ok) throw new Error(`comment refused: ${commented.refusal.message}`);
}

export async function growthRows(pg: BenchPostgres, cycles = 40): Promise<Row[]> {
  const section = `goal growth (${pg.source}, warm caches)`;
  const url = await pg.freshDatabase("growth");
  const store = await openStore({ databaseUrl: url, maxConnections: 2 });
  try {
    await store.migrate();
    const made = [await store.createGoal(create()), await store.createGoal(create())];
    const [fresh, grown] = made.map((m) => {
      if (!m.ok) throw new Error(m.refusal.message);
      return m.state;
    });
    if (!fresh || !grown) throw new Error("no goals");
    const size = {
      todos: 20_000,
      gates: 2_000,
      prs: 1_000,
      events: 100_000,
      notes: 10_000,
    };
    await seedHistory(url, grown.goal.id, size);
    const waiting = 1_000;
    for (const goal of [fresh, grown]) await seedWaitingThread(url, goal.goal.id, waiting);
    const timings = {
      fresh: { ask: [], report: [], comment: [] } as Timings,
      grown: { ask: [], report: [], comment: [] } as Timings,
    };
    // Warm-up (discarded), then alternate so load on the shared machine hits both alike.
    await cycle(store, fresh, { ask: [], report: [], comment: [] });
    await cycle(store, grown, { ask: [], report: [], comment: [] });
    for (let i = 0; i < cycles; i++) {
      await cycle(store, fresh, timings.fresh);
      await cycle(store, grown, timings.grown);
    }
    const rows: Row[] = [];
    const n = (x: number) => x.toLocaleString("en");
    const what = `${n(size.todos)} done todos, ${n(size.gates)} resolved gates, ${n(size.prs)} merged PRs, ${n(size.events)} events, ${n(size.notes)} notes read (seeded as rows; it and the fresh goal each with ${n(waiting)} writers' notes waiting)`;
    for (const op of ["ask", "report", "comment"] as const) {
      const f50 = quantile(timings.fresh[op], 0.5);
      const g50 = quantile(timings.grown[op], 0.5);
      const g99 = quantile(timings.grown[op], 0.99);
      const ratio = g50 / f50;
      const label = op === "comment" ? "comment transition with the handler's reads" : op;
      rows.push(
        row(
          section,
          `${label} p50 / p99, goal with ${what}; store + kernel, no HTTP (was ${TODAY[op]} at 20,000 on main)`,
          `${ms(g50)} / ${ms(g99)}`,
          "p99 < 20 ms",
          g99 < 20,
        ),
        row(
          section,
          `${label} p50 / p99, fresh goal; grown ÷ fresh p50 (${cycles} alternating cycles)`,
          `${ms(quantile(timings.fresh[op], 0.5))} / ${ms(quantile(timings.fresh[op], 0.99))}; ${ratio.toFixed(2)}×`,
          "≤ 1.5×",
          ratio <= 1.5,
        ),
      );
    }
    rows.push(...(await lookupPlanRows(store, section, grown.goal.id, what)));
    return rows;
  } finally {
    await store.close();
  }
}

/**
 * Claims each session makes before the clock starts. A connection prepares each statement
 * on its first use, and PostgreSQL plans it afresh for its first five executions there; the
 * windowed load is large. Unwarmed, 32 new sessions sharing a 300-goal drain (about ten
 * claims each) would time mostly that, not the claims a serving App makes.
 */
const CLAIM_WARMUP = 6;

export async function grownClaimRows(pg: BenchPostgres): Promise<Row[]> {
  const section = `tick claims on grown goals (${pg.source})`;
  // The same drain on one-todo goals, just before, as the machine's load at this moment.
  const fresh = await benchClaims(await pg.freshDatabase("claims_fresh"), {
    goals: 300,
    warmup: CLAIM_WARMUP,
  });
  const r = await benchClaims(await pg.freshDatabase("claims_grown"), {
    goals: 300,
    warmup: CLAIM_WARMUP,
    history: async (url, goalIds) => {
      for (const id of goalIds) {
        await seedHistory(url, id, {
          todos: 1_000,
          gates: 0,
          prs: 0,
          events: 0,
          notes: 0,
        });
      }
    },
  });
  return [
    row(
      section,
      `claims/s, ${r.claimers}-way over ${r.goals} goals of 1,001 todos (1,000 done, seeded as rows); each session's statements warmed by ${CLAIM_WARMUP} claims first, uncounted, as a serving App's connections have them`,
      r.claimsPerSec.toFixed(0),
      "≥ 300/s",
      r.claimsPerSec >= 300,
    ),
    row(
      section,
      `claims/s, same drain on ${fresh.goals} one-todo goals, just before (context)`,
      fresh.claimsPerSec.toFixed(0),
    ),
    row(
      section,
      "double claims (both drains)",
      String(r.doubleClaims + fresh.doubleClaims),
      "exactly 0",
      r.doubleClaims + fresh.doubleClaims === 0,
    ),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const pg = await benchPostgres();
  if (!pg) throw new Error("no PostgreSQL: set BENCH_DATABASE_URL or install postgresql");
  try {
    const claimsOnly = process.env.BENCH_GROWTH === "claims";
    const rows = [
      ...(claimsOnly ? [] : await guarded("goal growth", () => growthRows(pg))),
      ...(await guarded("claims on grown goals", () => grownClaimRows(pg))),
    ];
    for (const r of rows) {
      console.log(
        `${r.figure}: ${r.value}   target ${r.target}${r.met === null ? "" : r.met ? " met" : " NOT MET"}`,
      );
    }
  } finally {
    await pg.stop();
  }
}
