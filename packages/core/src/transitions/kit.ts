import type { z } from "zod";
import { prettifyError } from "zod";
import { INITIAL_BACKOFF, isInitialBackoff } from "../backoff.ts";
import { checkRunsSignature } from "../check-runs.ts";
import type { EvidenceKind } from "../schemas/evidence.ts";
import type { GoalStatus } from "../schemas/goal.ts";
import type { Actor } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { Todo, TodoKind, TodoOrigin } from "../schemas/todo.ts";
import type {
  DomainEvent,
  Effect,
  EventType,
  Refusal,
  RefusalCode,
  TransitionContext,
} from "../schemas/transition.ts";

/** A transition in progress: a private copy of the state plus what it will emit. */
export interface Draft {
  state: GoalState;
  ctx: TransitionContext;
  events: DomainEvent[];
  effects: Effect[];
  /** The issue body's checklist must be re-rendered. */
  checklist: boolean;
  /** The sticky status comment must be re-rendered. */
  status: boolean;
  /** Agent todos were held for a writer's approval: the plan gate must list them anew. */
  planHeld?: boolean;
  /** Keys looked up and not found, though the transition went on (see TransitionResult). */
  unresolved?: string[];
  /** What LoopX's check runs showed before the transition: a change writes them again. */
  checksBefore?: string;
  /** Loaded todos that were done before the transition: the outcome tally counts the change. */
  doneBefore?: number;
}

export type Refused = { ok: false; refusal: Refusal };

export function refuse(code: RefusalCode, message: string): Refused {
  return { ok: false, refusal: { code, message } };
}

export function isRefused(x: unknown): x is Refused {
  return typeof x === "object" && x !== null && "ok" in x && x.ok === false;
}

/** Parses a transition's input at the kernel's edge: bad input is a refusal that names the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> | Refused {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  return refuse("invalid_input", prettifyError(parsed.error));
}

export interface BeginOptions {
  /** Statuses in which this transition is accepted (default: all but done). */
  statuses?: readonly GoalStatus[];
}

const NOT_DONE: readonly GoalStatus[] = ["active", "paused", "stopped"];

export function begin(
  state: GoalState,
  ctx: TransitionContext,
  opts: BeginOptions = {},
): Draft | Refused {
  const goal = state.goal;
  if (ctx.expectedVersion !== undefined && ctx.expectedVersion !== goal.version) {
    return refuse(
      "stale_version",
      `The goal changed since you read it (you saw version ${ctx.expectedVersion}, it is now ${goal.version}); reload and retry.`,
    );
  }
  const statuses = opts.statuses ?? NOT_DONE;
  if (!statuses.includes(goal.status)) {
    return refuse(
      "goal_inactive",
      `The goal is ${goal.status}; this is only possible while it is ${statuses.join(" or ")}.`,
    );
  }
  return {
    state: structuredClone(state),
    ctx,
    events: [],
    effects: [],
    checklist: false,
    status: true,
    checksBefore: checkRunsSignature(state, ctx.now),
    doneBefore: doneTodos(state),
  };
}

export const doneTodos = (state: GoalState): number =>
  state.todos.reduce((n, t) => n + (t.status === "done" ? 1 : 0), 0);

export function emit(d: Draft, type: EventType, data: Record<string, unknown> = {}): void {
  d.events.push({ type, goalId: d.state.goal.id, actor: d.ctx.actor, at: d.ctx.now, data });
}

/** Adds an effect; a later effect with the same key replaces the earlier one. */
export function addEffect(d: Draft, effect: Effect): void {
  const i = d.effects.findIndex((e) => e.key === effect.key);
  if (i >= 0) d.effects.splice(i, 1);
  d.effects.push(effect);
}

/** Trusted input may reset backoff and edit the plan: writers, the app itself, the system. */
export function isTrustedActor(actor: Actor): boolean {
  if (actor.kind === "human") return actor.trusted;
  return actor.kind === "app" || actor.kind === "system";
}

export function actorName(actor: Actor): string {
  switch (actor.kind) {
    case "human":
      return `@${actor.login}`;
    case "agent":
      return `agent (${actor.harness})`;
    case "app":
      return "LoopX";
    case "system":
      return `system (${actor.reason})`;
  }
}

export function requireTrusted(ctx: TransitionContext, what: string): Refused | null {
  if (isTrustedActor(ctx.actor)) return null;
  return refuse(
    "not_authorized",
    `${actorName(ctx.actor)} may not ${what}: it needs write access to the repository (or being a listed owner).`,
  );
}

export function findTodo(d: Draft, key: string): Todo | Refused {
  const todo = d.state.todos.find((t) => t.key === key);
  if (todo) return todo;
  // Open todos only: finished ones are many on a long goal, and not what a person means.
  const open = d.state.todos.filter((t) => t.status !== "done" && t.status !== "dropped");
  const keys = open.map((t) => t.key).join(", ") || "none";
  return refuse("not_found", `There is no todo ${key} on this goal (open todos: ${keys}).`);
}

/** Trusted input starts the loop afresh: the stall count and any wait are cleared. */
export function resetBackoff(d: Draft, reason: string): void {
  if (isInitialBackoff(d.state.goal.backoff)) return;
  d.state.goal.backoff = { ...INITIAL_BACKOFF };
  emit(d, "backoff.reset", { reason });
}

export interface NewTodo {
  title: string;
  detail?: string;
  kind?: TodoKind;
  requiredScopes?: string[];
  paths?: string[];
  origin: TodoOrigin;
  position?: number;
}

export function appendTodo(d: Draft, input: NewTodo): Todo {
  const goal = d.state.goal;
  const key = `T${goal.counters.todo}`;
  goal.counters.todo += 1;
  const last = d.state.todos.reduce((m, t) => Math.max(m, t.position), 0);
  const todo: Todo = {
    key,
    title: input.title,
    detail: input.detail ?? "",
    status: "ready",
    kind: input.kind ?? "task",
    position: input.position ?? last + 1,
    origin: input.origin,
    requiredScopes: input.requiredScopes ?? [],
    paths: input.paths ?? [],
    pushedPaths: [],
    subIssue: null,
    claim: null,
    heldBy: null,
    attempts: 0,
    resumeWhen: null,
    blockedReason: null,
    completion: null,
    createdAt: d.ctx.now,
    updatedAt: d.ctx.now,
  };
  d.state.todos.push(todo);
  d.checklist = true;
  emit(d, "todo.added", { todo: key, title: todo.title, origin: todo.origin });
  return todo;
}

export interface NewEvidence {
  kind: EvidenceKind;
  summary: string;
  todo?: string | null;
  tickId?: string | null;
  url?: string | null;
  sha?: string | null;
}

export function appendEvidence(d: Draft, input: NewEvidence): string {
  const id = d.ctx.newId();
  d.state.evidence.push({
    id,
    todo: input.todo ?? null,
    tickId: input.tickId ?? null,
    kind: input.kind,
    summary: input.summary.slice(0, 500),
    url: input.url ?? null,
    sha: input.sha ?? null,
    observedAt: d.ctx.now,
    stale: false,
  });
  emit(d, "evidence.added", { id, kind: input.kind, todo: input.todo ?? null });
  return id;
}

/** Drops a todo inside a transition; its sub-issue, if any, closes as not planned. */
export function dropIn(d: Draft, todo: Todo, reason: string): void {
  todo.status = "dropped";
  todo.updatedAt = d.ctx.now;
  d.checklist = true;
  emit(d, "todo.dropped", { todo: todo.key, reason });
  if (todo.subIssue) {
    addEffect(d, {
      kind: "close_sub_issue",
      key: `todo:${todo.key}:close`,
      todo: todo.key,
      reason: "not_planned",
    });
  }
}
