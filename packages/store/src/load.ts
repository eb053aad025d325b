/** Loading one goal's aggregate, trimmed to what decide() and the transitions need. */
import { GoalState } from "@loopx/core";
import { and, asc, desc, eq, gt, gte, isNull, or, sql } from "drizzle-orm";
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
import type { Db } from "./db.ts";
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

  const [todos, gates, ticks, evidence, handoffs, notes, prs] = await Promise.all([
    db.select().from(s.todos).where(eq(s.todos.goalId, id)).orderBy(asc(s.todos.ordinal)),
    db.select().from(s.gates).where(eq(s.gates.goalId, id)).orderBy(asc(s.gates.ordinal)),
    db
      .select()
      .from(s.ticks)
      .where(
        and(
          eq(s.ticks.goalId, id),
          or(
            isNull(s.ticks.finishedAt),
            gte(s.ticks.startedAt, quotaStart),
            gte(s.ticks.number, firstRecentTick),
          ),
        ),
      )
      .orderBy(asc(s.ticks.number)),
    // The newest rows by insertion order; reversed below to oldest first.
    db
      .select()
      .from(s.evidence)
      .where(eq(s.evidence.goalId, id))
      .orderBy(desc(s.evidence.seq))
      .limit(window.recentEvidence),
    db
      .select()
      .from(s.handoffs)
      .where(eq(s.handoffs.goalId, id))
      .orderBy(desc(s.handoffs.seq))
      .limit(window.recentHandoffs),
    db
      .select()
      .from(s.notes)
      .where(
        and(
          eq(s.notes.goalId, id),
          or(
            isNull(s.notes.deliveredTo),
            gt(
              s.notes.seq,
              sql`(SELECT coalesce(max(seq), 0) - ${window.recentNotes} FROM notes WHERE goal_id = ${id})`,
            ),
          ),
        ),
      )
      .orderBy(asc(s.notes.seq)),
    db
      .select()
      .from(s.pullRequests)
      .where(eq(s.pullRequests.goalId, id))
      .orderBy(asc(s.pullRequests.seq)),
  ]);

  return GoalState.parse({
    goal: rawGoal,
    todos: todos.map(rowToTodo),
    gates: gates.map(rowToGate),
    ticks: ticks.map(rowToTick),
    evidence: evidence.reverse().map(rowToEvidence),
    handoffs: handoffs.reverse().map(rowToHandoff),
    notes: notes.map(rowToNote),
    pullRequests: prs.map(rowToPullRequest),
  });
}
