/**
 * Which goals and pull requests a webhook is about. GitHub names a PR by number and a commit
 * by sha; the goal rows know which of them LoopX watches.
 */
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, rowsOf } from "./db.ts";
import * as s from "./schema/index.ts";

/** Goals of this repository with a gate bound to, or a link to, pull request `pr`. */
export async function goalIdsForPull(db: Db, repoId: number, pr: number): Promise<string[]> {
  const viaGates = db
    .selectDistinct({ id: s.goals.id })
    .from(s.goals)
    .innerJoin(s.gates, eq(s.gates.goalId, s.goals.id))
    .where(and(eq(s.goals.repoId, repoId), eq(s.gates.prNumber, pr)));
  const viaLinks = db
    .selectDistinct({ id: s.goals.id })
    .from(s.goals)
    .innerJoin(s.pullRequests, eq(s.pullRequests.goalId, s.goals.id))
    .where(and(eq(s.goals.repoId, repoId), eq(s.pullRequests.number, pr)));
  const rows = [...(await viaGates), ...(await viaLinks)];
  return [...new Set(rows.map((r) => r.id))];
}

/**
 * Goals of this repository still watching linked pull request `pr` (not done, the link's
 * watch not ended): whom the PR monitor reads it for. One indexed statement, so a check run
 * on a PR no goal watches, or one a finished goal followed, loads no aggregate.
 */
export async function goalIdsWatchingPull(db: Db, repoId: number, pr: number): Promise<string[]> {
  const rows = await db
    .select({ id: s.goals.id })
    .from(s.goals)
    .innerJoin(s.pullRequests, eq(s.pullRequests.goalId, s.goals.id))
    .where(
      and(
        eq(s.goals.repoId, repoId),
        eq(s.pullRequests.number, pr),
        sql`${s.goals.status} <> 'done'`,
        // PrMonitor's default: a stored monitor without the field is still watching.
        sql`(${s.pullRequests.monitor} -> 'watching') IS DISTINCT FROM 'false'::jsonb`,
      ),
    )
    .orderBy(s.goals.id);
  return [...new Set(rows.map((r) => r.id))];
}

/** Live goals with an open linked PR: what the PR backstop reads again. */
export async function goalsWatchingPulls(db: Db, limit = 50): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: s.goals.id })
    .from(s.goals)
    .innerJoin(s.pullRequests, eq(s.pullRequests.goalId, s.goals.id))
    .where(and(eq(s.pullRequests.state, "open"), inArray(s.goals.status, ["active", "paused"])))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Linked PRs of this repository whose recorded head is `sha`. */
export async function pullsWithHead(db: Db, repoId: number, sha: string): Promise<number[]> {
  const rows = await db
    .selectDistinct({ number: s.pullRequests.number })
    .from(s.pullRequests)
    .innerJoin(s.goals, eq(s.goals.id, s.pullRequests.goalId))
    .where(and(eq(s.goals.repoId, repoId), eq(s.pullRequests.headSha, sha)));
  return rows.map((r) => r.number);
}

/** Whether any event of this goal carries `commentId` (commands tag their events with it). */
export async function commentApplied(db: Db, goalId: string, commentId: number): Promise<boolean> {
  const [row] = rowsOf(await db.execute(commentLookup(goalId, commentId)));
  return Applied.parse(row).applied;
}

const Applied = z.object({ applied: z.boolean() });

/**
 * Whether an event of the goal `goalId` (SQL: a value or a column) carries `commentId`, as
 * a condition: asked for every comment on a goal, so it reads events_comment_idx, never the
 * goal's whole history. Both conditions are the index's own, so the planner can use it.
 */
export function commentEventOf(goalId: SQL, commentId: number): SQL {
  return sql`EXISTS (SELECT 1 FROM events ce
     WHERE ce.goal_id = ${goalId} AND ce.data ? 'commentId'
       AND ce.data->>'commentId' = ${String(commentId)})`;
}

/** The statement commentApplied sends (the growth bench EXPLAINs it). */
export function commentLookup(goalId: string, commentId: number): SQL {
  return sql`SELECT ${commentEventOf(sql`${goalId}::uuid`, commentId)} AS applied`;
}
