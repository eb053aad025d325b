import { z } from "zod";
import { Cost, CostLimits, QuotaPolicy, SharedAllowance } from "./budget.ts";
import { EvidenceInput } from "./evidence.ts";
import { Objective, PlanPolicy, RepoRef } from "./goal.ts";
import {
  ActLink,
  GateKey,
  Instant,
  Login,
  MAX_PARALLEL,
  PathGlob,
  Scope,
  Sha,
  ShortText,
  TickSlot,
  Title,
  TodoKey,
  Uuid,
} from "./primitives.ts";
import { HarnessResult } from "./tick.ts";
import { ResumeWhen, TodoKind } from "./todo.ts";

/** Inputs of the kernel's transitions, parsed at its edge so bad input is a refusal. */

/** The most todos a goal may start with (a writer's task list in the issue body). */
export const MAX_INITIAL_TODOS = 200;

export const TodoDraft = z.object({
  title: Title,
  detail: ShortText.default(""),
  kind: TodoKind.default("task"),
  requiredScopes: z.array(Scope).max(10).default([]),
  paths: z.array(PathGlob).max(20).default([]),
});
export type TodoDraft = z.input<typeof TodoDraft>;

export const CreateGoalInput = z.object({
  id: Uuid,
  installationId: z.number().int().positive(),
  repo: RepoRef,
  issue: z.object({ id: z.number().int().positive(), number: z.number().int().positive() }),
  objective: Objective,
  owners: z.array(Login).min(1, "a goal has at least one owner"),
  harness: z.string().min(1).max(64),
  validationCommand: z.string().min(1).max(500).nullable().optional(),
  budget: CostLimits.optional(),
  tickCap: Cost.optional(),
  quota: QuotaPolicy.optional(),
  plan: PlanPolicy.optional(),
  parallel: z.number().int().min(1).max(MAX_PARALLEL).optional(),
  todos: z.array(TodoDraft).max(MAX_INITIAL_TODOS).optional(),
  /**
   * Start paused, with the reason shown to people — e.g. when `.github/loopx.yml` is invalid:
   * the goal exists and waits instead of running on defaults nobody chose.
   */
  pausedBecause: ShortText.min(1).optional(),
});
export type CreateGoalInput = z.input<typeof CreateGoalInput>;

export const AddTodoInput = TodoDraft.extend({
  origin: z.enum(["human", "agent", "pr-monitor", "config"]).default("human"),
  resumeWhen: ResumeWhen.nullable().default(null),
  /** Promote it to a sub-issue on GitHub. */
  asSubIssue: z.boolean().default(false),
});
export type AddTodoInput = z.input<typeof AddTodoInput>;

export const EditTodoInput = z.object({
  todo: TodoKey,
  title: Title.optional(),
  detail: ShortText.optional(),
  kind: TodoKind.optional(),
  requiredScopes: z.array(Scope).max(10).optional(),
  paths: z.array(PathGlob).max(20).optional(),
  resumeWhen: ResumeWhen.nullable().optional(),
  status: z.enum(["ready", "blocked", "deferred"]).optional(),
  blockedReason: ShortText.nullable().optional(),
});
export type EditTodoInput = z.input<typeof EditTodoInput>;

export const ReorderTodoInput = z
  .object({
    todo: TodoKey,
    /** Zero-based index among open todos, or … */
    position: z.number().int().nonnegative().optional(),
    /** … the todo to move in front of. */
    before: TodoKey.optional(),
  })
  .refine((r) => (r.position === undefined) !== (r.before === undefined), {
    message: "give exactly one of position (a number) or before (a todo key)",
    path: ["position"],
  });
export type ReorderTodoInput = z.input<typeof ReorderTodoInput>;

export const ClaimInput = z.object({
  tickId: Uuid,
  leaseToken: z.string().min(16, "a lease token has at least 16 characters"),
  agent: z.string().min(1),
  harness: z.string().min(1),
  run: z
    .object({ id: z.number().int().positive(), attempt: z.number().int().positive() })
    .nullable(),
  leaseTtlMs: z
    .number()
    .int()
    .min(60_000, "a lease lasts at least a minute")
    .max(24 * 3_600_000, "a lease lasts at most 24 hours"),
  /** The caller's tick slot: one live tick per slot. */
  slot: TickSlot.default(""),
  /** When given, claim only this todo (refused if decide() would pick another). */
  todo: TodoKey.optional(),
  /**
   * `parallel` as the repository's config says it now: a change there applies to a running
   * goal from its next claim on. Lowering it ends no running tick; it only holds new ones.
   */
  parallel: z.number().int().min(1).max(MAX_PARALLEL).optional(),
  allowance: SharedAllowance.optional(),
  callerLimits: CostLimits.optional(),
});
export type ClaimInput = z.input<typeof ClaimInput>;

export const LeaseInput = z.object({
  tickId: Uuid,
  leaseToken: z.string().min(1),
});
export type LeaseInput = z.input<typeof LeaseInput>;

export const RenewLeaseInput = LeaseInput.extend({
  leaseTtlMs: z
    .number()
    .int()
    .min(60_000)
    .max(24 * 3_600_000),
});
export type RenewLeaseInput = z.input<typeof RenewLeaseInput>;

export const TickResultInput = LeaseInput.extend({ result: HarnessResult });
export type TickResultInput = z.input<typeof TickResultInput>;

export const OpenGateInput = z.object({
  question: z.string().trim().min(1).max(2000),
  scopes: z.array(Scope).min(1, "a gate covers at least one scope").max(10),
  requestedFrom: z.array(Login).default([]),
  todo: TodoKey.nullable().default(null),
  pr: z.object({ number: z.number().int().positive(), headSha: Sha }).nullable().default(null),
});
export type OpenGateInput = z.input<typeof OpenGateInput>;

export const ApproveGateInput = z.object({
  gate: GateKey,
  note: ShortText.nullable().default(null),
  /** For a PR-bound gate: the head the approver saw (a review's commit_id). */
  headSha: Sha.optional(),
  /**
   * For an approval by comment: when GitHub says the comment was created. A PR-bound gate
   * counts it only if that is after GitHub reported the head the gate names.
   */
  commentAt: Instant.optional(),
  /** The comment or review that approved: the receipt links to it. */
  act: ActLink.nullable().default(null),
});
export type ApproveGateInput = z.input<typeof ApproveGateInput>;

export const RejectGateInput = z.object({
  gate: GateKey,
  reason: ShortText.min(1, "a rejection needs a reason"),
  /** The comment that rejected: the receipt links to it. */
  act: ActLink.nullable().default(null),
});
export type RejectGateInput = z.input<typeof RejectGateInput>;

export const SetBudgetInput = z.object({
  limits: CostLimits,
  /** The most `.github/loopx.yml` allows; no limit may be set above it. */
  ceiling: CostLimits.default({}),
  /** The comment that changed it: the receipt links to it. */
  act: ActLink.nullable().default(null),
});
export type SetBudgetInput = z.input<typeof SetBudgetInput>;

export const QueueNoteInput = z.object({ text: z.string().trim().min(1).max(4000) });
export type QueueNoteInput = z.input<typeof QueueNoteInput>;

export const AddEvidenceInput = EvidenceInput.extend({ todo: TodoKey.nullable().default(null) });
export type AddEvidenceInput = z.input<typeof AddEvidenceInput>;

export const ReasonInput = z.object({ reason: ShortText.default("") });
export type ReasonInput = z.input<typeof ReasonInput>;
