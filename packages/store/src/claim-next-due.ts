/** Claiming the next due goal's work under contention: one row lock each, never waited on. */
import type { GoalState, Refusal, TransitionResult } from "@loopx/core";
import { sql } from "drizzle-orm";
import type { Db } from "./db.ts";
import { type Applied, commit, inWindowedTx } from "./goals-repo.ts";
import { lockAndLoad } from "./load.ts";
import { DEFAULT_WINDOW } from "./load-window.ts";

export type ClaimFn = (state: GoalState, now: Date, agent: string) => TransitionResult | null;

export interface ClaimNextOptions {
  repoId?: number | undefined;
  installationId?: number | undefined;
  /** Goals to try in one call when the first due ones yield nothing (default 3). */
  maxGoals?: number | undefined;
  /** Skip goals running as many live leases as their `parallel` allows (default true). */
  skipLeased?: boolean | undefined;
}

export type ClaimedNext =
  | ({ goalId: string } & Extract<Applied, { ok: true }>)
  | { ok: false; refusal: Refusal; skipped: { goalId: string; refusal: Refusal | null }[] };

/**
 * Claims work on a due goal. `FOR UPDATE SKIP LOCKED` hands each concurrent claimer a
 * different goal row, and the claim is applied in the same transaction, so claimers never
 * wait on each other and never both hold one todo.
 */
export async function claimNextDue(
  db: Db,
  agent: string,
  claim: ClaimFn,
  opts: ClaimNextOptions = {},
): Promise<ClaimedNext> {
  const skipped: { goalId: string; refusal: Refusal | null }[] = [];
  const outcome = await inWindowedTx(
    db,
    DEFAULT_WINDOW,
    async (tx, window): Promise<ClaimedNext> => {
      skipped.length = 0;
      for (let i = 0; i < (opts.maxGoals ?? 3); i++) {
        const conditions = [sql`status = 'active'`, sql`next_wake_at <= now()`];
        if (opts.repoId !== undefined) conditions.push(sql`repo_id = ${opts.repoId}`);
        if (opts.installationId !== undefined) {
          conditions.push(sql`installation_id = ${opts.installationId}`);
        }
        for (const k of skipped) conditions.push(sql`id <> ${k.goalId}`);
        if (opts.skipLeased !== false) {
          conditions.push(
            sql`(SELECT count(*) FROM ticks t WHERE t.goal_id = goals.id AND t.finished_at IS NULL AND t.lease_expires_at > now()) < goals.parallel`,
          );
        }
        // Row lock (skipping rows other claimers hold), clock and aggregate in one statement.
        const loaded = await lockAndLoad(tx, sql.join(conditions, sql` AND `), {
          skipLocked: true,
          orderBy: sql`next_wake_at, id`,
          window,
        });
        if (!loaded) break;
        const { row, now, state: before } = loaded;
        const result = claim(before, now, agent);
        if (result === null || !result.ok) {
          skipped.push({ goalId: row.id, refusal: result?.refusal ?? null });
          continue;
        }
        const applied = await commit(tx, before, result, {});
        if (applied.ok) return { ...applied, goalId: row.id };
      }
      return {
        ok: false,
        refusal: { code: "not_found", message: "no due goal had claimable work" },
        skipped,
      };
    },
  );
  return "skipped" in outcome || outcome.ok ? outcome : { ...outcome, skipped };
}
