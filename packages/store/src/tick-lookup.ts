/** Small reads the tick API needs before it can apply a transition. */
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "./db.ts";
import * as s from "./schema/index.ts";

/** The goal a tick belongs to, or null: the API routes `/ticks/:id/…` by it. */
export async function goalIdOfTick(db: Db, tickId: string): Promise<string | null> {
  const [row] = await db
    .select({ goalId: s.ticks.goalId })
    .from(s.ticks)
    .where(eq(s.ticks.id, tickId))
    .limit(1);
  return row?.goalId ?? null;
}

/** Whether any tick was claimed by this workflow run (any attempt). */
export async function runHasTick(db: Db, runId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: s.ticks.id })
    .from(s.ticks)
    .where(eq(s.ticks.runId, runId))
    .limit(1);
  return row !== undefined;
}

/** The goal of an unfinished tick this workflow run claimed in this repository, or null. */
export async function goalOfLiveRunTick(
  db: Db,
  runId: number,
  repoId: number,
): Promise<string | null> {
  const [row] = await db
    .select({ goalId: s.ticks.goalId })
    .from(s.ticks)
    .innerJoin(s.goals, eq(s.goals.id, s.ticks.goalId))
    .where(and(eq(s.ticks.runId, runId), isNull(s.ticks.finishedAt), eq(s.goals.repoId, repoId)))
    .limit(1);
  return row?.goalId ?? null;
}

export interface RepoGoal {
  goalId: string;
  installationId: number;
  repoOwnerId: number;
  owner: string;
  name: string;
  issueNumber: number;
  status: string;
}

/** The goals of one repository (by GitHub's numeric id), oldest issue first. */
export async function goalsOfRepo(db: Db, repoId: number): Promise<RepoGoal[]> {
  return db
    .select({
      goalId: s.goals.id,
      installationId: s.goals.installationId,
      repoOwnerId: s.goals.repoOwnerId,
      owner: s.goals.repoOwner,
      name: s.goals.repoName,
      issueNumber: s.goals.issueNumber,
      status: s.goals.status,
    })
    .from(s.goals)
    .where(and(eq(s.goals.repoId, repoId)))
    .orderBy(s.goals.issueNumber);
}

export interface InstallationStanding {
  killed: boolean;
  suspended: boolean;
}

/** The installation's kill switch and suspension (an unknown installation is neither). */
export async function installationStanding(
  db: Db,
  installationId: number,
): Promise<InstallationStanding> {
  const [row] = await db
    .select({ killed: s.installations.killSwitch, suspendedAt: s.installations.suspendedAt })
    .from(s.installations)
    .where(eq(s.installations.id, installationId));
  return { killed: row?.killed ?? false, suspended: row?.suspendedAt != null };
}
