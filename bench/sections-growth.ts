/**
 * A transition's cost as a goal ages, on real PostgreSQL: ask (claim), report (a completed
 * slice) and a comment transition (a writer's `/loopx todo add`: the goal and the
 * applied-comment check read, then the transition) on a goal grown to 20,000
 * done todos, 2,000 resolved gates, 1,000 merged PRs and 100,000 events, beside a fresh
 * goal's, alternating the two in one process. The history is seeded as rows directly (real
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
import postgres from "postgres";
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

/** What seedHistory writes: finished history, and a thread of writers' notes. */
export interface HistorySize {
  todos: number;
  gates: number;
  prs: number;
  events: number;
  /** Notes earlier slices read. */
  notes: number;
}

/** History as rows: done todos, resolved gates, merged PRs, events, notes slices read. */
export async function seedHistory(url: string, goalId: string, size: HistorySize): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const completion = (n: string) =>
      `jsonb_build_object('continuation', jsonb_build_object('kind', 'goal_active'), 'evidenceIds', jsonb_build_array('00000000-0000-4000-8000-000000000001'), 'tickId', null, 'at', to_json(now() - interval '1 day' + ${n} * interval '1 second'))`;
    // Keys T2… follow the goal's one open todo T1; positions stay below it, as finished work's do.
    await sql.unsafe(
      `INSERT INTO todos (goal_id, key, ordinal, title, status, kind, position, origin, required_scopes, completion, created_at, updated_at)
       SELECT $1, 'T' || (n + 1), n + 1, 'Finished step ' || n, 'done', 'task', -n, 'human', '[]'::jsonb, ${completion("n")}, now(), now()
         FROM generate_series(1, $2::int) n`,
      [goalId, size.todos],
    );
    await sql.unsafe(
      `INSERT INTO pull_requests (goal_id, number, todo, head_ref, head_sha, state, monitor)
       SELECT $1, n, 'T' || (n + 1), 'loopx/1-T' || (n + 1), 'abcdef1234567', 'merged', '{}'::jsonb
         FROM generate_series(1, $2::int) n`,
      [goalId, size.prs],
    );
    // Half bound to a merged PR and approved (merge gates), half spent approvals (expired).
    await sql.unsafe(
      `INSERT INTO gates (goal_id, key, ordinal, question, scopes, status, requested_from, todo, pr_number, pr_head_sha, opened_at, resolved_by, resolved_at)
       SELECT $1, 'G' || n, n, 'Merge it?', '["merge"]'::jsonb,
              CASE WHEN n % 2 = 0 THEN 'approved' ELSE 'expired' END, '[]'::jsonb, NULL,
              CASE WHEN n % 2 = 0 THEN 1 + (n / 2 - 1) % $3::int END,
              CASE WHEN n % 2 = 0 THEN 'abcdef1234567' END, now(), 'bob', now()
         FROM generate_series(1, $2::int) n`,
      [goalId, size.gates, size.prs],
    );
    await sql.unsafe(
      `INSERT INTO events (goal_id, type, actor, at, data, version_before, version_after)
       SELECT $1, 'todo.added', '{"kind":"app"}'::jsonb, now(), '{}'::jsonb, 1, 1
         FROM generate_series(1, $2::int) n`,
      [goalId, size.events],
    );
    await seedNotes(sql, goalId, size.notes, true);
    await sql.unsafe(
      `UPDATE goals SET counters = jsonb_set(jsonb_set(counters, '{todo}', to_jsonb($2::int)), '{gate}', to_jsonb($3::int)) WHERE id = $1`,
      [goalId, size.todos + 2, size.gates + 1],
    );
    await sql.unsafe("ANALYZE");
  } finally {
    await sql.end({ timeout: 5 });
  }
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

/** `n` writers' notes on the goal, read by an earlier slice or still waiting for the next. */
async function seedNotes(sql: postgres.Sql, goalId: string, n: number, read: boolean) {
  await sql.unsafe(
    `INSERT INTO notes (id, goal_id, from_login, trusted, text, at, delivered_to)
     SELECT gen_random_uuid(), $1, 'bob', true, 'Note ' || n || ': keep the public API as it is.',
            now() - interval '1 day' + n * interval '1 second', $3::uuid
       FROM generate_series(1, $2::int) n`,
    [goalId, n, read ? "00000000-0000-4000-8000-000000000002" : null],
  );
}

/**
 * A thread that waited for a slice, on a goal of either age: open work, so both goals carry
 * it and the grown ÷ fresh ratio stays a measure of age. A claim delivers a slice's share.
 */
async function seedWaitingThread(url: string, goalId: string, n: number): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await seedNotes(sql, goalId, n, false);
    await sql.unsafe("ANALYZE notes");
  } finally {
    await sql.end({ timeout: 5 });
  }
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
