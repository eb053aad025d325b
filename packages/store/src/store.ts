/** The store's one entry point: a driver underneath, the repositories on top, written once. */
import type { CostLimits, Effect, GoalState, TransitionResult } from "@loopx/core";
import { and, eq, isNull, lte, sql } from "drizzle-orm";
import { sharedAllowance } from "./allowance.ts";
import { txNow } from "./clock.ts";
import { type Connection, connect, type Db, type OpenOptions } from "./db.ts";
import { findBySubIssue } from "./find-by-sub-issue.ts";
import { goalIdsByInstallation, goalIdsByRepos } from "./goals-by-scope.ts";
import {
  type Applied,
  type ApplyOptions,
  apply,
  type ClaimedNext,
  type ClaimFn,
  type ClaimNextOptions,
  claimNextDue,
  createGoal,
  type DeliveryOptions,
  loadGoalRow,
  type Transition,
} from "./goals-repo.ts";
import {
  type Delivery,
  type DeliveryInput,
  getDelivery,
  markDeliveryFailed,
  markDeliveryProcessed,
  pendingDeliveries,
  recordDelivery,
} from "./inbox.ts";
import { type IntakeRecord, recordIntake } from "./intake.ts";
import type { LoadWindow } from "./load.ts";
import {
  deadLetter,
  deadLetters,
  dueOutbox,
  markOutboxDone,
  markOutboxFailed,
  type OutboxItem,
  outboxForGoal,
} from "./outbox.ts";
import {
  getProjection,
  type Projection,
  type ProjectionTarget,
  setProjection,
} from "./projections.ts";
import { queueEffects } from "./queue-effects.ts";
import * as s from "./schema/index.ts";

export interface InstallationInput {
  id: number;
  accountLogin?: string | null;
  accountId?: number | null;
  accountType?: string | null;
  spendCeiling?: CostLimits | null;
  repoSpendCeiling?: CostLimits | null;
}

export function createStore(conn: Connection) {
  const db: Db = conn.db;
  return {
    kind: conn.kind,
    /** The drizzle handle, for tests and one-off queries; repositories go through the methods. */
    db,
    migrate: () => conn.migrate(),
    close: () => conn.close(),
    /** The database server's clock (leases are judged on it, never the caller's). */
    dbNow: () => txNow(db),

    createGoal: (
      build: (now: Date) => TransitionResult,
      opts?: DeliveryOptions,
    ): Promise<Applied> => createGoal(db, build, opts),
    loadGoal: async (goalId: string, window?: LoadWindow): Promise<GoalState | null> => {
      const [row] = await db.select().from(s.goals).where(eq(s.goals.id, goalId));
      return loadGoalRow(db, row, window);
    },
    findGoalByIssue: async (repoId: number, issueNumber: number): Promise<GoalState | null> => {
      const [row] = await db
        .select()
        .from(s.goals)
        .where(and(eq(s.goals.repoId, repoId), eq(s.goals.issueNumber, issueNumber)));
      return loadGoalRow(db, row);
    },
    apply: (goalId: string, transition: Transition, opts?: ApplyOptions): Promise<Applied> =>
      apply(db, goalId, transition, opts),
    claimNextDue: (agent: string, claim: ClaimFn, opts?: ClaimNextOptions): Promise<ClaimedNext> =>
      claimNextDue(db, agent, claim, opts),
    /** Goals holding a lease past its expiry (database clock): candidates for expireLeases. */
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

    getProjection: (goalId: string, target: ProjectionTarget) => getProjection(db, goalId, target),
    setProjection: (goalId: string, target: ProjectionTarget, fields: Partial<Projection>) =>
      setProjection(db, goalId, target, fields),

    recordDelivery: (d: DeliveryInput) => recordDelivery(db, d),
    pendingDeliveries: (limit: number, opts?: { perInstallation?: number }): Promise<Delivery[]> =>
      pendingDeliveries(db, limit, opts),
    markDeliveryProcessed: (deliveryId: string, outcome?: string) =>
      markDeliveryProcessed(db, deliveryId, outcome),
    markDeliveryFailed: (deliveryId: string, error: string, retryAt?: Date) =>
      markDeliveryFailed(db, deliveryId, error, retryAt),
    getDelivery: (deliveryId: string) => getDelivery(db, deliveryId),

    /** Outbox rows outside a transition (the scheduler's dispatch), at the goal's version. */
    queueEffects: (goalId: string, effects: Effect[]) => queueEffects(db, goalId, effects),
    /** An act that changes no goal: its replies and the delivery mark, one transaction. */
    recordIntake: (r: IntakeRecord) => recordIntake(db, r),
    dueOutbox: (limit: number, opts?: { leaseMs?: number }): Promise<OutboxItem[]> =>
      dueOutbox(db, limit, opts),
    markOutboxDone: (id: number, opts?: { goalVersion?: number }) => markOutboxDone(db, id, opts),
    markOutboxFailed: (id: number, error: string, retryAt: Date) =>
      markOutboxFailed(db, id, error, retryAt),
    deadLetter: (id: number, reason: string) => deadLetter(db, id, reason),
    deadLetters: (goalId: string) => deadLetters(db, goalId),
    outboxForGoal: (goalId: string) => outboxForGoal(db, goalId),

    /** The goal and todo whose sub-issue has this numeric issue id, or null. */
    findBySubIssue: (subIssueId: number) => findBySubIssue(db, subIssueId),
    /** Live (active or paused) goals of an installation. */
    goalIdsByInstallation: (installationId: number) => goalIdsByInstallation(db, installationId),
    /** Every goal of these repositories (by GitHub's numeric repository id). */
    goalIdsByRepos: (repoIds: readonly number[]) => goalIdsByRepos(db, repoIds),
  };
}

export type Store = ReturnType<typeof createStore>;

/**
 * PGlite when `databaseUrl` is unset (file-backed `dataDir`, or 'memory://' in tests),
 * PostgreSQL through postgres.js when it is set. Call `migrate()` before first use.
 */
export async function openStore(opts: OpenOptions): Promise<Store> {
  return createStore(await connect(opts));
}
