/**
 * The store port: every read and write the App, the CLI and the demo make on LoopX's state,
 * by name. Callers never see the database handle or the tables, so a query lives in one
 * place, next to the schema it depends on, with its test; the raw handle is for tests only
 * (`@loopx/store/testing`). Passed in, never imported as a global.
 */
import type { CostLimits, Effect, GoalState, SharedAllowance, TransitionResult } from "@loopx/core";
import type { ClaimedNext, ClaimFn, ClaimNextOptions } from "./claim-next-due.ts";
import type {
  GoalEvent,
  GoalSummary,
  LiveLease,
  RepoActivity,
  TickRecord,
} from "./dashboard-reads.ts";
import type { DueGoal, TakeDueOptions } from "./due-dispatches.ts";
import type { EndedSessions } from "./ended-sessions.ts";
import type { Applied, ApplyOptions, DeliveryOptions, Transition } from "./goals-repo.ts";
import type { Delivery, DeliveryInput } from "./inbox.ts";
import type { IntakeRecord } from "./intake.ts";
import type { LoadWindow } from "./load-window.ts";
import type { MigrationStatus } from "./migration-status.ts";
import type { OpsStore } from "./ops-store.ts";
import type { DueOutboxOptions, OutboxItem } from "./outbox.ts";
import type { Projection, ProjectionTarget } from "./projections.ts";
import type { Pruned, PruneOptions } from "./prune.ts";
import type { InstallationStanding, RepoGoal } from "./tick-lookup.ts";
import type { TokenUse } from "./used-tokens.ts";

export interface InstallationInput {
  id: number;
  accountLogin?: string | null;
  accountId?: number | null;
  accountType?: string | null;
  spendCeiling?: CostLimits | null;
  repoSpendCeiling?: CostLimits | null;
}

export interface Store {
  /** Which driver is underneath: concurrency guarantees differ (PGlite is one session). */
  readonly kind: "pglite" | "postgres";
  /** Applies the shipped migrations; call once before first use. */
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** How far the database is migrated against the migrations this code ships (read-only). */
  migrationStatus(): Promise<MigrationStatus>;
  /** The database server's clock: leases are judged on it, never on a caller's. */
  databaseNow(): Promise<Date>;

  /** The operational side (content budget, controls, cursors), kept apart from goal state. */
  readonly ops: OpsStore;
  /** Signed-out dashboard sessions, shared by every replica. */
  readonly sessions: EndedSessions;

  // Goal aggregates: every change is one kernel transition applied as one transaction.
  createGoal(build: (now: Date) => TransitionResult, opts?: DeliveryOptions): Promise<Applied>;
  loadGoal(goalId: string, window?: LoadWindow): Promise<GoalState | null>;
  findGoalByIssue(repoId: number, issueNumber: number): Promise<GoalState | null>;
  /** findGoalByIssue for a comment's handler, with commentApplied's answer, in one read. */
  findCommentedGoal(
    repoId: number,
    issueNumber: number,
    commentId: number,
  ): Promise<{ goal: GoalState; applied: boolean } | null>;
  /** Locks the goal, runs the transition on its state, commits rows, events and outbox at once. */
  apply(goalId: string, transition: Transition, opts?: ApplyOptions): Promise<Applied>;
  claimNextDue(agent: string, claim: ClaimFn, opts?: ClaimNextOptions): Promise<ClaimedNext>;
  /** Goals holding a lease past its expiry (database clock): candidates for expireLeases. */
  goalsWithExpiredLeases(limit?: number): Promise<string[]>;

  upsertInstallation(i: InstallationInput): Promise<void>;
  /** What the goal's repository and installation have spent against their ceilings. */
  sharedAllowance(goalId: string): Promise<SharedAllowance>;
  /** The installation's kill switch and suspension (an unknown installation is neither). */
  installationStanding(installationId: number): Promise<InstallationStanding>;

  getProjection(goalId: string, target: ProjectionTarget): Promise<Projection | null>;
  setProjection(
    goalId: string,
    target: ProjectionTarget,
    fields: Partial<Projection>,
  ): Promise<void>;

  // The inbox: webhooks are recorded before they are handled, and handled at most once.
  recordDelivery(d: DeliveryInput): Promise<{ inserted: boolean }>;
  pendingDeliveries(limit: number, opts?: { perInstallation?: number }): Promise<Delivery[]>;
  markDeliveryProcessed(deliveryId: string, outcome?: string): Promise<boolean>;
  /** Many at once, each with its outcome; how many were still pending. */
  markDeliveriesProcessed(
    marks: readonly { deliveryId: string; outcome: string }[],
  ): Promise<number>;
  markDeliveryFailed(deliveryId: string, error: string, retryAt?: Date): Promise<void>;
  getDelivery(deliveryId: string): Promise<Delivery | null>;
  /**
   * One batch of retention: processed deliveries, and performed or dead outbox rows no live
   * goal needs, older than `retentionMs`. The counts say whether another batch may remain.
   */
  pruneRetained(opts: PruneOptions): Promise<Pruned>;

  // The outbox: GitHub writes committed with the state that caused them, then performed.
  /**
   * Outbox rows outside a transition (the scheduler's dispatch), at the goal's version;
   * false when the goal is gone.
   */
  queueEffects(goalId: string, effects: Effect[]): Promise<boolean>;
  /**
   * An act that changes no goal (a refusal, an outsider's command, a restore): its replies
   * and the delivery mark in one transaction, no version bump; false when the delivery was
   * already processed.
   */
  recordIntake(r: IntakeRecord): Promise<boolean>;
  dueOutbox(limit: number, opts?: DueOutboxOptions): Promise<OutboxItem[]>;
  markOutboxDone(id: number, opts?: { goalVersion?: number }): Promise<boolean>;
  markOutboxFailed(id: number, error: string, retryAt: Date): Promise<void>;
  deadLetter(id: number, reason: string): Promise<void>;
  deadLetters(goalId: string): Promise<OutboxItem[]>;
  outboxForGoal(goalId: string): Promise<OutboxItem[]>;

  // Which goals a webhook is about: GitHub names issues, PRs and commits, not goals.
  /** The goal and todo whose sub-issue has this numeric issue id, or null. */
  findBySubIssue(subIssueId: number): Promise<{ goalId: string; todo: string } | null>;
  /** Live (active or paused) goals of an installation. */
  goalIdsByInstallation(installationId: number): Promise<string[]>;
  /** Every goal of these repositories (by GitHub's numeric repository id). */
  goalIdsByRepos(repoIds: readonly number[]): Promise<string[]>;
  /** The goals of one repository (by GitHub's numeric id), oldest issue first. */
  goalsOfRepo(repoId: number): Promise<RepoGoal[]>;
  /** Goals of this repository with a gate bound to, or a link to, pull request `pr`. */
  goalIdsForPull(repoId: number, pr: number): Promise<string[]>;
  /** Live goals of this repository whose link to pull request `pr` is still watched. */
  goalIdsWatchingPull(repoId: number, pr: number): Promise<string[]>;
  /** Live goals with an open linked PR (at most `limit`, default 50): what the backstop rereads. */
  goalsWatchingPulls(limit?: number): Promise<string[]>;
  /**
   * Linked PRs of this repository whose recorded head is `sha`: a commit status names no PR,
   * and check runs never list a PR whose head is in a fork.
   */
  pullsWithHead(repoId: number, sha: string): Promise<number[]>;
  /**
   * Whether a comment already caused an accepted transition on this goal. The delivery id
   * dedups GitHub's redeliveries; this catches the same comment under another delivery id
   * (a reconciler replay, a duplicated hook): a command's events carry its comment id.
   */
  commentApplied(goalId: string, commentId: number): Promise<boolean>;

  // The tick API: a workflow run proves itself with a one-use OIDC token.
  /** The goal a tick belongs to, or null: the API routes `/ticks/:id/…` by it. */
  goalIdOfTick(tickId: string): Promise<string | null>;
  /** Whether a tick was claimed by this workflow run. */
  runHasTick(runId: number): Promise<boolean>;
  /** The goal of an unfinished tick that workflow run claimed in that repository, or null. */
  goalOfLiveRunTick(runId: number, repoId: number): Promise<string | null>;
  /** Records a token's one use; false when it was used before (a replay, on any replica). */
  useToken(use: TokenUse): Promise<boolean>;
  /** Whether any token of this workflow run reached the tick API (while its rows are kept). */
  runReachedApi(runId: number): Promise<boolean>;
  /** Forgets token uses expired longer than `retentionMs` ago; returns how many went. */
  pruneUsedTokens(retentionMs: number): Promise<number>;

  // The App's own dispatches: the timer sweeps due goals; cron is only a backstop.
  /**
   * Active goals due now with no live lease and no recent dispatch for that wake instant,
   * each marked dispatched in the same transaction: the caller must dispatch it, or call
   * `releaseDispatch` if it cannot. Any replica may sweep (rows are taken SKIP LOCKED).
   */
  takeDueDispatches(opts?: TakeDueOptions): Promise<DueGoal[]>;
  /** Active goals whose digest was never looked at or is due, the longest due first. */
  goalsDueForDigest(limit?: number): Promise<DueGoal[]>;
  /** Records a dispatch made elsewhere (the outbox), so the timer does not repeat that wake. */
  markDispatched(goalId: string): Promise<void>;
  /**
   * Of a parallel goal's `slots` (in order), takes the first no dispatch is pending for
   * (made, and not yet claimed by a tick in that slot nor older than `redispatchMs`); null
   * when each one is pending. Concurrent callers never take one slot twice.
   */
  reserveDispatchSlot(
    goalId: string,
    slots: readonly string[],
    redispatchMs?: number,
  ): Promise<string | null>;
  /**
   * The dispatch did not happen (GitHub refused or was down): the next pass may try again.
   * `slot` defaults to the goal's wake marker (`""`).
   */
  releaseDispatch(goalId: string, slot?: string): Promise<void>;
  /** Remembers the run GitHub started for a dispatch (into `slot`), so a failed run traces to its goal. */
  recordDispatchRun(goalId: string, runId: number, slot?: string): Promise<void>;
  /** The goal whose dispatch started this run, if the App recorded it. */
  goalOfDispatchedRun(runId: number): Promise<string | null>;
  /** That run ended without asking: its dispatch no longer holds the next one back. */
  endDispatchedRun(runId: number): Promise<void>;

  // Read-only views for the dashboard and `loopx status` (the aggregate keeps a window only).
  /** Every active or paused goal, then the newest `finished` ended ones (default 200); newest first. */
  listGoalSummaries(finished?: number): Promise<GoalSummary[]>;
  /** One goal's summary, whatever its age or status. */
  goalSummary(goalId: string): Promise<GoalSummary | null>;
  /** Per repository: its goals and when one last moved (the live overview's stamp). */
  repoActivity(): Promise<RepoActivity[]>;
  /** Ticks still open (a slice is running, or its lapsed lease awaits the sweep). */
  liveLeases(): Promise<LiveLease[]>;
  /** Every tick of a goal, oldest first. */
  goalTicks(goalId: string): Promise<TickRecord[]>;
  /**
   * A goal's newest events (500 unless `limit` says) whose type starts with `typePrefixes`
   * (one prefix or several), oldest first.
   */
  goalEvents(
    goalId: string,
    typePrefixes: string | readonly string[],
    limit?: number,
  ): Promise<GoalEvent[]>;
  /** A goal's version and `owner/repo` (one row, cheap enough to ask every few seconds). */
  goalVersion(goalId: string): Promise<{ version: number; repo: string } | null>;
  /** The goal of one issue by repository name (goals are named owner/repo#N outside). */
  goalIdByName(owner: string, repo: string, issueNumber: number): Promise<string | null>;
}
