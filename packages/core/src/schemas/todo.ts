import { z } from "zod";
import { Instant, Login, PathGlob, Scope, ShortText, Title, TodoKey, Uuid } from "./primitives.ts";

/**
 * `proposed`: an agent proposed it under `plan: approve`; it waits, never runnable or claimed,
 * behind the goal's plan gate until a writer approves (ready) or rejects (dropped) the plan.
 */
export const TodoStatus = z.enum(["proposed", "ready", "blocked", "deferred", "done", "dropped"]);
export type TodoStatus = z.infer<typeof TodoStatus>;

/**
 * Priority among runnable todos: plan → repair → review → rebase → task. A `plan` todo is a
 * replan slice: the agent revises the todo list instead of writing code.
 */
export const TodoKind = z.enum([
  "task",
  "plan",
  "repair",
  "review",
  "rebase",
  "monitor",
  "user_action",
]);
export type TodoKind = z.infer<typeof TodoKind>;

/** `outsider`: words of someone without write access (a sub-issue's title), shown as data. */
export const TodoOrigin = z.enum(["human", "agent", "pr-monitor", "config", "outsider"]);
export type TodoOrigin = z.infer<typeof TodoOrigin>;

/** A todo that waits for something is not runnable until that holds. */
export const ResumeWhen = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("todo_done"), todo: TodoKey }),
  z.object({ kind: z.literal("pr_merged"), pr: z.number().int().positive() }),
  z.object({ kind: z.literal("at"), at: Instant }),
  /**
   * A workflow run the slice handed its work to (a job listed in `.github/loopx.yml`): the
   * todo waits, spending nothing, until that run completes. `runId` is null until GitHub says
   * which run the dispatch started (older API versions do not; the run is then matched by
   * workflow, branch and a creation time after `since`).
   */
  z.object({
    kind: z.literal("job"),
    job: z.string().min(1).max(100),
    workflow: z.string().min(1).max(200),
    branch: z.string().min(1).max(255),
    since: Instant,
    runId: z.number().int().positive().nullable().default(null),
  }),
]);
export type ResumeWhen = z.infer<typeof ResumeWhen>;

/**
 * How work goes on after a todo is done — exactly one, always. A todo never just stops:
 * it names a successor, says there is no follow-up (and why), or says the goal stays active.
 */
export const Continuation = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("successor"), todo: TodoKey }),
  z.object({ kind: z.literal("no_followup"), reason: ShortText.min(1) }),
  z.object({ kind: z.literal("goal_active") }),
]);
export type Continuation = z.infer<typeof Continuation>;

/** A lease on a todo, held by one tick. "Running" is derived from a live lease, never stored. */
export const Claim = z.object({
  tickId: Uuid,
  agent: z.string().min(1),
  leaseExpiresAt: Instant,
});
export type Claim = z.infer<typeof Claim>;

/**
 * A todo someone other than LoopX holds: a person or another agent said they work on it, with
 * `/loopx claim` or by being assigned its sub-issue. LoopX skips it until it is let go.
 */
export const HeldBy = z.object({
  holder: Login,
  via: z.enum(["command", "assignment"]),
  /** The sub-issue whose assignment holds it (via assignment). */
  issue: z.number().int().positive().nullable().default(null),
  since: Instant,
  /** Null: until released (or unassigned). */
  until: Instant.nullable().default(null),
  /** LoopX has said once that it skips the todo for this holder. */
  noticed: z.boolean().default(false),
});
export type HeldBy = z.infer<typeof HeldBy>;

/** How many changed files a todo keeps on record; past it the oldest are forgotten. */
export const MAX_PUSHED_PATHS = 200;

export const Todo = z.object({
  key: TodoKey,
  title: Title,
  detail: ShortText.default(""),
  status: TodoStatus,
  kind: TodoKind,
  /** Order among tasks of the same kind; smaller runs first. */
  position: z.number().int(),
  origin: TodoOrigin,
  requiredScopes: z.array(Scope).default([]),
  /**
   * Globs of the files the todo will touch. Empty: it may touch anything, so it never runs
   * beside another todo of its goal.
   */
  paths: z.array(PathGlob).max(20).default([]),
  /**
   * Files the todo's pushed commits changed, as the report job diffed them (never the agent's
   * word): what its branch holds that the default branch may not yet.
   */
  pushedPaths: z.array(z.string().min(1).max(500)).max(MAX_PUSHED_PATHS).default([]),
  subIssue: z
    .object({ id: z.number().int().positive(), number: z.number().int().positive() })
    .nullable()
    .default(null),
  claim: Claim.nullable().default(null),
  heldBy: HeldBy.nullable().default(null),
  attempts: z.number().int().nonnegative().default(0),
  resumeWhen: ResumeWhen.nullable().default(null),
  blockedReason: ShortText.nullable().default(null),
  /** Set exactly when status is done. */
  completion: z
    .object({
      continuation: Continuation,
      evidenceIds: z.array(Uuid).min(1, "a todo is done only with evidence"),
      tickId: Uuid.nullable(),
      at: Instant,
    })
    .nullable()
    .default(null),
  createdAt: Instant,
  updatedAt: Instant,
});
export type Todo = z.infer<typeof Todo>;
