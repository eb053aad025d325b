import { z } from "zod";
import { Cost, CostLimits, QuotaPolicy } from "./budget.ts";
import { Instant, Login, MAX_PARALLEL, Scope, ShortText, TodoKey, Uuid } from "./primitives.ts";

export const GoalStatus = z.enum(["active", "paused", "stopped", "done"]);
export type GoalStatus = z.infer<typeof GoalStatus>;

export const RepoRef = z.object({
  id: z.number().int().positive(),
  ownerId: z.number().int().positive(),
  owner: Login,
  name: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, "a repository name (letters, digits, . _ -)"),
});
export type RepoRef = z.infer<typeof RepoRef>;

/** The objective as it was when the label was added; later edits count only from writers. */
export const Objective = z.object({
  title: z.string().trim().min(1).max(256),
  body: z.string().max(65536),
  author: Login,
  /** Whether the issue's author had write access: if not, the body enters briefs as data only. */
  authorTrusted: z.boolean(),
  snapshotAt: Instant,
});
export type Objective = z.infer<typeof Objective>;

/**
 * Who lets an agent's plan run: `auto`, the agent's proposed todos are ready at once;
 * `approve`, they wait as proposed behind one gate until a writer accepts the plan.
 */
export const PlanPolicy = z.enum(["approve", "auto"]);
export type PlanPolicy = z.infer<typeof PlanPolicy>;

export const Backoff = z.object({
  /** Index into the backoff ladder; 0 means no backoff. */
  level: z.number().int().nonnegative(),
  /** Consecutive finished ticks without a material delta. */
  stalledTicks: z.number().int().nonnegative(),
  /**
   * Of those, the runs that failed before they reached LoopX: the agent never ran, so they
   * say nothing about the plan and ask for no replan. Absent: none.
   */
  hostFailures: z.number().int().positive().optional(),
  /** No run before this instant (null: no window). */
  until: Instant.nullable(),
});
export type Backoff = z.infer<typeof Backoff>;

const Tally = z.number().int().nonnegative().default(0);

export const Outcomes = z.object({
  todosDone: Tally,
  prsMerged: Tally,
  /** Accepted acts of people with write access: decisions, ticks, commands, edits. */
  personActs: Tally,
  /** Gates decided by a person: how many, and how long in all they waited for it. */
  decisions: Tally,
  waitedMs: Tally,
});
export type Outcomes = z.infer<typeof Outcomes>;

/**
 * The periodic digest of a goal that runs unattended: when the last one was posted and what
 * it said (a fingerprint, so an unchanged goal gets none), and when the next is looked at.
 */
export const DigestState = z.object({
  /** Digests posted so far: the next one's key. */
  count: z.number().int().nonnegative().default(0),
  sentAt: Instant.nullable().default(null),
  fingerprint: z.string().max(64).nullable().default(null),
  /** When the scheduler looks again; null: as soon as it can (a goal it has not seen). */
  dueAt: Instant.nullable().default(null),
});
export type DigestState = z.infer<typeof DigestState>;

export const Goal = z.object({
  id: Uuid,
  installationId: z.number().int().positive(),
  repo: RepoRef,
  issue: z.object({ id: z.number().int().positive(), number: z.number().int().positive() }),
  objective: Objective,
  status: GoalStatus,
  statusReason: ShortText.default(""),
  owners: z.array(Login).min(1, "a goal has at least one owner"),
  harness: z.string().min(1).max(64),
  /** The command whose pass makes a slice's progress "validated". */
  validationCommand: z.string().max(500).nullable().default(null),
  budget: CostLimits,
  /** The most one tick may cost; a tick that crashed or never reported is charged this. */
  tickCap: Cost,
  quota: QuotaPolicy,
  /** Whether agent-proposed todos wait for a writer's approval of the plan. */
  plan: PlanPolicy.default("auto"),
  /** How many ticks may run at once, each on a todo whose paths and scopes overlap no other's. */
  parallel: z.number().int().min(1).max(MAX_PARALLEL).default(1),
  /** Scopes granted for the whole goal (standing approvals). */
  grantedScopes: z.array(Scope).default([]),
  /** Compare-and-swap counter; every accepted transition bumps it by one. */
  version: z.number().int().nonnegative(),
  nextWakeAt: Instant.nullable(),
  backoff: Backoff,
  replanRequested: z.boolean().default(false),
  /** Next numbers to hand out for T#, G# and tick numbers; keys are never reused. */
  counters: z.object({
    todo: z.number().int().positive(),
    gate: z.number().int().positive(),
    tick: z.number().int().positive(),
  }),
  /** The cost ledger's running total for this goal. */
  spent: Cost.extend({ ticks: z.number().int().nonnegative() }),
  /**
   * What the goal delivered and what it asked of people, as running totals kept by every
   * transition (finished todos, gates and PRs leave the loaded aggregate; these do not).
   */
  outcomes: Outcomes.default(() => Outcomes.parse({})),
  /** The last todo a completion pointed at as its successor, for display. */
  focus: TodoKey.nullable().default(null),
  digest: DigestState.prefault({}),
  createdAt: Instant,
  updatedAt: Instant,
});
export type Goal = z.infer<typeof Goal>;
