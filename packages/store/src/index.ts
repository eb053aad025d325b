export {
  type ContentLane,
  type ContentLimits,
  GITHUB_CONTENT_LIMITS,
  LOOPX_CONTENT_LIMITS,
  OUTSIDER_REPLY_LIMITS,
  type OutsiderLimits,
  type Reservation,
} from "./content-budget.ts";
export {
  type GoalEvent,
  type GoalSummary,
  goalEvents,
  goalIdByName,
  goalTicks,
  type LiveLease,
  listGoalSummaries,
  liveLeases,
  type TickRecord,
} from "./dashboard-reads.ts";
export { MIGRATIONS_DIR, type OpenOptions } from "./db.ts";
export {
  type DueGoal,
  dueCandidatesQuery,
  goalOfDispatchedRun,
  markDispatched,
  recordDispatchRun,
  releaseDispatch,
  type TakeDueOptions,
  takeDueDispatches,
} from "./due-dispatches.ts";
export { type EndedSessions, endedSessions } from "./ended-sessions.ts";
export { findBySubIssue } from "./find-by-sub-issue.ts";
export { goalIdsByInstallation, goalIdsByRepos } from "./goals-by-scope.ts";
export type {
  Applied,
  ApplyOptions,
  ClaimedNext,
  ClaimFn,
  ClaimNextOptions,
  DeliveryOptions,
  Transition,
} from "./goals-repo.ts";
export type { Delivery, DeliveryInput } from "./inbox.ts";
export type { IntakeRecord } from "./intake.ts";
export type { IntakeTarget } from "./intake-rows.ts";
export { DEFAULT_WINDOW, type LoadWindow } from "./load.ts";
export { type MigrationStatus, migrationStatus } from "./migration-status.ts";
export type { InstallationControls, Lag, OperationsSnapshot } from "./operations.ts";
export { createOpsStore, type OpsStore } from "./ops-store.ts";
export type { OutboxItem } from "./outbox.ts";
export type { Projection, ProjectionTarget } from "./projections.ts";
export * as tables from "./schema/index.ts";
export { createStore, type InstallationInput, openStore, type Store } from "./store.ts";
export {
  goalIdOfTick,
  goalsOfRepo,
  type InstallationStanding,
  installationStanding,
  type RepoGoal,
  runHasTick,
} from "./tick-lookup.ts";
export { pruneUsedTokens, runReachedApi, type TokenUse, useToken } from "./used-tokens.ts";
