/** The store's one entry point: a driver underneath, the repositories on top, written once. */
import type { Effect, GoalState, TransitionResult } from "@loopx/core";
import { and, isNull, lte, sql } from "drizzle-orm";
import { sharedAllowance } from "./allowance.ts";
import {
  type ClaimedNext,
  type ClaimFn,
  type ClaimNextOptions,
  claimNextDue,
} from "./claim-next-due.ts";
import { txNow } from "./clock.ts";
import {
  goalEvents,
  goalIdByName,
  goalSummary,
  goalTicks,
  goalVersion,
  listGoalSummaries,
  liveLeases,
  repoActivity,
} from "./dashboard-reads.ts";
import { type Connection, connect, type Db, type OpenOptions } from "./db.ts";
import { goalsDueForDigest } from "./due-digests.ts";
import {
  endDispatchedRun,
  goalOfDispatchedRun,
  markDispatched,
  recordDispatchRun,
  releaseDispatch,
  reserveDispatchSlot,
  takeDueDispatches,
} from "./due-dispatches.ts";
import { endedSessions } from "./ended-sessions.ts";
import { findBySubIssue } from "./find-by-sub-issue.ts";
import { goalIdsByInstallation, goalIdsByRepos } from "./goals-by-scope.ts";
import {
  type Applied,
  type ApplyOptions,
  apply,
  createGoal,
  type DeliveryOptions,
  type Transition,
} from "./goals-repo.ts";
import {
  type Delivery,
  getDelivery,
  markDeliveriesProcessed,
  markDeliveryFailed,
  markDeliveryProcessed,
  pendingDeliveries,
} from "./inbox.ts";
import { type IntakeRecord, recordIntake } from "./intake.ts";
import { readCommentedGoal, readGoal } from "./load.ts";
import type { LoadWindow } from "./load-window.ts";
import { migrationStatus } from "./migration-status.ts";
import { createOpsStore } from "./ops-store.ts";
import {
  type DueOutboxOptions,
  deadLetter,
  deadLetters,
  dueOutbox,
  markOutboxDone,
  markOutboxFailed,
  type OutboxItem,
  outboxForGoal,
} from "./outbox.ts";
import type { InstallationInput, Store } from "./port.ts";
import {
  getProjection,
  type Projection,
  type ProjectionTarget,
  setProjection,
} from "./projections.ts";
import { type PruneOptions, pruneRetained } from "./prune.ts";
import {
  commentApplied,
  commentEventOf,
  goalIdsForPull,
  goalIdsWatchingPull,
  goalsWatchingPulls,
  pullsWithHead,
} from "./pull-links.ts";
import { queueEffects } from "./queue-effects.ts";
import { keepHandle } from "./raw-handle.ts";
import { createDeliveryRecorder } from "./record-deliveries.ts";
import * as s from "./schema/index.ts";
import {
  goalIdOfTick,
  goalOfLiveRunTick,
  goalsOfRepo,
  installationStanding,
  runHasTick,
} from "./tick-lookup.ts";
import { pruneUsedTokens, runReachedApi, useToken } from "./used-tokens.ts";

export function createStore(conn: Connection): Store {
  const db: Db = conn.db;
  const store: Store = {
    kind: conn.kind,
    migrate: () => conn.migrate(),
    close: () => conn.close(),
    migrationStatus: () => migrationStatus(db),
    databaseNow: () => txNow(db),
    ops: createOpsStore(db),
    sessions: endedSessions(db),

    createGoal: (
      build: (now: Date) => TransitionResult,
      opts?: DeliveryOptions,
    ): Promise<Applied> => createGoal(db, build, opts),
    loadGoal: (goalId: string, window?: LoadWindow): Promise<GoalState | null> =>
      readGoal(db, sql`lg.id = ${goalId}`, window),
    findGoalByIssue: (repoId: number, issueNumber: number): Promise<GoalState | null> =>
      readGoal(db, sql`lg.repo_id = ${repoId} AND lg.issue_number = ${issueNumber}`),
    findCommentedGoal: (repoId: number, issueNumber: number, commentId: number) =>
      readCommentedGoal(
        db,
        sql`lg.repo_id = ${repoId} AND lg.issue_number = ${issueNumber}`,
        commentEventOf(sql`lg.id`, commentId),
      ),
    apply: (goalId: string, transition: Transition, opts?: ApplyOptions): Promise<Applied> =>
      apply(db, goalId, transition, opts),
    claimNextDue: (agent: string, claim: ClaimFn, opts?: ClaimNextOptions): Promise<ClaimedNext> =>
      claimNextDue(db, agent, claim, opts),
    goalsWithExpiredLeases: async (limit = 100): Promise<string[]> => {
      const rows = await db
        .selectDistinct({ goalId: s.ticks.goalId })
        .from(s.ticks)
        .where(and(isNull(s.ticks.finishedAt), lte(s.ticks.leaseExpiresAt, sql`now()`)))
        .limit(limit);
      return rows.map((r) => r.goalId);
    },

    upsertInstallation: async (i: InstallationInput): Promise<void> => {
      const values = {
        id: i.id,
        accountLogin: i.accountLogin ?? null,
        accountId: i.accountId ?? null,
        accountType: i.accountType ?? null,
        spendCeiling: i.spendCeiling ?? null,
        repoSpendCeiling: i.repoSpendCeiling ?? null,
      };
      const { id: _id, ...set } = values;
      await db
        .insert(s.installations)
        .values(values)
        .onConflictDoUpdate({ target: s.installations.id, set: { ...set, updatedAt: sql`now()` } });
    },
    sharedAllowance: (goalId: string) => sharedAllowance(db, goalId),
    installationStanding: (installationId) => installationStanding(db, installationId),

    getProjection: (goalId: string, target: ProjectionTarget) => getProjection(db, goalId, target),
    setProjection: (goalId: string, target: ProjectionTarget, fields: Partial<Projection>) =>
      setProjection(db, goalId, target, fields),

    recordDelivery: createDeliveryRecorder(db),
    pendingDeliveries: (limit: number, opts?: { perInstallation?: number }): Promise<Delivery[]> =>
      pendingDeliveries(db, limit, opts),
    markDeliveryProcessed: (deliveryId: string, outcome?: string) =>
      markDeliveryProcessed(db, deliveryId, outcome),
    markDeliveriesProcessed: (marks: readonly { deliveryId: string; outcome: string }[]) =>
      markDeliveriesProcessed(db, marks),
    markDeliveryFailed: (deliveryId: string, error: string, retryAt?: Date) =>
      markDeliveryFailed(db, deliveryId, error, retryAt),
    getDelivery: (deliveryId: string) => getDelivery(db, deliveryId),
    pruneRetained: (opts: PruneOptions) => pruneRetained(db, opts),

    /** Outbox rows outside a transition (the scheduler's dispatch), at the goal's version. */
    queueEffects: (goalId: string, effects: Effect[]) => queueEffects(db, goalId, effects),
    /** An act that changes no goal: its replies and the delivery mark, one transaction. */
    recordIntake: (r: IntakeRecord) => recordIntake(db, r),
    dueOutbox: (limit: number, opts?: DueOutboxOptions): Promise<OutboxItem[]> =>
      dueOutbox(db, limit, opts),
    markOutboxDone: (id: number, opts?: { goalVersion?: number }) => markOutboxDone(db, id, opts),
    markOutboxFailed: (id: number, error: string, retryAt: Date) =>
      markOutboxFailed(db, id, error, retryAt),
    deadLetter: (id: number, reason: string) => deadLetter(db, id, reason),
    deadLetters: (goalId: string) => deadLetters(db, goalId),
    outboxForGoal: (goalId: string) => outboxForGoal(db, goalId),

    findBySubIssue: (subIssueId) => findBySubIssue(db, subIssueId),
    goalIdsByInstallation: (installationId) => goalIdsByInstallation(db, installationId),
    goalIdsByRepos: (repoIds) => goalIdsByRepos(db, repoIds),
    goalsOfRepo: (repoId) => goalsOfRepo(db, repoId),
    goalIdsForPull: (repoId, pr) => goalIdsForPull(db, repoId, pr),
    goalIdsWatchingPull: (repoId, pr) => goalIdsWatchingPull(db, repoId, pr),
    goalsWatchingPulls: (limit) => goalsWatchingPulls(db, limit),
    pullsWithHead: (repoId, sha) => pullsWithHead(db, repoId, sha),
    commentApplied: (goalId, commentId) => commentApplied(db, goalId, commentId),

    goalIdOfTick: (tickId) => goalIdOfTick(db, tickId),
    runHasTick: (runId) => runHasTick(db, runId),
    goalOfLiveRunTick: (runId, repoId) => goalOfLiveRunTick(db, runId, repoId),
    useToken: (use) => useToken(db, use),
    runReachedApi: (runId) => runReachedApi(db, runId),
    pruneUsedTokens: (retentionMs) => pruneUsedTokens(db, retentionMs),

    takeDueDispatches: (opts) => takeDueDispatches(db, opts),
    markDispatched: (goalId) => markDispatched(db, goalId),
    reserveDispatchSlot: (goalId, slots, redispatchMs) =>
      reserveDispatchSlot(db, goalId, slots, redispatchMs),
    releaseDispatch: (goalId, slot) => releaseDispatch(db, goalId, slot),
    recordDispatchRun: (goalId, runId, slot) => recordDispatchRun(db, goalId, runId, slot),
    goalOfDispatchedRun: (runId) => goalOfDispatchedRun(db, runId),
    endDispatchedRun: (runId) => endDispatchedRun(db, runId),

    listGoalSummaries: (finished) => listGoalSummaries(db, finished),
    goalSummary: (goalId) => goalSummary(db, goalId),
    repoActivity: () => repoActivity(db),
    goalsDueForDigest: (limit) => goalsDueForDigest(db, limit),
    liveLeases: () => liveLeases(db),
    goalTicks: (goalId) => goalTicks(db, goalId),
    goalVersion: (goalId) => goalVersion(db, goalId),
    goalEvents: (goalId, typePrefixes, limit) => goalEvents(db, goalId, typePrefixes, limit),
    goalIdByName: (owner, repo, issueNumber) => goalIdByName(db, owner, repo, issueNumber),
  };
  return keepHandle(store, db);
}

/**
 * PGlite when `databaseUrl` is unset (file-backed `dataDir`, or 'memory://' in tests),
 * PostgreSQL through postgres.js when it is set. Call `migrate()` before first use.
 */
export async function openStore(opts: OpenOptions): Promise<Store> {
  return createStore(await connect(opts));
}
