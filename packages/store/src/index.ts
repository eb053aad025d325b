/**
 * The store's public face: open a store, then use the port's methods. There is no database
 * handle and no table here on purpose; tests get them from `@loopx/store/testing`.
 */

export type {
  ClaimedNext,
  ClaimFn,
  ClaimNextOptions,
} from "./claim-next-due.ts";
export {
  type ContentLane,
  type ContentLimits,
  GITHUB_CONTENT_LIMITS,
  LOOPX_CONTENT_LIMITS,
  OUTSIDER_REPLY_LIMITS,
  type OutsiderLimits,
  type Reservation,
} from "./content-budget.ts";
export type {
  GoalEvent,
  GoalSummary,
  LiveLease,
  RepoActivity,
  TickRecord,
} from "./dashboard-reads.ts";
export { MIGRATIONS_DIR, type OpenOptions } from "./db.ts";
export type { DueGoal, TakeDueOptions } from "./due-dispatches.ts";
export type { EndedSessions } from "./ended-sessions.ts";
export type {
  Applied,
  ApplyOptions,
  DeliveryOptions,
  Transition,
} from "./goals-repo.ts";
export type { Delivery, DeliveryInput } from "./inbox.ts";
export type { IntakeRecord } from "./intake.ts";
export type { IntakeTarget } from "./intake-rows.ts";
export { DEFAULT_WINDOW, FULL_WINDOW, type LoadWindow } from "./load-window.ts";
export type { MigrationStatus } from "./migration-status.ts";
export type { InstallationControls, Lag, OperationsSnapshot } from "./operations.ts";
export type { OpsStore } from "./ops-store.ts";
export type { DueOutboxOptions, OutboxItem } from "./outbox.ts";
export type { InstallationInput, Store } from "./port.ts";
export type { Projection, ProjectionTarget } from "./projections.ts";
export type { Pruned, PruneOptions } from "./prune.ts";
export { createStore, openStore } from "./store.ts";
export type { InstallationStanding, RepoGoal } from "./tick-lookup.ts";
export type { TokenUse } from "./used-tokens.ts";
