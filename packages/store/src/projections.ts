import { and, eq, sql } from "drizzle-orm";
import type { Db } from "./db.ts";
import * as s from "./schema/index.ts";

/**
 * `comment:<key>`: a keyed comment's id, or a row without one while its first POST is out.
 * `check:<name>:<sha>`: a check run LoopX created on that head and what it last wrote there.
 * `pull:<number>`: a pull request LoopX opened (or reopened) and the body it last wrote there.
 */
export type ProjectionTarget =
  | "status"
  | "body"
  | `comment:${string}`
  | `check:${string}`
  | `pull:${number}`;

export interface Projection {
  githubId: number | null;
  readBody: string | null;
  wroteBody: string | null;
  wroteIsCurrent: boolean;
}

export async function getProjection(
  db: Db,
  goalId: string,
  target: ProjectionTarget,
): Promise<Projection | null> {
  const [row] = await db
    .select({
      githubId: s.projections.githubId,
      readBody: s.projections.readBody,
      wroteBody: s.projections.wroteBody,
      wroteIsCurrent: s.projections.wroteIsCurrent,
    })
    .from(s.projections)
    .where(and(eq(s.projections.goalId, goalId), eq(s.projections.target, target)));
  return row ?? null;
}

/** Records what was written; fields left undefined keep their stored value. */
export async function setProjection(
  db: Db,
  goalId: string,
  target: ProjectionTarget,
  fields: Partial<Projection>,
): Promise<void> {
  const values = { goalId, target, ...fields, updatedAt: sql`now()` };
  const { goalId: _g, target: _t, ...update } = values;
  await db
    .insert(s.projections)
    .values(values)
    .onConflictDoUpdate({ target: [s.projections.goalId, s.projections.target], set: update });
}
