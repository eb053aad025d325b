/**
 * Effects queued outside a transition — the scheduler's dispatch of a due goal — written
 * as outbox rows at the goal's current version, like a transition's own.
 */
import type { Effect } from "@loopx/core";
import { eq } from "drizzle-orm";
import type { Db } from "./db.ts";
import { enqueueEffects } from "./persist.ts";
import * as s from "./schema/index.ts";

/** False when the goal is gone (nothing queued). */
export async function queueEffects(db: Db, goalId: string, effects: Effect[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [goal] = await tx
      .select({ version: s.goals.version })
      .from(s.goals)
      .where(eq(s.goals.id, goalId))
      .for("share");
    if (!goal) return false;
    await enqueueEffects(tx, effects, goalId, goal.version);
    return true;
  });
}
