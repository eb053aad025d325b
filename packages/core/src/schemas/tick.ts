import { z } from "zod";
import { Cost } from "./budget.ts";
import { EvidenceInput, HandoffInput } from "./evidence.ts";
import {
  DiffSize,
  Instant,
  PathGlob,
  Scope,
  Sha,
  ShortText,
  TickSlot,
  Title,
  TodoKey,
  Uuid,
} from "./primitives.ts";

/** Why a slice did not make progress. `host_failure` also covers ticks that died unseen. */
export const FailureKind = z.enum([
  "host_failure",
  "validation_failed",
  "timeout",
  "turn_limit",
  "budget_exceeded",
  "harness_error",
  "auth_required",
  "capability_missing",
  "lease_expired",
]);
export type FailureKind = z.infer<typeof FailureKind>;

export const TickOutcome = z.enum(["progress", "completed", "no_change", "failed"]);

/**
 * A person stopped or paused the goal while the tick ran: its lease ended then and its run was
 * cancelled. Set on the tick only, never in a harness's result; the report job's result then
 * charges the measured usage (and, for a pause, keeps the work in progress and its handoff).
 */
export const TickInterruption = z.enum(["stopped", "paused"]);
export type TickInterruption = z.infer<typeof TickInterruption>;

/**
 * Where a result's USD and tokens come from: `proxy` — the metering proxy that alone held the
 * model key counted them from the provider's replies; `no_model` — the slice was handed no
 * model credential; `unmetered` — the agent held its own credential (a subscription token),
 * so nothing it cannot reach counted them, and the tick is charged its cap.
 */
export const Metering = z.enum(["proxy", "no_model", "unmetered"]);
export type Metering = z.infer<typeof Metering>;
export type TickOutcome = z.infer<typeof TickOutcome>;

export const Validation = z.object({
  command: z.string().min(1).max(500),
  exitCode: z.number().int().nullable(),
  passed: z.boolean(),
  summary: z.string().max(2000).default(""),
});
export type Validation = z.infer<typeof Validation>;

/** What a completed todo proposes to happen next (the kernel turns a successor into a todo). */
export const ContinuationInput = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("successor"),
    title: Title,
    detail: ShortText.default(""),
    requiredScopes: z.array(Scope).max(10).default([]),
  }),
  z.object({ kind: z.literal("no_followup"), reason: ShortText.min(1) }),
  z.object({ kind: z.literal("goal_active") }),
]);
export type ContinuationInput = z.infer<typeof ContinuationInput>;

/**
 * How a planning slice revises the open todos an agent proposed: drop, reword, reorder (the
 * keys listed take the places those todos hold, in this order). Adding is `proposedTodos`.
 * People's todos are never revised this way; the kernel refuses those entries.
 */
export const PlanRevisions = z.object({
  drop: z.array(TodoKey).max(20).default([]),
  reword: z
    .array(z.object({ todo: TodoKey, title: Title, detail: ShortText.default("") }))
    .max(20)
    .default([]),
  order: z.array(TodoKey).max(50).default([]),
});
export type PlanRevisions = z.infer<typeof PlanRevisions>;

/**
 * What the agent job reports for one slice. Parsed at the API edge; everything in it is the
 * agent's claim, which the kernel checks (validation decides progress, not the agent's prose).
 */
/** A slice's request to dispatch a listed job: its name and inputs, checked by the App. */
export const JobRequest = z.object({
  name: z.string().trim().min(1).max(100),
  inputs: z
    .record(z.string().min(1).max(100), z.union([z.string().max(1000), z.number(), z.boolean()]))
    .default({}),
});
export type JobRequest = z.infer<typeof JobRequest>;

export const HarnessResult = z
  .object({
    todo: TodoKey,
    outcome: TickOutcome,
    failure: FailureKind.nullable().default(null),
    validation: Validation.nullable().default(null),
    commits: z
      .array(
        z.object({
          sha: Sha,
          message: z.string().max(1000),
          /** `git log --shortstat`'s counts; absent from older actions' reports. */
          diffstat: DiffSize.nullish(),
        }),
      )
      .max(100)
      .default([]),
    evidence: z.array(EvidenceInput).max(20).default([]),
    handoff: HandoffInput,
    continuation: ContinuationInput.nullable().default(null),
    proposedTodos: z
      .array(
        z.object({
          title: Title,
          detail: ShortText.default(""),
          requiredScopes: z.array(Scope).max(10).default([]),
          paths: z.array(PathGlob).max(20).default([]),
          /**
           * The todo this one builds on: a key (`T3`) or the title of an open todo or of an
           * earlier proposal in this list. It does not start until that one is done (its PR
           * merged), so it never works beside its predecessor's unmerged branch.
           */
          after: Title.optional(),
        }),
      )
      .max(10)
      .default([]),
    gateRequests: z
      .array(
        z.object({
          question: z.string().trim().min(1).max(2000),
          scopes: z.array(Scope).min(1).max(10),
        }),
      )
      .max(3)
      .default([]),
    /**
     * Whether the harness saw the work tree change (absent: the caller did not say, taken as
     * changed). A passing validation on an unchanged tree proves nothing about the todo.
     */
    changed: z.boolean().optional(),
    /** Only a planning slice's revisions are applied. */
    revisions: PlanRevisions.optional(),
    cost: Cost,
    metering: Metering.default("unmetered"),
    /** Fields withheld because they held a credential (paths, never values), for the ledger. */
    withheld: z.array(z.string().max(200)).max(50).default([]),
    sessionId: z.string().max(200).nullable().default(null),
    /**
     * A job the slice hands to GitHub instead of waiting for it: one of `jobs:` in the
     * default branch's `.github/loopx.yml`, with inputs its schema allows. The App checks it.
     */
    job: JobRequest.optional(),
  })
  .superRefine((r, ctx) => {
    if (r.outcome === "completed" && r.continuation === null) {
      ctx.addIssue({
        code: "custom",
        path: ["continuation"],
        message:
          "a completed todo needs exactly one continuation: successor, no_followup (with a reason) or goal_active",
      });
    }
    if (r.outcome !== "completed" && r.continuation !== null) {
      ctx.addIssue({
        code: "custom",
        path: ["continuation"],
        message: `continuation is only for outcome "completed" (got "${r.outcome}")`,
      });
    }
    if (r.outcome === "failed" && r.failure === null) {
      ctx.addIssue({
        code: "custom",
        path: ["failure"],
        message: 'outcome "failed" needs a failure kind',
      });
    }
    if (r.outcome !== "failed" && r.failure !== null) {
      ctx.addIssue({
        code: "custom",
        path: ["failure"],
        message: `failure is only for outcome "failed" (got "${r.outcome}")`,
      });
    }
  });
export type HarnessResult = z.infer<typeof HarnessResult>;

/** One run of the tick workflow: a claim on one todo under a lease, then a result. */
export const Tick = z.object({
  id: Uuid,
  number: z.number().int().positive(),
  todo: TodoKey,
  agent: z.string().min(1),
  harness: z.string().min(1),
  run: z
    .object({ id: z.number().int().positive(), attempt: z.number().int().positive() })
    .nullable()
    .default(null),
  /** The goal's tick slot it ran in (its workflow concurrency group). */
  slot: TickSlot.default(""),
  /** Binds a result to its tick; secret to the tick's workflow run. */
  leaseToken: z.string().min(16),
  leaseExpiresAt: Instant,
  startedAt: Instant,
  finishedAt: Instant.nullable().default(null),
  outcome: TickOutcome.nullable().default(null),
  failure: z.union([FailureKind, TickInterruption]).nullable().default(null),
  /** Charged to the cost ledger once, when the tick finishes (a failure at its cap). */
  cost: Cost.nullable().default(null),
  /** The slot quota is spent at most once per tick, and only for validated progress. */
  slotSpent: z.boolean().default(false),
  sessionId: z.string().max(200).nullable().default(null),
});
export type Tick = z.infer<typeof Tick>;
