import { z } from "zod";
import type { Actor } from "./primitives.ts";
import { GateKey, Instant, Login, TodoKey, Uuid } from "./primitives.ts";
import type { GoalState } from "./state.ts";

export const EventType = z.enum([
  "goal.created",
  "goal.paused",
  "goal.resumed",
  "goal.stopped",
  "goal.done",
  "goal.replan_requested",
  "goal.budget_changed",
  "todo.added",
  "todo.edited",
  "todo.dropped",
  "todo.accepted",
  "todo.reordered",
  "todo.completed",
  "todo.awaiting_pull_request",
  "todo.awaiting_person_push",
  "todo.person_pushed",
  "todo.awaiting_job",
  "todo.job_started",
  "todo.job_finished",
  "todo.reopened",
  "todo.claimed",
  "todo.held",
  "todo.released",
  "todo.claim_taken",
  "todo.claim_released",
  "lease.renewed",
  "lease.released",
  "lease.expired",
  "tick.finished",
  "tick.interrupted",
  "quota.slot_spent",
  "cost.charged",
  "gate.opened",
  "gate.approved",
  "gate.rejected",
  "backoff.grown",
  "backoff.reset",
  "note.queued",
  "evidence.added",
  "goal.harness_changed",
  "goal.parallel_changed",
  "goal.woken",
  "goal.status_requested",
  "gate.reopened",
  "pull_request.linked",
  "goal.repo_renamed",
  "goal.projections_refreshed",
  "todo.sub_issue_linked",
  "todo.sub_issue_unlinked",
  "pull_request.requested",
  "pull_request.held",
  "pull_request.observed",
  "pull_request.merged",
  "pull_request.closed",
  "gate.expired",
  "credential.withheld",
  "goal.digest_sent",
]);
export type EventType = z.infer<typeof EventType>;

/** One accepted change, appended to the ledger: the audit trail and the receipts. */
export interface DomainEvent {
  type: EventType;
  goalId: string;
  actor: Actor;
  at: Date;
  data: Record<string, unknown>;
}

/**
 * What a transition asks to be shown on GitHub. Each has a `key`, stable within the goal:
 * the outbox writes it once (and coalesces `body`/`status`, which always render the newest
 * goal version).
 */
const IssueTarget = z.object({
  owner: z.string().min(1),
  repo: z.string().min(1),
  number: z.number().int().positive(),
});

/**
 * Something only a person can settle: a gate opened, a stall that asks for help, the budget
 * used up, an invalid `.github/loopx.yml`. `key` is stable for the occasion (the same gate
 * opening, the same stall), so it is told once; a new occasion has a new key.
 */
export const OccasionKind = z.enum([
  "gate_opened",
  "stall",
  "budget_exhausted",
  "config_invalid",
  "checks_unavailable",
  /** A todo done only in the agent's words waits for a person to tick it. */
  "evidence_awaited",
  /** Not a request: the periodic digest of a goal that runs unattended. */
  "digest",
]);
export type OccasionKind = z.infer<typeof OccasionKind>;
export const Occasion = z.object({
  kind: OccasionKind,
  key: z.string().min(1).max(120),
  at: Instant,
  /** The gate the occasion is about, for `gate_opened`. */
  gate: GateKey.nullable().default(null),
  /** The todo the occasion is about, for `evidence_awaited`. */
  todo: TodoKey.nullable().default(null),
  /** What the person is asked, in LoopX's words (never an agent's or an outsider's text). */
  text: z.string().max(2000),
});
export type Occasion = z.infer<typeof Occasion>;

export const Effect = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("body"), key: z.literal("body") }),
  z.object({ kind: z.literal("status"), key: z.literal("status") }),
  /** The check runs LoopX owns on its PRs' heads follow the newest state (see check-runs.ts). */
  z.object({ kind: z.literal("check_runs"), key: z.literal("check_runs") }),
  z.object({ kind: z.literal("tick_comment"), key: z.string(), tickId: Uuid }),
  z.object({ kind: z.literal("gate_comment"), key: z.string(), gate: GateKey }),
  z.object({ kind: z.literal("receipt"), key: z.string(), text: z.string().max(2000) }),
  z.object({
    kind: z.literal("review_request"),
    key: z.string(),
    pr: z.number().int().positive(),
    reviewers: z.array(Login),
    gate: GateKey,
  }),
  z.object({ kind: z.literal("create_sub_issue"), key: z.string(), todo: TodoKey }),
  /**
   * Todos became ready to run: under `todos: sub-issues` (read by the outbox from the
   * repository's config) each open task without a sub-issue gets one.
   */
  z.object({ kind: z.literal("todo_sub_issues"), key: z.string() }),
  /** A todo renamed inside LoopX: its sub-issue's title follows. */
  z.object({ kind: z.literal("sub_issue_title"), key: z.string(), todo: TodoKey }),
  z.object({
    kind: z.literal("close_sub_issue"),
    key: z.string(),
    todo: TodoKey,
    reason: z.enum(["completed", "not_planned"]),
  }),
  z.object({
    kind: z.literal("dispatch"),
    key: z.string(),
    reason: z.string().max(200),
    at: Instant,
    /**
     * Where to dispatch, when the one queuing it already read the config (the scheduler);
     * absent, the outbox reads the tick workflow and the default branch itself.
     */
    target: z.object({ workflow: z.string().min(1), ref: z.string().min(1) }).optional(),
  }),
  z.object({ kind: z.literal("close_issue"), key: z.literal("close_issue") }),
  /** A slice's change only a person can push (workflow files), handed over as a patch. */
  z.object({
    kind: z.literal("patch_comment"),
    key: z.string(),
    todo: TodoKey,
    headSha: z.string().min(7),
    paths: z.array(z.string().max(300)).max(50),
    patch: z.string().max(61_000),
  }),
  /**
   * A writer approved the workflow runs waiting on a PR's head: approve them where GitHub
   * lets an API do it (fork pull requests), otherwise point the person to "Approve and run".
   */
  z.object({
    kind: z.literal("approve_runs"),
    key: z.string(),
    gate: GateKey,
    pr: z.number().int().positive(),
    runIds: z.array(z.number().int().positive()).max(100),
  }),
  /**
   * The intake's writes (the kernel never asks for these): a reply to a person's act, a
   * reaction to their command, a restore of text a body write overwrote. They name their
   * issue themselves, because some concern an issue with no goal.
   */
  z.object({
    kind: z.literal("reply"),
    key: z.string().min(1).max(200),
    issue: IssueTarget,
    body: z.string().max(20_000),
    /** `outsider`: written from the outsiders' reply allowance; spent, nothing is sent. */
    lane: z.enum(["loopx", "outsider"]),
    to: z.object({ repoId: z.number().int().positive(), login: z.string().min(1).max(100) }),
  }),
  z.object({
    kind: z.literal("react"),
    key: z.string().min(1).max(200),
    issue: IssueTarget,
    commentId: z.number().int().positive(),
    content: z.enum(["eyes", "+1", "confused"]),
  }),
  z.object({
    kind: z.literal("restore_body"),
    key: z.string().min(1).max(200),
    issue: IssueTarget,
    /** The body the restore was planned against: changed since, that newer edit stands. */
    expected: z.string().max(65_536),
    body: z.string().max(65_536),
  }),
  /**
   * Cancel the workflow run of a tick a person stopped or paused; if it is still not completed
   * five minutes after `at`, force-cancel it (its `always()` steps hang or ignore the signal).
   */
  z.object({
    kind: z.literal("cancel_run"),
    key: z.string(),
    tickId: Uuid,
    runId: z.number().int().positive(),
    at: Instant,
  }),
  /**
   * One new comment mentioning the goal's owners who have write access when it is posted;
   * `reminder`: the same once more after the configured delay, if the occasion still waits.
   */
  z.object({
    kind: z.literal("notify"),
    key: z.string(),
    occasion: Occasion,
    reminder: z.boolean(),
  }),
  /** Dispatch a listed job's workflow on a todo's branch; the todo waits for its run. */
  z.object({
    kind: z.literal("dispatch_job"),
    key: z.string(),
    todo: TodoKey,
    job: z.string().min(1).max(100),
    workflow: z.string().min(1).max(200),
    ref: z.string().min(1).max(255),
    inputs: z.record(z.string(), z.string()),
  }),
  /** Open the todo branch's PR with the app's identity, or update the one already open. */
  z.object({
    kind: z.literal("open_pull_request"),
    key: z.string(),
    todo: TodoKey,
    branch: z.string().min(1),
    headSha: z.string().min(7),
  }),
]);
export type Effect = z.infer<typeof Effect>;

/** The effects only the intake plans (replies, reactions, restores), never a transition. */
export type IntakeEffect = Extract<Effect, { kind: "reply" | "react" | "restore_body" }>;
export const isIntakeEffect = (e: Effect): e is IntakeEffect =>
  e.kind === "reply" || e.kind === "react" || e.kind === "restore_body";

export const RefusalCode = z.enum([
  "stale_version",
  "not_found",
  "invalid_input",
  "invalid_state",
  "goal_inactive",
  "not_authorized",
  "lease_held",
  "lease_not_held",
  "lease_expired",
  "over_budget",
  "duplicate",
  /** An observation made before what the goal already knows (a delivery out of order). */
  "out_of_order",
]);
export type RefusalCode = z.infer<typeof RefusalCode>;

/** An expected "no": returned, never thrown. `message` tells the person what would work. */
export interface Refusal {
  code: RefusalCode;
  message: string;
}

export type TransitionResult =
  | {
      ok: true;
      state: GoalState;
      events: DomainEvent[];
      effects: Effect[];
      /**
       * Keys the transition looked up, found nowhere in the state it was given, and acted on
       * anyway (a plan revision naming them is refused as evidence). A store that gave it a
       * windowed aggregate decides again on the whole one, where they may be finished items.
       */
      unresolved?: string[];
    }
  | { ok: false; refusal: Refusal };

/** Every transition takes this: who acts, when (the one clock), and optionally the version they saw. */
export interface TransitionContext {
  actor: Actor;
  now: Date;
  /** When given, the transition is refused unless it matches the goal's current version. */
  expectedVersion?: number;
  /** Mints ids for new rows (evidence, notes, ticks): the kernel stays deterministic under test. */
  newId: () => string;
  /**
   * Minutes a goal waits after each stalled tick in a row (the last repeats); LoopX's own
   * ladder when absent. `[0]` waits not at all: the bench's LoopX-without-backoff arm.
   */
  backoffLadderMinutes?: readonly number[];
}
