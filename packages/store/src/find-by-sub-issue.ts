import { eq } from "drizzle-orm";
import type { Db } from "./db.ts";
import * as s from "./schema/index.ts";

/**
 * The goal and todo a sub-issue belongs to, by the issue's numeric id (stable across
 * transfers and renames, unlike its number), or null when it is no todo's sub-issue.
 */
export async function findBySubIssue(
  db: Db,
  subIssueId: number,
): Promise<{ goalId: string; todo: string } | null> {
  const [row] = await subIssueLookup(db, subIssueId);
  return row ?? null;
}

/**
 * The statement (the growth bench EXPLAINs it): asked for every issue closed, reopened,
 * edited or assigned, so it reads todos_sub_issue_idx, never every todo in the store.
 */
export function subIssueLookup(db: Db, subIssueId: number) {
  return db
    .select({ goalId: s.todos.goalId, todo: s.todos.key })
    .from(s.todos)
    .where(eq(s.todos.subIssueId, subIssueId))
    .limit(1);
}
