/**
 * Due goals whose tick the app dispatches itself (cron is only a backstop). Any replica may
 * run this: candidate rows are taken with `FOR UPDATE SKIP LOCKED`, and a conditional upsert
 * of the goal's dispatch marker decides, on the latest committed row, who dispatches.
 */
import { and, eq, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { type Db, rowsOf } from "./db.ts";
import * as s from "./schema/index.ts";

export interface DueGoal {
  goalId: string;
  installationId: number;
  repoId: number;
  owner: string;
  name: string;
  issueNumber: number;
}

export interface TakeDueOptions {
  /** Only this repository's goals (the cron backstop's `/api/v1/wake`). */
  repoId?: number | undefined;
  limit?: number | undefined;
  /**
   * A goal already dispatched for the same wake instant is dispatched again only after this
   * long (its run may never have started, or its ask answered "wait"). Default 15 minutes.
   */
  redispatchMs?: number | undefined;
  /**
   * Only goals due for at least this long (default 0). The app's timer uses a grace period:
   * a transition that made a goal due dispatched it itself through the outbox.
   */
  graceMs?: number | undefined;
}

const Candidate = z.object({
  id: z.string(),
  installation_id: z.coerce.number(),
  repo_id: z.coerce.number(),
  repo_owner: z.string(),
  repo_name: z.string(),
  issue_number: z.coerce.number(),
  next_wake_at: z.coerce.date(),
});
const Taken = z.object({ goal_id: z.string() });

/**
 * Whether a tick claimed since the marker's dispatch (in the marker's slot when `inSlot`): the
 * run that dispatch started has asked. A tick's `started_at` is the database clock as the App
 * read it back, to the millisecond, so the dispatch's is cut to the millisecond before they
 * are compared: a claim in the same millisecond as the dispatch is not older than it.
 * `marker` is the tick_dispatches alias.
 */
function claimedSince(marker: string, opts: { inSlot: boolean }): SQL {
  const m = sql.raw(marker);
  const slot = opts.inSlot ? sql`AND t.slot = ${m}.slot` : sql``;
  return sql`EXISTS (SELECT 1 FROM ticks t WHERE t.goal_id = ${m}.goal_id ${slot}
                       AND t.started_at >= date_trunc('milliseconds', ${m}.dispatched_at))`;
}

/**
 * Whether the run the marker's dispatch started may have had its look: a tick of the goal
 * claimed since, or there is no known run to wait for (a sweep that declined to dispatch, or
 * GitHub did not say which run it started). Until then that run has not asked, and it will
 * see the newest state when it does, so a wake that moved meanwhile needs no second run (it
 * would only queue in the same concurrency group and answer "wait").
 */
function askedSince(marker: string): SQL {
  return sql`(${sql.raw(marker)}.run_id IS NULL OR ${claimedSince(marker, { inSlot: false })})`;
}

/** The sweep's candidate query (exported so the bench can EXPLAIN exactly what runs). */
export function dueCandidatesQuery(opts: TakeDueOptions = {}): SQL {
  const limit = opts.limit ?? 20;
  const quietSecs = (opts.redispatchMs ?? 15 * 60_000) / 1000;
  const graceSecs = (opts.graceMs ?? 0) / 1000;
  const repoFilter = opts.repoId === undefined ? sql`` : sql`AND g.repo_id = ${opts.repoId}`;
  return sql`
        SELECT g.id, g.installation_id, g.repo_id, g.repo_owner, g.repo_name, g.issue_number,
               g.next_wake_at
        FROM goals g
        LEFT JOIN tick_dispatches d ON d.goal_id = g.id AND d.slot = ''
        WHERE g.status = 'active' ${repoFilter}
          AND g.next_wake_at <= now() - make_interval(secs => ${graceSecs})
          AND (SELECT count(*) FROM ticks t WHERE t.goal_id = g.id
               AND t.finished_at IS NULL AND t.lease_expires_at > now()) < g.parallel
          AND (d.goal_id IS NULL
               OR d.dispatched_at <= now() - make_interval(secs => ${quietSecs})
               OR (d.wake_at IS DISTINCT FROM g.next_wake_at AND ${askedSince("d")}))
        ORDER BY g.next_wake_at, g.id
        LIMIT ${limit}
        FOR UPDATE OF g SKIP LOCKED`;
}

/**
 * Active goals with `next_wake_at <= now()` and no live lease, not dispatched for that wake
 * instant within `redispatchMs`. Marks each one dispatched (in the same transaction) before
 * returning it, so the caller must dispatch it — or call `releaseDispatch` if it cannot.
 */
export async function takeDueDispatches(db: Db, opts: TakeDueOptions = {}): Promise<DueGoal[]> {
  const quietSecs = (opts.redispatchMs ?? 15 * 60_000) / 1000;
  return db.transaction(async (tx) => {
    const candidates = rowsOf(await tx.execute(dueCandidatesQuery(opts))).map((r) =>
      Candidate.parse(r),
    );
    const taken: DueGoal[] = [];
    for (const c of candidates) {
      // Re-checked on the newest marker row: a replica that raced us past the SELECT loses here.
      const won = rowsOf(
        await tx.execute(sql`
          INSERT INTO tick_dispatches (goal_id, slot, wake_at, dispatched_at, run_id)
          SELECT g.id, '', g.next_wake_at, now(), NULL FROM goals g WHERE g.id = ${c.id}
          ON CONFLICT (goal_id, slot) DO UPDATE
            SET wake_at = EXCLUDED.wake_at, dispatched_at = now(), run_id = NULL
            WHERE tick_dispatches.dispatched_at <= now() - make_interval(secs => ${quietSecs})
               OR (tick_dispatches.wake_at IS DISTINCT FROM EXCLUDED.wake_at
                   AND ${askedSince("tick_dispatches")})
          RETURNING goal_id`),
      ).map((r) => Taken.parse(r));
      if (won.length === 0) continue;
      taken.push({
        goalId: c.id,
        installationId: c.installation_id,
        repoId: c.repo_id,
        owner: c.repo_owner,
        name: c.repo_name,
        issueNumber: c.issue_number,
      });
    }
    return taken;
  });
}

/**
 * Records a dispatch made elsewhere (the outbox's `dispatch` effect) for the goal's current
 * wake instant, so the timer does not dispatch the same wake again.
 */
export async function markDispatched(db: Db, goalId: string): Promise<void> {
  await db.execute(sql`
    INSERT INTO tick_dispatches (goal_id, slot, wake_at, dispatched_at, run_id)
    SELECT g.id, '', g.next_wake_at, now(), NULL FROM goals g WHERE g.id = ${goalId}
    ON CONFLICT (goal_id, slot) DO UPDATE
      SET wake_at = EXCLUDED.wake_at, dispatched_at = now(), run_id = NULL`);
}

const Reserved = z.object({ slot: z.string() });

/**
 * Takes the first of `slots` (in order) that no dispatch is pending for, marking it
 * dispatched; null when every one is pending. A slot's dispatch is pending from when it was
 * made until a tick claims in that slot, or for `redispatchMs` (default 15 minutes) if none
 * does (its run never started, or its ask answered "wait"). Each slot is one conditional
 * upsert on the newest marker row, so of two concurrent callers only one wins a slot: the
 * other goes on to the next.
 */
export async function reserveDispatchSlot(
  db: Db,
  goalId: string,
  slots: readonly string[],
  redispatchMs = 15 * 60_000,
): Promise<string | null> {
  const quietSecs = redispatchMs / 1000;
  for (const slot of slots) {
    const won = rowsOf(
      await db.execute(sql`
        INSERT INTO tick_dispatches (goal_id, slot, wake_at, dispatched_at, run_id)
        VALUES (${goalId}, ${slot}, NULL, now(), NULL)
        ON CONFLICT (goal_id, slot) DO UPDATE
          SET dispatched_at = now(), run_id = NULL
          WHERE tick_dispatches.dispatched_at <= now() - make_interval(secs => ${quietSecs})
             OR ${claimedSince("tick_dispatches", { inSlot: true })}
        RETURNING slot`),
    ).map((r) => Reserved.parse(r));
    if (won.length > 0) return slot;
  }
  return null;
}

/** The dispatch did not happen (GitHub refused or was down): the next pass may try again. */
export async function releaseDispatch(db: Db, goalId: string, slot = ""): Promise<void> {
  await db
    .delete(s.tickDispatches)
    .where(and(eq(s.tickDispatches.goalId, goalId), eq(s.tickDispatches.slot, slot)));
}

/** Remembers the run GitHub started for a dispatch, so a failed run can be traced to its goal. */
export async function recordDispatchRun(
  db: Db,
  goalId: string,
  runId: number,
  slot = "",
): Promise<void> {
  await db
    .update(s.tickDispatches)
    .set({ runId })
    .where(and(eq(s.tickDispatches.goalId, goalId), eq(s.tickDispatches.slot, slot)));
}

/**
 * The run a dispatch started ended without ever asking (it failed before it reached the API):
 * it will not take its look, so its marker stops holding the goal's next dispatch back for
 * the quiet interval. The run stays recorded, so a redelivery of its end still finds the goal.
 */
export async function endDispatchedRun(db: Db, runId: number): Promise<void> {
  await db
    .update(s.tickDispatches)
    .set({ dispatchedAt: new Date(0) })
    .where(eq(s.tickDispatches.runId, runId));
}

/** The goal whose dispatch started this run, if the app recorded it. */
export async function goalOfDispatchedRun(db: Db, runId: number): Promise<string | null> {
  const [row] = await db
    .select({ goalId: s.tickDispatches.goalId })
    .from(s.tickDispatches)
    .where(eq(s.tickDispatches.runId, runId))
    .limit(1);
  return row?.goalId ?? null;
}
