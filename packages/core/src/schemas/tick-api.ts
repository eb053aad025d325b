import { z } from "zod";
import { HarnessBrief } from "./brief.ts";
import { CostLimits } from "./budget.ts";
import { Route } from "./decision.ts";
import { Instant, PathGlob, Scope, TickSlot, TodoKey, Uuid } from "./primitives.ts";
import { HarnessResult, TickInterruption } from "./tick.ts";
import { MAX_PUSHED_PATHS } from "./todo.ts";

/**
 * The tick API between the Action and the App (docs/architecture.md, "The tick"). Every call
 * carries a GitHub Actions OIDC ID token as `Authorization: Bearer …`; the App verifies it
 * and binds the call to the repository and workflow run it names. Wire shapes only.
 */

/** POST /api/v1/ticks — the `ask` job: should this run work, and on what? */
export const AskRequest = z.object({
  /** The goal's issue number (the workflow's `goal` input). */
  goal: z.number().int().positive(),
  /** The caller's `slot` input: which of the goal's concurrent ticks this run is (absent: ""). */
  slot: TickSlot.optional(),
  /** Limits the workflow asks for; they can only lower what the App allows. */
  limits: CostLimits.optional(),
});
export type AskRequest = z.infer<typeof AskRequest>;

/** The bounds one slice runs under; the adapter enforces them itself. */
export const SliceLimits = z.object({
  wallMinutes: z.number().positive(),
  idleMinutes: z.number().positive(),
  maxTurns: z.number().int().positive(),
  usd: z.number().nonnegative(),
  /**
   * What set `usd`: the tick cap, or what the goal's budget (or a shared allowance) has left.
   * On the last of a budget the metering proxy lets no call start that could cross it.
   */
  usdFrom: z.enum(["tick_cap", "budget"]).optional(),
});
export type SliceLimits = z.infer<typeof SliceLimits>;

export const AskResponse = z.discriminatedUnion("run", [
  z.object({
    run: z.literal(false),
    route: Route,
    reason: z.string(),
    nextWakeAt: Instant.nullable(),
  }),
  z.object({
    run: z.literal(true),
    route: z.enum(["run", "replan"]),
    reason: z.string(),
    tickId: Uuid,
    /** Binds the result to this tick; a secret of this workflow run. */
    leaseToken: z.string().min(16),
    leaseExpiresAt: Instant,
    /**
     * When the agent step stops the slice and keeps its work: the lease's end less the time
     * the report job needs, so work cut there is still pushed (absent: an App before it).
     */
    checkpointAt: Instant.optional(),
    todo: TodoKey,
    /** `loopx/<issue>-<todo>`: the only branch the slice works on and the report may push. */
    branch: z.string().regex(/^loopx\/[0-9]+-T[0-9]+$/),
    harness: z.string().min(1),
    allowedTools: z.array(z.string()),
    validationCommand: z.string().nullable(),
    limits: SliceLimits,
    brief: HarnessBrief,
    /** The brief rendered for the harness (at most 8 KiB). */
    briefText: z.string(),
  }),
]);
export type AskResponse = z.infer<typeof AskResponse>;

/** POST /api/v1/ticks/:id/result — the `report` job, with a fresh OIDC token. */
export const ResultRequest = z.object({
  leaseToken: z.string().min(16),
  result: HarnessResult,
});
export type ResultRequest = z.infer<typeof ResultRequest>;

/** A token minted for this tick only: contents + pull requests, this repository, loopx/* pushes. */
export const PushGrant = z.object({
  token: z.string().min(1),
  expiresAt: Instant,
  branch: z.string().regex(/^loopx\/[0-9]+-T[0-9]+$/),
  /** Paths under .github/ may be pushed only when a gate approved `write:.github`. */
  allowWorkflowPaths: z.boolean(),
  /** The path rules of `.github/loopx.yml` whose scopes no gate approved: not to be pushed. */
  protectedPaths: z
    .array(
      z.object({
        paths: z.array(z.string().min(1).max(200)).min(1),
        scopes: z.array(Scope).min(1),
      }),
    )
    .max(50)
    .default([]),
  /**
   * The declared paths of the goal's other running todos: a commit touching one is held, not
   * pushed, so two ticks never race on the same files.
   */
  heldPaths: z
    .array(z.object({ todo: TodoKey, paths: z.array(PathGlob).min(1).max(20) }))
    .max(8)
    .default([]),
});
export type PushGrant = z.infer<typeof PushGrant>;

export const ResultResponse = z.object({
  accepted: z.literal(true),
  /** Null when the result carried no commits: nothing to push. */
  push: PushGrant.nullable(),
  next: z.object({ route: Route, reason: z.string(), nextWakeAt: Instant.nullable() }),
  /**
   * A person stopped or paused the goal while the slice ran: its run was cancelled, its usage
   * charged; `stopped` pushes nothing, `paused` pushes the work in progress.
   */
  interrupted: TickInterruption.optional(),
});
export type ResultResponse = z.infer<typeof ResultResponse>;

const TickBranch = z.string().regex(/^loopx\/[0-9]+-T[0-9]+$/);
const CommitSha = z.string().regex(/^[0-9a-f]{40}$/);

/** Why the report job did not push the agent's branch (e.g. it changes `.github/` without a gate). */
export const PushRefusal = z.object({
  reason: z.string().trim().min(1).max(300),
  /** The head the agent produced, which is NOT on GitHub. */
  headSha: CommitSha,
  /** The paths that made the push refused, when paths were the reason. */
  paths: z.array(z.string().min(1).max(300)).max(50).default([]),
  /**
   * The slice's change as `git format-patch` output, when only a person can push it: an
   * approved `write:.github` gate whose change includes workflow files.
   */
  patch: z.string().max(61_000).optional(),
});
export type PushRefusal = z.infer<typeof PushRefusal>;

/**
 * POST /api/v1/ticks/:id/pushed — what became of the granted push: the branch is on GitHub at
 * `headSha` (the App may open or update the PR), or the report refused to push it (`refused`,
 * and no `headSha`: an App that predates `refused` answers 400 rather than believing the work
 * landed). Strict objects, so a body naming both a pushed head and a refusal is no request.
 */
export const PushedRequest = z.union([
  z.strictObject({
    leaseToken: z.string().min(16),
    branch: TickBranch,
    headSha: CommitSha,
    /** The files the push changed on the branch, from the report job's own diff. */
    paths: z.array(z.string().min(1).max(500)).max(MAX_PUSHED_PATHS).optional(),
  }),
  z.strictObject({ leaseToken: z.string().min(16), branch: TickBranch, refused: PushRefusal }),
]);
export type PushedRequest = z.infer<typeof PushedRequest>;

/** The answer to `pushed`: whether this head was new to the App (false: a retry, nothing changed). */
export const PushedResponse = z.object({ recorded: z.boolean() });
export type PushedResponse = z.infer<typeof PushedResponse>;

/** POST /api/v1/wake — the cron backstop: dispatch this repository's due goals. */
export const WakeResponse = z.object({ dispatched: z.array(z.number().int().positive()) });
export type WakeResponse = z.infer<typeof WakeResponse>;

/** Every refusal: a code the Action can branch on and a message for the job log. */
export const ApiError = z.object({
  error: z.enum([
    "unauthenticated",
    "forbidden",
    "not_found",
    "invalid_request",
    "conflict",
    "rate_limited",
    "unavailable",
  ]),
  message: z.string(),
});
export type ApiError = z.infer<typeof ApiError>;
