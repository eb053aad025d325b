import type { AddTodoInput, EditTodoInput, ReorderTodoInput } from "../schemas/inputs.ts";
import {
  AddTodoInput as AddTodoSchema,
  EditTodoInput as EditTodoSchema,
  ReorderTodoInput as ReorderTodoSchema,
} from "../schemas/inputs.ts";
import { TodoKey } from "../schemas/primitives.ts";
import type { GoalState } from "../schemas/state.ts";
import type { Todo } from "../schemas/todo.ts";
import type { TransitionContext, TransitionResult } from "../schemas/transition.ts";
import { keyNumber } from "../todo-order.ts";
import { commit } from "./commit.ts";
import type { Draft, Refused } from "./kit.ts";
import {
  addEffect,
  appendTodo,
  begin,
  dropIn,
  emit,
  findTodo,
  isRefused,
  parseInput,
  refuse,
  requireTrusted,
  resetBackoff,
} from "./kit.ts";
import { offerSubIssues, syncSubIssueTitle } from "./sub-issue-effects.ts";

/** A trusted change to the plan: it counts as fresh input, and answers a pending replan. */
function planChanged(d: Draft, reason: string): void {
  d.state.goal.replanRequested = false;
  resetBackoff(d, reason);
}

export function addTodo(
  state: GoalState,
  input: AddTodoInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(AddTodoSchema, input);
  if (isRefused(parsed)) return parsed;
  const denied = requireTrusted(ctx, "add todos");
  if (denied) return denied;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = appendTodo(d, parsed);
  todo.resumeWhen = parsed.resumeWhen;
  if (parsed.asSubIssue) {
    addEffect(d, { kind: "create_sub_issue", key: `todo:${todo.key}:sub_issue`, todo: todo.key });
  } else {
    offerSubIssues(d, [todo]);
  }
  planChanged(d, `new todo ${todo.key}`);
  return commit(d);
}

export function editTodo(
  state: GoalState,
  input: EditTodoInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(EditTodoSchema, input);
  if (isRefused(parsed)) return parsed;
  const denied = requireTrusted(ctx, "edit todos");
  if (denied) return denied;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = findTodo(d, parsed.todo);
  if (isRefused(todo)) return todo;
  if (todo.status === "done" || todo.status === "dropped") {
    return refuse("invalid_state", `${todo.key} is ${todo.status}; reopen it first to edit it.`);
  }
  const changed: string[] = [];
  const set = <K extends keyof typeof todo>(field: K, value: (typeof todo)[K] | undefined) => {
    if (value === undefined) return;
    todo[field] = value;
    changed.push(field);
  };
  const renamed = parsed.title !== undefined && parsed.title !== todo.title;
  set("title", parsed.title);
  set("detail", parsed.detail);
  set("kind", parsed.kind);
  set("requiredScopes", parsed.requiredScopes);
  set("paths", parsed.paths);
  set("resumeWhen", parsed.resumeWhen);
  set("status", parsed.status);
  set("blockedReason", parsed.blockedReason);
  if (todo.status === "blocked" && todo.blockedReason === null) {
    return refuse(
      "invalid_input",
      "blockedReason: a blocked todo needs a reason saying what it waits for.",
    );
  }
  if (todo.status !== "blocked") todo.blockedReason = null;
  if (changed.length === 0) {
    return refuse("invalid_input", "Nothing to change: give at least one field besides todo.");
  }
  todo.updatedAt = ctx.now;
  d.checklist = true;
  emit(d, "todo.edited", { todo: todo.key, fields: changed });
  if (renamed) syncSubIssueTitle(d, todo);
  planChanged(d, `${todo.key} edited`);
  return commit(d);
}

/** A writer's act on one unfinished todo: the key parsed, their authority, the todo found. */
function liveTodo(
  state: GoalState,
  key: string,
  ctx: TransitionContext,
  what: string,
  finished: (todo: Todo) => string,
): { d: Draft; todo: Todo } | Refused {
  const parsed = parseInput(TodoKey, key);
  if (isRefused(parsed)) return parsed;
  const denied = requireTrusted(ctx, what);
  if (denied) return denied;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = findTodo(d, parsed);
  if (isRefused(todo)) return todo;
  if (todo.status === "done" || todo.status === "dropped") {
    return refuse("invalid_state", finished(todo));
  }
  return { d, todo };
}

export function dropTodo(
  state: GoalState,
  input: { todo: string; reason?: string },
  ctx: TransitionContext,
): TransitionResult {
  const live = liveTodo(
    state,
    input.todo,
    ctx,
    "drop todos",
    (t) => `${t.key} is already ${t.status}.`,
  );
  if (isRefused(live)) return live;
  const { d, todo } = live;
  dropIn(d, todo, input.reason ?? "");
  planChanged(d, `${todo.key} dropped`);
  return commit(d);
}

/**
 * A writer accepts a todo an agent proposed (a proposal or a successor it named): read and
 * taken on as theirs, its text instructs the next slices instead of being shown as data.
 * LoopX's own todos (the PR monitor's) need no acceptance; a writer's already instruct.
 */
export function acceptTodo(
  state: GoalState,
  input: { todo: string },
  ctx: TransitionContext,
): TransitionResult {
  const live = liveTodo(
    state,
    input.todo,
    ctx,
    "accept todos",
    (t) => `${t.key} is ${t.status}; there is nothing left to accept.`,
  );
  if (isRefused(live)) return live;
  const { d, todo } = live;
  if (todo.origin !== "agent") {
    const whose =
      todo.origin === "pr-monitor"
        ? "was opened by LoopX's PR monitor: it runs under LoopX's own wording"
        : "is already a writer's todo";
    return refuse("invalid_state", `${todo.key} ${whose}; only an agent's proposal is accepted.`);
  }
  todo.origin = "human";
  // Accepting one proposal of a held plan lets it run; the plan gate keeps the others.
  if (todo.status === "proposed") {
    todo.status = "ready";
    offerSubIssues(d, [todo]);
  }
  todo.updatedAt = ctx.now;
  d.checklist = true;
  const by = ctx.actor.kind === "human" ? ctx.actor.login : ctx.actor.kind;
  emit(d, "todo.accepted", { todo: todo.key, by, proposedBy: "agent" });
  addEffect(d, {
    kind: "receipt",
    key: `receipt:todo:${todo.key}:accepted`,
    text: `@${by} accepted ${todo.key} (proposed by an agent): its text now instructs the slices that work on it.`,
  });
  planChanged(d, `${todo.key} accepted`);
  return commit(d);
}

export function reorderTodo(
  state: GoalState,
  input: ReorderTodoInput,
  ctx: TransitionContext,
): TransitionResult {
  const parsed = parseInput(ReorderTodoSchema, input);
  if (isRefused(parsed)) return parsed;
  const denied = requireTrusted(ctx, "reorder todos");
  if (denied) return denied;
  const d = begin(state, ctx);
  if (isRefused(d)) return d;
  const todo = findTodo(d, parsed.todo);
  if (isRefused(todo)) return todo;
  const order = [...d.state.todos]
    .filter((t) => t.key !== todo.key)
    .sort((a, b) => a.position - b.position || keyNumber(a.key) - keyNumber(b.key));
  let index: number;
  if (parsed.before !== undefined) {
    if (parsed.before === todo.key)
      return refuse("invalid_input", "before: a todo cannot move before itself.");
    index = order.findIndex((t) => t.key === parsed.before);
    if (index < 0)
      return refuse("not_found", `before: there is no todo ${parsed.before} on this goal.`);
  } else {
    index = Math.min(parsed.position ?? 0, order.length);
  }
  order.splice(index, 0, todo);
  for (const [i, t] of order.entries()) t.position = i + 1;
  todo.updatedAt = ctx.now;
  d.checklist = true;
  emit(d, "todo.reordered", { todo: todo.key, position: todo.position });
  planChanged(d, `${todo.key} reordered`);
  return commit(d);
}
