import { eq, inArray } from "drizzle-orm";
import type { Db } from "./db.ts";
import * as s from "./schema/index.ts";

/** Goals that can still do something (not done, not already stopped). */
const LIVE = ["active", "paused"];

/** The live goals of an installation: what an uninstall or a suspension stops or pauses. */
export async function goalIdsByInstallation(db: Db, installationId: number): Promise<string[]> {
  const rows = await db
    .select({ id: s.goals.id, status: s.goals.status })
    .from(s.goals)
    .where(eq(s.goals.installationId, installationId));
  return rows.filter((r) => LIVE.includes(r.status)).map((r) => r.id);
}

/**
 * Every goal of some repositories, whatever its status (a rename must reach finished goals
 * too; callers that stop goals skip those already stopped or done).
 */
export async function goalIdsByRepos(db: Db, repoIds: readonly number[]): Promise<string[]> {
  if (repoIds.length === 0) return [];
  const rows = await db
    .select({ id: s.goals.id })
    .from(s.goals)
    .where(inArray(s.goals.repoId, [...repoIds]));
  return rows.map((r) => r.id);
}
