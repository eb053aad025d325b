/**
 * Active goals whose digest the scheduler should look at: never looked at yet, or due. The
 * look is a transition on the goal (row lock, version check), so two replicas taking the
 * same goal post one digest: the second finds it not due any more.
 */
import { and, asc, eq, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "./db.ts";
import type { DueGoal } from "./due-dispatches.ts";
import * as s from "./schema/index.ts";

export async function goalsDueForDigest(db: Db, limit = 20): Promise<DueGoal[]> {
  const rows = await db
    .select({
      goalId: s.goals.id,
      installationId: s.goals.installationId,
      repoId: s.goals.repoId,
      owner: s.goals.repoOwner,
      name: s.goals.repoName,
      issueNumber: s.goals.issueNumber,
    })
    .from(s.goals)
    .where(
      and(
        eq(s.goals.status, "active"),
        or(isNull(s.goals.digestDueAt), lte(s.goals.digestDueAt, sql`now()`)),
      ),
    )
    .orderBy(sql`${s.goals.digestDueAt} ASC NULLS FIRST`, asc(s.goals.id))
    .limit(limit);
  return rows;
}
