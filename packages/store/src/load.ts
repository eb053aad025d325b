/** Loading one goal's aggregate, trimmed to what decide() and the transitions need. */
import { GoalState } from "@loopx/core";
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { PgDialect, type PgTable } from "drizzle-orm/pg-core";
import { z } from "zod";
import {
  rowToEvidence,
  rowToGate,
  rowToGoal,
  rowToHandoff,
  rowToNote,
  rowToPullRequest,
  rowToTick,
  rowToTodo,
} from "./codec.ts";
import { type Db, rowsOf } from "./db.ts";
import { pipelined } from "./errors.ts";
import {
  DEFAULT_WINDOW,
  gateWindow,
  type LoadWindow,
  literal,
  noteWindow,
  pullWindow,
  todoWindow,
} from "./load-window.ts";
import * as s from "./schema/index.ts";

export type GoalRow = typeof s.goals.$inferSelect;

const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
/**
 * A collection's rows as json_agg gives them: objects, checked and not copied (z.record would
 * copy every column of every row once more); toState maps their columns and GoalState parses
 * the result.
 */
const JsonRows = z.array(
  z.custom<Record<string, unknown>>(isJsonObject, "a collection's row is not a JSON object"),
);
const AggregateRows = z.object({
  todos: JsonRows,
  gates: JsonRows,
  ticks: JsonRows,
  evidence: JsonRows,
  handoffs: JsonRows,
  notes: JsonRows,
  prs: JsonRows,
});

/**
 * A row that came back inside `json_agg` or from raw SQL (column names, JSON or driver
 * values) turned into the row drizzle would have read, through each column's own driver
 * mapping (timestamps to Dates, bigints to numbers). The kernel's schemas (and the inbox's
 * handlers) parse the result again, so nothing unvalidated reaches them.
 */
export function fromJson<T extends PgTable>(
  table: T,
  json: Record<string, unknown>,
): T["$inferSelect"] {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const raw = json[column.name];
    out[key] = raw === null || raw === undefined ? null : column.mapFromDriverValue(raw);
  }
  return out as T["$inferSelect"];
}

/**
 * The aggregate's collections as seven columns of one SELECT, for the goal whose id is
 * `id`. `quotaStart` and `firstRecentTick` bound the windowed ticks; all three are SQL, so
 * the goal row may come from the same statement (see lockAndLoad).
 */
function collectionColumns(id: SQL, quotaStart: SQL, firstRecentTick: SQL, window: LoadWindow) {
  return sql`
        (SELECT coalesce(json_agg(t ORDER BY t.ordinal), '[]'::json)
           FROM todos t WHERE t.goal_id = ${id} AND ${todoWindow(id, window)}) AS todos,
        (SELECT coalesce(json_agg(g ORDER BY g.ordinal), '[]'::json)
           FROM gates g WHERE g.goal_id = ${id} AND ${gateWindow(id, window)}) AS gates,
        (SELECT coalesce(json_agg(k ORDER BY k.number), '[]'::json)
           FROM ticks k
          WHERE k.goal_id = ${id}
            AND (k.finished_at IS NULL OR k.started_at >= ${quotaStart}
                 OR k.number >= ${firstRecentTick})) AS ticks,
        (SELECT coalesce(json_agg(e ORDER BY e.seq), '[]'::json)
           FROM (SELECT * FROM evidence WHERE goal_id = ${id}
                 ORDER BY seq DESC LIMIT ${literal(window.recentEvidence)}) e) AS evidence,
        (SELECT coalesce(json_agg(h ORDER BY h.seq), '[]'::json)
           FROM (SELECT * FROM handoffs WHERE goal_id = ${id}
                 ORDER BY seq DESC LIMIT ${literal(window.recentHandoffs)}) h) AS handoffs,
        (SELECT coalesce(json_agg(n ORDER BY n.seq), '[]'::json)
           FROM notes n WHERE n.goal_id = ${id} AND ${noteWindow(id, window)}) AS notes,
        (SELECT coalesce(json_agg(p ORDER BY p.seq), '[]'::json)
           FROM pull_requests p WHERE p.goal_id = ${id} AND ${pullWindow(id, window)}) AS prs`;
}

const dialect = new PgDialect();
const ownColumnsByWindow = new WeakMap<LoadWindow, SQL>();

/**
 * collectionColumns of the statement's own goal row (`goals` as `lg`), as SQL text built once
 * per window object (the store's are constants): it binds no value, and drizzle walking its tree on every load cost a webhook
 * transition more CPU than building the rest of its statements.
 */
function ownCollectionColumns(window: LoadWindow): SQL {
  const kept = ownColumnsByWindow.get(window);
  if (kept) return kept;
  const built = dialect.sqlToQuery(
    collectionColumns(
      sql`lg.id`,
      sql`now() - (lg.quota->>'windowHours')::float8 * interval '1 hour'`,
      sql`(lg.counters->>'tick')::int - ${literal(window.recentTicks)}`,
      window,
    ),
  );
  if (built.params.length > 0) {
    throw new Error(
      "a load window's collection columns bind no value: write its sizes with literal()",
    );
  }
  const made = sql.raw(built.sql);
  ownColumnsByWindow.set(window, made);
  return made;
}

function toState(goal: GoalRow, row: unknown): GoalState {
  const rows = AggregateRows.parse(row);
  return GoalState.parse({
    goal: rowToGoal(goal),
    todos: rows.todos.map((r) => rowToTodo(fromJson(s.todos, r))),
    gates: rows.gates.map((r) => rowToGate(fromJson(s.gates, r))),
    ticks: rows.ticks.map((r) => rowToTick(fromJson(s.ticks, r))),
    evidence: rows.evidence.map((r) => rowToEvidence(fromJson(s.evidence, r))),
    handoffs: rows.handoffs.map((r) => rowToHandoff(fromJson(s.handoffs, r))),
    notes: rows.notes.map((r) => rowToNote(fromJson(s.notes, r))),
    pullRequests: rows.prs.map((r) => rowToPullRequest(fromJson(s.pullRequests, r))),
  });
}

/** Builds the aggregate around an already-read (and, in a transaction, locked) goal row. */
export async function loadAggregate(
  db: Db,
  goal: GoalRow,
  now: Date,
  window: LoadWindow = DEFAULT_WINDOW,
): Promise<GoalState> {
  const parsedGoal = GoalState.shape.goal.parse(rowToGoal(goal));
  const quotaStart = new Date(now.getTime() - parsedGoal.quota.windowHours * 3_600_000);
  const firstRecentTick = parsedGoal.counters.tick - window.recentTicks;
  // One round trip for the whole aggregate: a claim or a webhook transition is dominated by
  // statement count, not by the size of what it reads.
  const [row] = rowsOf(
    await db.execute(
      sql`SELECT ${collectionColumns(
        sql`${goal.id}`,
        sql`${quotaStart.toISOString()}::timestamptz`,
        sql`${firstRecentTick}`,
        window,
      )}`,
    ),
  );
  return toState(goal, row);
}

const Found = z.object({ goal: z.record(z.string(), z.unknown()) });
const Locked = Found.extend({ now: z.coerce.date() });
const Commented = Found.extend({ applied: z.boolean() });

/** The goal matching `where` (against `goals` as `lg`) with its aggregate and `extra` columns. */
async function readGoalRow(db: Db, where: SQL, window: LoadWindow, extra: SQL) {
  const [raw] = rowsOf(
    await db.execute(sql`
      SELECT row_to_json(lg) AS goal${extra}, ${ownCollectionColumns(window)}
      FROM goals lg WHERE ${where} LIMIT 1`),
  );
  return raw;
}

/**
 * Reads the goal matching `where` (written against `goals` as `lg`) with its aggregate, in
 * one statement: the row and its collections are one snapshot, and a webhook handler
 * finding its goal pays one round trip, not one for the row, the clock and the aggregate.
 */
export async function readGoal(
  db: Db,
  where: SQL,
  window: LoadWindow = DEFAULT_WINDOW,
): Promise<GoalState | null> {
  const raw = await readGoalRow(db, where, window, sql``);
  if (raw === undefined) return null;
  return toState(fromJson(s.goals, Found.parse(raw).goal), raw);
}

/**
 * readGoal for a comment's handler, with whether the comment already caused a transition
 * (`applied`, as commentLookup asks it) in the same statement: one round trip, not two.
 */
export async function readCommentedGoal(
  db: Db,
  where: SQL,
  applied: SQL,
): Promise<{ goal: GoalState; applied: boolean } | null> {
  const raw = await readGoalRow(db, where, DEFAULT_WINDOW, sql`, ${applied} AS applied`);
  if (raw === undefined) return null;
  const found = Commented.parse(raw);
  return { goal: toState(fromJson(s.goals, found.goal), raw), applied: found.applied };
}

export interface LockOptions {
  /** Pass over rows another transaction holds (the claim race) instead of waiting. */
  skipLocked?: boolean;
  /** Which of several matching goals to take first. */
  orderBy?: SQL;
  window?: LoadWindow;
  /**
   * The aggregate the caller already holds, loaded with the same window: used as is when
   * the locked row is still at its version (every change bumps it), so the request loads
   * the goal once; read afresh otherwise.
   */
  loaded?: GoalState;
}

/**
 * The setting naming the goal lockAndLoad locked, bound rather than written in: postgres.js
 * sends a statement without parameters as a simple query, parsed and planned on every call,
 * and only a bound one as a prepared statement whose plan the connection keeps.
 */
const LOCKED_GOAL = "loopx.locked_goal";

/**
 * Locks one goal row matching `where` (written against `goals`), and reads it, the
 * transaction's clock and the whole aggregate, in two statements sent together (one round
 * trip: the hot paths, claims and webhook transitions, pay per round trip).
 *
 * The aggregate must be its own statement, started after the lock is granted: a statement
 * that waited for (or raced) another transaction's lock sees the goal row as that
 * transaction left it but every other table as of its own start, so it would read todos
 * older than the goal it locked and could claim a todo twice. The first statement names
 * the goal it locked in a transaction-local setting; the second reads that setting.
 */
export async function lockAndLoad(
  tx: Db,
  where: SQL,
  opts: LockOptions = {},
): Promise<{ row: GoalRow; now: Date; state: GoalState } | null> {
  const w = opts.window ?? DEFAULT_WINDOW;
  const [locked, aggregate] = await pipelined([
    tx.execute(sql`
      WITH locked AS MATERIALIZED (
        SELECT * FROM goals WHERE ${where}
        ${opts.orderBy ? sql`ORDER BY ${opts.orderBy}` : sql``}
        LIMIT 1 FOR UPDATE${opts.skipLocked ? sql` SKIP LOCKED` : sql``})
      SELECT row_to_json(locked) AS goal, now() AS now,
             set_config(${LOCKED_GOAL}, locked.id::text, true) AS marked
      FROM locked`),
    tx.execute(sql`
      SELECT ${ownCollectionColumns(w)}
      FROM goals lg
      WHERE lg.id = nullif(current_setting(${LOCKED_GOAL}, true), '')::uuid
        ${opts.loaded ? sql`AND lg.version <> ${opts.loaded.goal.version}` : sql``}`),
  ]);
  const [raw] = rowsOf(locked);
  // Nothing locked: the second statement read a goal locked earlier, or nothing; unused.
  if (raw === undefined) return null;
  const { goal, now } = Locked.parse(raw);
  const row = fromJson(s.goals, goal);
  const [collections] = rowsOf(aggregate);
  if (collections !== undefined) return { row, now, state: toState(row, collections) };
  if (opts.loaded?.goal.id === row.id && opts.loaded.goal.version === row.version) {
    return { row, now, state: opts.loaded };
  }
  throw new Error(`goal ${row.id} was locked but not loaded`);
}
