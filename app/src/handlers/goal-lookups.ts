import type { TransitionResult } from "@loopx/core";
import type { Store } from "@loopx/store";
import { tables } from "@loopx/store";
import { and, eq, sql } from "drizzle-orm";

/**
 * Whether a comment already caused an accepted transition on this goal. The delivery id
 * dedups GitHub's redeliveries; this catches the same comment arriving under another
 * delivery id (a reconciler replay, a duplicated hook). Events of a command carry its
 * comment id (see tagWithComment), so the ledger is the record.
 */
export async function commentAlreadyApplied(
  store: Store,
  goalId: string,
  commentId: number,
): Promise<boolean> {
  const rows = await store.db
    .select({ id: tables.events.id })
    .from(tables.events)
    .where(
      and(
        eq(tables.events.goalId, goalId),
        sql`${tables.events.data}->>'commentId' = ${String(commentId)}`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Stamps every event of a transition with the comment that caused it (the audit trail). */
export function tagWithComment(result: TransitionResult, commentId: number): TransitionResult {
  if (!result.ok) return result;
  return {
    ...result,
    events: result.events.map((e) => ({ ...e, data: { ...e.data, commentId: String(commentId) } })),
  };
}

/** Goals of this repository with a gate bound to, or a link to, pull request `pr`. */
export async function goalIdsForPull(store: Store, repoId: number, pr: number): Promise<string[]> {
  const { goals, gates, pullRequests } = tables;
  const viaGates = store.db
    .selectDistinct({ id: goals.id })
    .from(goals)
    .innerJoin(gates, eq(gates.goalId, goals.id))
    .where(and(eq(goals.repoId, repoId), eq(gates.prNumber, pr)));
  const viaLinks = store.db
    .selectDistinct({ id: goals.id })
    .from(goals)
    .innerJoin(pullRequests, eq(pullRequests.goalId, goals.id))
    .where(and(eq(goals.repoId, repoId), eq(pullRequests.number, pr)));
  const rows = [...(await viaGates), ...(await viaLinks)];
  return [...new Set(rows.map((r) => r.id))];
}
