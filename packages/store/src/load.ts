/** Loading one goal's aggregate, trimmed to what decide() and the transitions need. */
import { GoalState } from "@loopx/core";
import { getTableColumns, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
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
import * as s from "./schema/index.ts";

/** How much history an aggregate carries. Open ticks and the quota window are always included. */
export interface LoadWindow {
  recentTicks: number;
  recentEvidence: number;
  recentHandoffs: number;
  recentNotes: number;
}

export const DEFAULT_WINDOW: LoadWindow = {
  recentTicks: 20,
  recentEvidence: 200,
  recentHandoffs: 10,
  recentNotes: 50,
};

export type GoalRow = typeof s.goals.$inferSelect;

const JsonRows = z.array(z.record(z.string(), z.unknown()));
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
 * A row that came back inside `json_agg` (column names, JSON values) turned into the row
 * drizzle would have read, through each column's own driver mapping (timestamps to Dates,
 * bigints to numbers). The kernel's schemas parse the result again, so nothing unvalidated
 * reaches it.
 */
function fromJson<T extends PgTable>(table: T, json: Record<string, unknown>): T["$inferSelect"] {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const raw = json[column.name];
    out[key] = raw === null || raw === undefined ? null : column.mapFromDriverValue(raw);
  }
  return out as T["$inferSelect"];
}

/** Builds the aggregate around an already-read (and, in a transaction, locked) goal row. */
export async function loadAggregate(
  db: Db,
  goal: GoalRow,
  now: Date,
  window: LoadWindow = DEFAULT_WINDOW,
): Promise<GoalState> {
  const id = goal.id;
  const rawGoal = rowToGoal(goal);
  const parsedGoal = GoalState.shape.goal.parse(rawGoal);
  const quotaStart = new Date(now.getTime() - parsedGoal.quota.windowHours * 3_600_000);
  const firstRecentTick = parsedGoal.counters.tick - window.recentTicks;

  // One round trip for the whole aggregate: a claim or a webhook transition is dominated by
  // statement count, not by the size of what it reads.
  const [row] = rowsOf(
    await db.execute(sql`
      SELECT
        (SELECT coalesce(json_agg(t ORDER BY t.ordinal), '[]'::json)
           FROM todos t WHERE t.goal_id = ${id}) AS todos,
        (SELECT coalesce(json_agg(g ORDER BY g.ordinal), '[]'::json)
           FROM gates g WHERE g.goal_id = ${id}) AS gates,
        (SELECT coalesce(json_agg(k ORDER BY k.number), '[]'::json)
           FROM ticks k
          WHERE k.goal_id = ${id}
            AND (k.finished_at IS NULL OR k.started_at >= ${quotaStart.toISOString()}::timestamptz
                 OR k.number >= ${firstRecentTick})) AS ticks,
        (SELECT coalesce(json_agg(e ORDER BY e.seq), '[]'::json)
           FROM (SELECT * FROM evidence WHERE goal_id = ${id}
                 ORDER BY seq DESC LIMIT ${window.recentEvidence}) e) AS evidence,
        (SELECT coalesce(json_agg(h ORDER BY h.seq), '[]'::json)
           FROM (SELECT * FROM handoffs WHERE goal_id = ${id}
                 ORDER BY seq DESC LIMIT ${window.recentHandoffs}) h) AS handoffs,
        (SELECT coalesce(json_agg(n ORDER BY n.seq), '[]'::json)
           FROM notes n
          WHERE n.goal_id = ${id}
            AND (n.delivered_to IS NULL
                 OR n.seq > (SELECT coalesce(max(seq), 0) - ${window.recentNotes}
                               FROM notes WHERE goal_id = ${id}))) AS notes,
        (SELECT coalesce(json_agg(p ORDER BY p.seq), '[]'::json)
           FROM pull_requests p WHERE p.goal_id = ${id}) AS prs`),
  );
  const rows = AggregateRows.parse(row);
  const todos = rows.todos.map((r) => fromJson(s.todos, r));
  const gates = rows.gates.map((r) => fromJson(s.gates, r));
  const ticks = rows.ticks.map((r) => fromJson(s.ticks, r));
  const evidence = rows.evidence.map((r) => fromJson(s.evidence, r));
  const handoffs = rows.handoffs.map((r) => fromJson(s.handoffs, r));
  const notes = rows.notes.map((r) => fromJson(s.notes, r));
  const prs = rows.prs.map((r) => fromJson(s.pullRequests, r));

  return GoalState.parse({
    goal: rawGoal,
    todos: todos.map(rowToTodo),
    gates: gates.map(rowToGate),
    ticks: ticks.map(rowToTick),
    evidence: evidence.map(rowToEvidence),
    handoffs: handoffs.map(rowToHandoff),
    notes: notes.map(rowToNote),
    pullRequests: prs.map(rowToPullRequest),
  });
}
